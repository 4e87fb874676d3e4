/// Index of a node in a `FlexTree`.
public typealias FlexNodeID = Int

/// A tree of flex boxes and the CSS Flexible Box Layout algorithm over it (CSS Flexbox §9,
/// single line, no wrap, left to right, border-box sizing, automatic minimum size §4.5).
///
/// Nodes are appended in order (a child after its parent); `computeLayout` fills every node's
/// frame relative to its parent's border box.
///
/// Storage is struct-of-arrays (one column per property, indexed by node id) behind a
/// copy-on-write buffer; layout is iterative (no recursion), so tree depth is not limited by
/// the stack. Invalid style values fall back to CSS initial values (see `FlexStylePacking`).
public struct FlexTree: Sendable {
    var storage: FlexStorage

    /// An empty tree (add nodes with `addNode`).
    public init() {
        storage = FlexStorage()
    }

    /// An empty tree with room for `capacity` nodes.
    public init(capacity: Int) {
        storage = FlexStorage(capacity: Swift.max(1, capacity))
    }

    /// Makes room for at least `capacity` nodes in total.
    public mutating func reserveCapacity(_ capacity: Int) {
        makeUnique()
        storage.reserve(capacity)
    }

    /// Number of nodes in the tree.
    public var nodeCount: Int { storage.count }

    /// Appends a node as the last child of `parent` (`nil` makes a root) and returns its id.
    /// `parent` must be an id returned earlier by this tree (a programming error otherwise).
    @discardableResult
    public mutating func addNode(_ style: FlexStyle, parent: FlexNodeID?) -> FlexNodeID {
        makeUnique()
        let s = storage
        if let parent {
            precondition(parent >= 0 && parent < s.count, "FlexTree.addNode: unknown parent id \(parent)")
        }
        precondition(s.count < Int(Int32.max), "FlexTree: too many nodes")
        let i = s.appendSlot()
        s.store(style, at: i)
        let c = s.columns // after appendSlot, which may reallocate
        c.firstChild[i] = -1
        c.lastChild[i] = -1
        c.nextSibling[i] = -1
        c.childCount[i] = 0
        c.frame[i] = .zero
        if let parent {
            let id = Int32(truncatingIfNeeded: i)
            c.parent[i] = Int32(truncatingIfNeeded: parent)
            let last = c.lastChild[parent]
            if last < 0 { c.firstChild[parent] = id } else { c.nextSibling[Int(last)] = id }
            c.lastChild[parent] = id
            c.childCount[parent] += 1
        } else {
            c.parent[i] = -1
        }
        return i
    }

    /// Replaces the style of `node` (takes effect at the next `computeLayout`).
    public mutating func setStyle(_ style: FlexStyle, of node: FlexNodeID) {
        precondition(node >= 0 && node < storage.count, "FlexTree.setStyle: unknown node id \(node)")
        makeUnique()
        storage.store(style, at: node)
    }

    /// The style of `node` as stored (invalid values replaced by CSS initial values).
    public func style(of node: FlexNodeID) -> FlexStyle {
        precondition(node >= 0 && node < storage.count, "FlexTree.style: unknown node id \(node)")
        return storage.style(at: node)
    }

    /// The parent of `node`, or nil for a root.
    public func parent(of node: FlexNodeID) -> FlexNodeID? {
        precondition(node >= 0 && node < storage.count, "FlexTree.parent: unknown node id \(node)")
        let p = storage.columns.parent[node]
        return p < 0 ? nil : Int(p)
    }

    /// Number of children of `node` (`display: none` ones included).
    public func childCount(of node: FlexNodeID) -> Int {
        precondition(node >= 0 && node < storage.count, "FlexTree.childCount: unknown node id \(node)")
        return Int(storage.columns.childCount[node])
    }

    /// The children of `node` in order.
    public func children(of node: FlexNodeID) -> [FlexNodeID] {
        precondition(node >= 0 && node < storage.count, "FlexTree.children: unknown node id \(node)")
        var result: [FlexNodeID] = []
        let columns = storage.columns
        result.reserveCapacity(Int(columns.childCount[node]))
        var c = columns.firstChild[node]
        while c >= 0 {
            result.append(Int(c))
            c = columns.nextSibling[Int(c)]
        }
        return result
    }

    /// Lays out the tree under `root`. A `nil` available size is max-content (the root is then
    /// sized like an absolutely positioned box); the root's own margin offsets its frame.
    /// A given available width is the root's containing block: an `auto` width fills it (minus
    /// the horizontal margins, like a block box); an `auto` height is always the content height.
    /// Nodes outside `root`'s subtree keep their frames.
    public mutating func computeLayout(root: FlexNodeID, availableWidth: Double?, availableHeight: Double?) {
        precondition(root >= 0 && root < storage.count, "FlexTree.computeLayout: unknown root id \(root)")
        makeUnique()
        var pass = FlexLayoutPass(storage)
        pass.run(root: root, availableWidth: availableWidth, availableHeight: availableHeight)
    }

    /// The node's border box after `computeLayout`, relative to its parent's border box;
    /// `display: none` nodes and their subtrees are `Rect.zero`.
    public func frame(of node: FlexNodeID) -> Rect {
        precondition(node >= 0 && node < storage.count, "FlexTree.frame: unknown node id \(node)")
        return storage.columns.frame[node]
    }

    /// The node's laid-out border-box size (the size part of `frame(of:)`).
    public func size(of node: FlexNodeID) -> Size {
        let f = frame(of: node)
        return Size(width: f.width, height: f.height)
    }

    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }
}
