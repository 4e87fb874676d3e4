/// A stack layout document (SPEC §2): the root stack's settings and a tree of rows.
///
/// Rows are stored flat in dense slot arrays (`DocumentRows`: compact per-row fields, interned
/// styles, an id → slot table and one order-statistics tree per stack), so that a row is found by
/// id in O(1), `index(of:)`, inserting, removing and moving are O(log n), reading rows in
/// document order touches memory in order, and a whole subtree never has to be copied to change
/// one row. `children(of: nil)` are the root's rows.
///
/// `==` and `hash(into:)` are over the logical content (name, settings, rows with their order
/// and configs), whatever the slot layout or history.
///
/// The mutating primitives below check their preconditions and throw `StackDocError` without
/// changing anything when one fails.
public struct Document: Sendable {
    /// The document's name, `[A-Za-z0-9_.-]{1,64}`.
    public var name: String
    /// The root stack's settings, the defaults and the view state.
    public var settings: DocumentSettings
    var rows = DocumentRows()

    /// An empty document.
    public init(name: String, settings: DocumentSettings = DocumentSettings()) {
        self.name = name
        self.settings = settings
    }

    // MARK: Reading

    /// Number of rows at every depth.
    public var rowCount: Int { rows.count }

    /// True when the document has a row `id` (at any depth).
    public func contains(_ id: RowID) -> Bool { rows.slot(of: id) != nil }

    /// The row's config, or nil when there is no such row.
    public func config(of id: RowID) -> RowConfig? {
        // Not `slot(of:).map(rows.config)`: that closure takes a copy of `rows` (a retain and
        // a release of each of its buffers) per call, ≈ a third of planning a 100k-row `clear`.
        guard let s = rows.slot(of: id) else { return nil }
        return rows.config(s)
    }

    /// The enclosing stack row of `id` (`.some(nil)` for a root row, `nil` for an unknown id).
    public func parent(of id: RowID) -> RowID?? {
        guard let s = rows.slot(of: id) else { return nil }
        let p = rows.parent[Int(s)]
        return .some(p < 0 ? nil : rows.ids[Int(p)])
    }

    /// The ordered rows of a stack (`nil` = the root), hidden ones included. O(rows of the
    /// stack): prefer `childCount(of:)`, `child(at:of:)` or `forEachChild(of:)` in loops.
    public func children(of parent: RowID?) -> [RowID] {
        guard let p = stackSlot(parent) else { return [] }
        var result: [RowID] = []
        result.reserveCapacity(rows.childCount(of: p))
        rows.forEachChild(of: p) { _, c in result.append(rows.ids[Int(c)]) }
        return result
    }

    /// Number of rows of a stack (`nil` = the root; 0 for an unknown id). O(1).
    public func childCount(of parent: RowID?) -> Int {
        guard let p = stackSlot(parent) else { return 0 }
        return rows.childCount(of: p)
    }

    /// The row at `index` of a stack (`nil` = the root), or nil when out of range. O(log n).
    public func child(at index: Int, of parent: RowID?) -> RowID? {
        guard let p = stackSlot(parent), index >= 0, index < rows.childCount(of: p) else { return nil }
        return rows.ids[Int(rows.order.node(at: index, in: rows.root(of: p)))]
    }

    /// Calls `body` with each row of a stack (`nil` = the root) in order, with its index and
    /// config, without building an array.
    /// - Parameters:
    ///   - parent: The stack row (nil: the root).
    ///   - body: Called with each row's index, id and configuration.
    /// - Throws: What `body` throws (the walk stops there).
    public func forEachChild(of parent: RowID?, _ body: (_ index: Int, _ id: RowID, _ config: RowConfig) throws -> Void) rethrows {
        guard let p = stackSlot(parent) else { return }
        try rows.forEachChild(of: p) { index, c in try body(index, rows.ids[Int(c)], rows.config(c)) }
    }

    /// Position of `id` among its parent's rows. O(log n).
    public func index(of id: RowID) -> Int? {
        guard let s = rows.slot(of: id) else { return nil }
        return rows.order.rank(of: s)
    }

