/// A stack layout document (SPEC §2): the root stack's settings and a tree of rows.
///
/// Rows are stored flat — a dictionary from id to config and parent, plus one ordered child list
/// per stack — so that a row is found by id in O(1) and a whole subtree never has to be copied
/// to change one row. `children(of: nil)` are the root's rows.
///
/// The mutating primitives below check their preconditions and throw `StackDocError` without
/// changing anything when one fails.
public struct Document: Hashable, Sendable, Codable {
    /// Where a row sits: its parent stack (`nil` for the root) and its config.
    struct Node: Hashable, Sendable, Codable {
        var config: RowConfig
        var parent: RowID?
    }

    public var name: String
    public var settings: DocumentSettings
    private var nodes: [RowID: Node] = [:]
    private var rootRows: [RowID] = []
    private var stackRows: [RowID: [RowID]] = [:]

    public init(name: String, settings: DocumentSettings = DocumentSettings()) {
        self.name = name
        self.settings = settings
    }

    // MARK: Reading

    /// Number of rows at every depth.
    public var rowCount: Int { nodes.count }

    public func contains(_ id: RowID) -> Bool { nodes[id] != nil }

    /// The row's config, or nil when there is no such row.
    public func config(of id: RowID) -> RowConfig? { nodes[id]?.config }

    /// The enclosing stack row of `id` (`.some(nil)` for a root row, `nil` for an unknown id).
    public func parent(of id: RowID) -> RowID?? {
        guard let node = nodes[id] else { return nil }
        return .some(node.parent)
    }

    /// The ordered rows of a stack (`nil` = the root), hidden ones included.
    public func children(of parent: RowID?) -> [RowID] {
        guard let parent else { return rootRows }
        return stackRows[parent] ?? []
    }

    /// Position of `id` among its parent's rows. O(siblings).
    public func index(of id: RowID) -> Int? {
        guard let node = nodes[id] else { return nil }
        return children(of: node.parent).firstIndex(of: id)
    }

    /// True when `id` is `ancestor` or lies anywhere below it.
    public func isDescendant(_ id: RowID, of ancestor: RowID) -> Bool {
        var current: RowID? = id
        while let c = current {
            if c == ancestor { return true }
            current = nodes[c]?.parent
        }
        return false
    }

    /// Calls `body` for every row in document order: depth first, a stack row before its rows.
    public func forEachRow(_ body: (_ id: RowID, _ parent: RowID?, _ index: Int, _ config: RowConfig) throws -> Void) rethrows {
        func visit(_ parent: RowID?) throws {
            for (index, id) in children(of: parent).enumerated() {
                let config = nodes[id]!.config
                try body(id, parent, index, config)
                if config.stack != nil { try visit(id) }
            }
        }
        try visit(nil)
    }

    /// The subtree rooted at `id` as one value.
    public func tree(of id: RowID) -> RowTree? {
        guard let node = nodes[id] else { return nil }
        return RowTree(id: id, config: node.config, rows: children(of: id).map { tree(of: $0)! })
    }

    /// The root's rows as trees (the shape of the saved JSON format).
    public var trees: [RowTree] { rootRows.map { tree(of: $0)! } }

    /// Prepares storage for `rows` rows in all, `rootRows` of them in the root, so that loading
    /// a large document inserts without rehashing (used by the store's loader).
    public mutating func reserveCapacity(rows: Int, rootRows: Int) {
        nodes.reserveCapacity(rows)
        self.rootRows.reserveCapacity(rootRows)
    }

    /// Appends one row without children at the end of `parent`'s rows: `insertRow` at the last
    /// index with one hash lookup instead of two (the store's loader fills stacks in order).
    public mutating func appendRow(_ id: RowID, config: RowConfig, parent: RowID?) throws {
        try checkStack(parent)
        if let existing = nodes.updateValue(Node(config: config, parent: parent), forKey: id) {
            nodes[id] = existing
            throw StackDocError("row '\(id)' already exists")
        }
        if let parent {
            stackRows[parent, default: []].append(id)
        } else {
            rootRows.append(id)
        }
    }

    // MARK: Primitive changes

    /// Inserts one row without children at `index` of `parent`'s rows.
    public mutating func insertRow(_ id: RowID, config: RowConfig, parent: RowID?, at index: Int) throws {
        guard nodes[id] == nil else { throw StackDocError("row '\(id)' already exists") }
        try checkStack(parent)
        let count = children(of: parent).count
        guard index >= 0, index <= count else {
            throw StackDocError("index \(index) is out of range 0...\(count)\(Document.describe(parent))")
        }
        nodes[id] = Node(config: config, parent: parent)
        mutateChildren(of: parent) { $0.insert(id, at: index) }
    }

    /// Removes one row that has no rows of its own.
    public mutating func removeRow(_ id: RowID) throws {
        guard let node = nodes[id] else { throw StackDocError("no row '\(id)'") }
        guard (stackRows[id] ?? []).isEmpty else { throw StackDocError("row '\(id)' still has rows") }
        let index = index(of: id)!
        mutateChildren(of: node.parent) { $0.remove(at: index) }
        stackRows[id] = nil
        nodes[id] = nil
    }

    /// Replaces a row's config. A stack row that still has rows keeps being a stack.
    public mutating func updateRow(_ id: RowID, config: RowConfig) throws {
        guard nodes[id] != nil else { throw StackDocError("no row '\(id)'") }
        if config.stack == nil, !(stackRows[id] ?? []).isEmpty {
            throw StackDocError("row '\(id)' has rows and must stay a stack")
        }
        nodes[id]!.config = config
    }

    /// Moves a row (with its subtree) to `index` of `parent`'s rows, `index` counted after the
    /// row has left its old place.
    public mutating func moveRow(_ id: RowID, to parent: RowID?, at index: Int) throws {
        guard let node = nodes[id] else { throw StackDocError("no row '\(id)'") }
        try checkStack(parent)
        if let parent, isDescendant(parent, of: id) {
            throw StackDocError("cannot move row '\(id)' into itself")
        }
        let oldIndex = self.index(of: id)!
        let count = children(of: parent).count - (parent == node.parent ? 1 : 0)
        guard index >= 0, index <= count else {
            throw StackDocError("index \(index) is out of range 0...\(count)\(Document.describe(parent))")
        }
        mutateChildren(of: node.parent) { $0.remove(at: oldIndex) }
        nodes[id]!.parent = parent
        mutateChildren(of: parent) { $0.insert(id, at: index) }
    }

    // MARK: Helpers

    private func checkStack(_ parent: RowID?) throws {
        guard let parent else { return }
        guard let node = nodes[parent] else { throw StackDocError("no row '\(parent)'") }
        guard node.config.stack != nil else { throw StackDocError("row '\(parent)' is not a stack") }
    }

    private mutating func mutateChildren(of parent: RowID?, _ body: (inout [RowID]) -> Void) {
        if let parent {
            body(&stackRows[parent, default: []])
            // An empty child list is stored as no entry, so that equal documents compare equal
            // whatever their history (an inverse must restore a document exactly).
            if stackRows[parent]?.isEmpty == true { stackRows[parent] = nil }
        } else {
            body(&rootRows)
        }
    }

    static func describe(_ parent: RowID?) -> String {
        parent.map { " in '\($0)'" } ?? ""
    }
}
