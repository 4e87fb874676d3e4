/// A document compiled onto a `FlexTree` (SPEC §2.3), plus the per-row facts the assembly of
/// frames, separators and visibility needs, in compact parallel arrays in document order
/// (index k = k-th row, engine node `firstRowNode + k`).
struct CompiledDocument {
    /// Per-row decoration: what turns a frame into a content frame and a separator.
    struct Decor {
        var insets: Edges
        var separator: SeparatorStyle
    }

    /// Bits of `flags`.
    static let ownHidden: UInt8 = 1
    static let hiddenInTree: UInt8 = 2
    static let parentHorizontal: UInt8 = 4

    var tree: FlexTree
    var rootNode: FlexNodeID = 0
    /// The engine node of row k is `firstRowNode + k` (nodes are appended in document order).
    var firstRowNode: FlexNodeID = 1
    var ids: [RowID] = []
    /// The document slot of each row (for readers that need more of its config).
    var slots: [Int32] = []
    var types: [String] = []
    /// Position of the row among its parent's rows.
    var indexInParent: [Int32] = []
    /// Index of the parent row, -1 for a root row.
    var parentSlot: [Int32] = []
    var flags: [UInt8] = []
    /// Index into `decors`; 0 is the document default (rows that override nothing).
    var decorSlot: [Int32] = []
    var decors: [Decor] = []
    /// Per stack (slot 0 = root, slot k + 1 = row k): the index of its last non-hidden row, or -1.
    var lastShown: [Int32] = []
    /// Shown sticky rows (SPEC §2.7), by row index, in document order.
    var sticky: [Int32] = []
    /// Some row is sticky, shown or not.
    var hasSticky = false

    var count: Int { ids.count }
}

extension Document {
    /// Builds the engine tree for this document (SPEC §2.3). Every row gets exactly one node,
    /// appended in document order; hidden rows are `display: none` and rows below them are
    /// plain `display: none` nodes (the engine skips them). Walks the document's slot storage in
    /// order (no lookups by id, no child arrays).
    func compile() -> CompiledDocument { compile(settings: settings, roots: nil) }

    /// `compile()` with root settings `s`, and only the root's rows `roots` (with their
    /// subtrees) when given: what `LiveLayout` lays out a slice of the root's rows with.
    func compile(settings s: DocumentSettings, roots: Range<Int>?) -> CompiledDocument {
        let rootCount = rows.childCount(of: -1)
        let lower = min(roots?.lowerBound ?? 0, rootCount), upper = min(roots?.upperBound ?? rootCount, rootCount)
        let n = roots == nil ? rowCount : min(rowCount, (upper - lower) * 2)
        var c = CompiledDocument(tree: FlexTree(capacity: n + 1))
        c.ids.reserveCapacity(n)
        c.slots.reserveCapacity(n)
        c.types.reserveCapacity(n)
        c.indexInParent.reserveCapacity(n)
        c.parentSlot.reserveCapacity(n)
        c.flags.reserveCapacity(n)
        c.decorSlot.reserveCapacity(n)
        c.lastShown.reserveCapacity(n + 1)
        c.lastShown.append(-1)
        c.decors = [CompiledDocument.Decor(insets: LayoutUnit.snap(s.defaults.insets), separator: s.defaults.separator)]

        c.rootNode = c.tree.addNode(StyleCompiler.root(s), parent: nil)
        c.firstRowNode = c.rootNode + 1

        /// One open stack of the depth-first walk over the document's slot storage.
        struct Level {
            var cursor: Int32        // slot of the next row of this stack, -1 when done
            var index: Int32         // its position in the stack
            var slot: Int32          // row index of the stack row, -1 for the root
            var node: FlexNodeID
            var axis: Axis
            var align: Align
            var hidden: Bool         // the stack row or an ancestor is hidden
        }
        let store = rows
        let first = lower == 0 ? store.order.first(store.rootRoot)
            : lower < rootCount ? store.order.node(at: lower, in: store.rootRoot) : -1
        var levels = [Level(cursor: first, index: Int32(lower), slot: -1, node: c.rootNode,
                            axis: s.axis, align: s.align, hidden: false)]
        var hiddenStyle = FlexStyle()
        hiddenStyle.display = false
        // Rows sharing a style record share its decoration (insets and separator style).
        var decorOfStyle = [Int32](repeating: -1, count: store.styles.records.count)

        while let level = levels.last {
            let top = levels.count - 1
            let slot = level.cursor
            guard slot >= 0, top > 0 || level.index < upper else {
                levels.removeLast()
                continue
            }
            levels[top].cursor = store.order.successor(slot)
            levels[top].index = level.index + 1
            let config = store.config(slot)
            let k = Int32(truncatingIfNeeded: c.ids.count)

            let hiddenInTree = level.hidden || config.hidden
            var f: UInt8 = 0
            if config.hidden { f |= CompiledDocument.ownHidden }
            if hiddenInTree { f |= CompiledDocument.hiddenInTree }
            if level.axis == .horizontal { f |= CompiledDocument.parentHorizontal }

            var decor: Int32 = 0
            if config.insets != nil || !config.separator.isEmpty {
                let styleSlot = Int(store.style[Int(slot)])
                decor = decorOfStyle[styleSlot]
                if decor < 0 {
                    decor = Int32(truncatingIfNeeded: c.decors.count)
                    decorOfStyle[styleSlot] = decor
                    c.decors.append(.init(insets: LayoutUnit.snap(config.effectiveInsets(s.defaults)),
                                          separator: config.separator.resolved(over: s.defaults.separator)))
                }
            }
            let style = level.hidden
                ? hiddenStyle
                : StyleCompiler.row(config, insets: c.decors[Int(decor)].insets,
                                    parentAxis: level.axis, parentAlign: level.align)
            let node = c.tree.addNode(style, parent: level.node)
            assert(node == c.firstRowNode + Int(k), "FlexTree must number nodes in order")

            c.ids.append(store.ids[Int(slot)])
            c.slots.append(slot)
            c.lastShown.append(-1)
            c.types.append(config.type)
            c.indexInParent.append(level.index)
            c.parentSlot.append(level.slot)
            c.flags.append(f)
            c.decorSlot.append(decor)
            if !config.hidden { c.lastShown[Int(level.slot + 1)] = k }
            if config.sticky {
                c.hasSticky = true
                if !hiddenInTree { c.sticky.append(k) }
            }

            if let stack = config.stack {
                let first = store.order.first(store.childRoot[Int(slot)])
                if first >= 0 {
                    levels.append(Level(cursor: first, index: 0, slot: k, node: node, axis: stack.axis,
                                        align: stack.align, hidden: hiddenInTree))
                }
            }
        }
        return c
    }
}