    /// True when `id` is `ancestor` or lies anywhere below it.
    public func isDescendant(_ id: RowID, of ancestor: RowID) -> Bool {
        guard let a = rows.slot(of: ancestor), var c = rows.slot(of: id) else { return false }
        while c >= 0 {
            if c == a { return true }
            c = rows.parent[Int(c)]
        }
        return false
    }

    /// Calls `body` for every row in document order: depth first, a stack row before its rows.
    /// - Parameter body: Called with each row's id, its stack (nil: the root), its index there and
    ///   its configuration.
    /// - Throws: What `body` throws (the walk stops there).
    public func forEachRow(_ body: (_ id: RowID, _ parent: RowID?, _ index: Int, _ config: RowConfig) throws -> Void) rethrows {
        // Position within the current stack, one entry per open level.
        var indexes: [Int] = [0]
        var s = rows.firstInDocumentOrder
        while s >= 0 {
            let i = Int(s)
            let p = rows.parent[i]
            try body(rows.ids[i], p < 0 ? nil : rows.ids[Int(p)], indexes[indexes.count - 1], rows.config(s))
            let next = rows.nextInDocumentOrder(s)
            if next < 0 { break }
            let np = rows.parent[Int(next)]
            if np == s {
                indexes.append(0)  // down into this stack
            } else {
                // Up as many levels as `next` is above `s`, then one step along.
                var c = p
                while c != np {
                    indexes.removeLast()
                    c = rows.parent[Int(c)]
                }
                indexes[indexes.count - 1] += 1
            }
            s = next
        }
    }

    /// The subtree rooted at `id` as one value.
    public func tree(of id: RowID) -> RowTree? {
        guard let s = rows.slot(of: id) else { return nil }
        return tree(slot: s)
    }

    /// The root's rows as trees (the shape of the saved JSON format).
    public var trees: [RowTree] { subtrees(of: rows.rootRoot) }

    private func tree(slot s: Int32) -> RowTree {
        RowTree(id: rows.ids[Int(s)], config: rows.config(s), rows: subtrees(of: rows.childRoot[Int(s)]))
    }

    private func subtrees(of root: Int32) -> [RowTree] {
        var result: [RowTree] = []
        result.reserveCapacity(rows.order.count(root))
        var c = rows.order.first(root)
        while c >= 0 {
            result.append(tree(slot: c))
            c = rows.order.successor(c)
        }
        return result
    }

    /// Prepares storage for `rows` rows in all, `rootRows` of them in the root, so that loading
    /// a large document inserts without rehashing (used by the store's loader).
    public mutating func reserveCapacity(rows: Int, rootRows: Int) {
        self.rows.reserve(rows: max(rows, rootRows))
    }

    /// Appends one row without children at the end of `parent`'s rows: `insertRow` at the last
    /// index with one hash lookup instead of two (the store's loader fills stacks in order).
    /// - Parameters:
    ///   - id: The new row's id (not in the document yet).
    ///   - config: Its configuration.
    ///   - parent: The stack row it goes into (nil: the root).
    /// - Throws: `StackDocError` when `id` exists or `parent` is not a stack of the document;
    ///   nothing changes.
    public mutating func appendRow(_ id: RowID, config: RowConfig, parent: RowID?) throws {
        try appendRowGivingSlot(id, config: config, parent: parent)
    }

    /// `appendRow(_:config:parent:)`, returning the new row's slot.
    @discardableResult
    mutating func appendRowGivingSlot(_ id: RowID, config: RowConfig, parent: RowID?) throws -> Int32 {
        let p = try checkStack(parent)
        guard let s = rows.append(id, config, parent: p) else { throw StackDocError(.rowExists(id)) }
        return s
    }

    // MARK: Primitive changes

    /// Inserts one row without children at `index` of `parent`'s rows.
    /// - Parameters:
    ///   - id: The new row's id (not in the document yet).
    ///   - config: Its configuration.
    ///   - parent: The stack row it goes into (nil: the root).
    ///   - index: Its index among `parent`'s rows (0 through their count).
    /// - Throws: `StackDocError` when `id` exists, `parent` is not a stack of the document or
    ///   `index` is out of range; nothing changes.
    public mutating func insertRow(_ id: RowID, config: RowConfig, parent: RowID?, at index: Int) throws {
        guard rows.slot(of: id) == nil else { throw StackDocError(.rowExists(id)) }
        let p = try checkStack(parent)
        let count = rows.childCount(of: p)
        guard index >= 0, index <= count else {
            throw StackDocError("index \(index) is out of range 0...\(count)\(Document.describe(parent))")
        }
        rows.insert(id, config, parent: p, at: index)
    }

    /// Removes one row that has no rows of its own.
    /// - Parameter id: The row.
    /// - Throws: `StackDocError` when there is no such row or it still has rows; nothing changes.
    public mutating func removeRow(_ id: RowID) throws {
        try removeRowKeepingSlots(id)
        compactIfWanted()
    }

    /// `removeRow` without giving the memory of removed rows back (`compactIfWanted`), for a run
    /// of removals that compacts once at its end (`apply(run:applied:)`).
    mutating func removeRowKeepingSlots(_ id: RowID) throws {
        guard let s = rows.slot(of: id) else { throw StackDocError(.noSuchRow(id)) }
        guard rows.childCount(of: s) == 0 else { throw StackDocError("row \(Validation.quoted(id)) still has rows") }
        rows.remove(s)
    }

    /// After mass removals, gives the memory back: the rows in fresh storage once more than half
    /// of the slots are free (amortised O(1) per removal).
    mutating func compactIfWanted() {
        if rows.wantsCompaction { rows = rows.compacted() }
    }

    /// Replaces a row's config. A stack row that still has rows keeps being a stack.
    /// - Parameters:
    ///   - id: The row.
    ///   - config: Its new configuration.
    /// - Throws: `StackDocError` when there is no such row; nothing changes.
    public mutating func updateRow(_ id: RowID, config: RowConfig) throws {
        guard let s = rows.slot(of: id) else { throw StackDocError(.noSuchRow(id)) }
        if config.stack == nil, rows.childCount(of: s) > 0 {
            throw StackDocError("row \(Validation.quoted(id)) has rows and must stay a stack")
        }
        rows.update(s, config)
    }

    /// Moves a row (with its subtree) to `index` of `parent`'s rows, `index` counted after the
    /// row has left its old place.
    /// - Parameters:
    ///   - id: The row.
    ///   - parent: The stack row it goes into (nil: the root; not the row itself or one of its rows).
    ///   - index: Its index there.
    /// - Throws: `StackDocError` when a row is missing, the move would put the row inside itself,
    ///   or `index` is out of range; nothing changes.
    public mutating func moveRow(_ id: RowID, to parent: RowID?, at index: Int) throws {
        guard let s = rows.slot(of: id) else { throw StackDocError(.noSuchRow(id)) }
        let p = try checkStack(parent)
        if p >= 0 {
            var c = p
            while c >= 0 {
                if c == s { throw StackDocError(.moveIntoItself(id)) }
                c = rows.parent[Int(c)]
            }
        }
        let count = rows.childCount(of: p) - (p == rows.parent[Int(s)] ? 1 : 0)
        guard index >= 0, index <= count else {
            throw StackDocError("index \(index) is out of range 0...\(count)\(Document.describe(parent))")
        }
        rows.move(s, to: p, at: index)
    }

    // MARK: Helpers

    /// The slot of a stack that may receive rows (-1 = the root), or the error naming why not.
    private func checkStack(_ parent: RowID?) throws -> Int32 {
        guard let parent else { return -1 }
        guard let s = rows.slot(of: parent) else { throw StackDocError(.noSuchRow(parent)) }
        guard rows.isStack(s) else { throw StackDocError(.notAStack(parent)) }
        return s
    }

    /// The slot of `parent` (-1 = the root), nil for an unknown id.
    /// The slot of stack `parent` (`-1` for the root), nil for an unknown id.
    func stackSlot(_ parent: RowID?) -> Int32? {
        guard let parent else { return -1 }
        return rows.slot(of: parent)
    }

    static func describe(_ parent: RowID?) -> String {
        parent.map { " in '\($0)'" } ?? ""
    }
}
