/// A document compiled onto a `FlexTree` (SPEC §2.3), plus the per-row facts the assembly of
/// frames, separators and visibility needs, all in document order (index k = k-th row).
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
    /// Row layouts without frames yet.
    var rows: [RowLayout] = []
    /// Index of the parent row in `rows`, -1 for a root row.
    var parentSlot: [Int32] = []
    var flags: [UInt8] = []
    /// Index into `decors`; 0 is the document default (rows that override nothing).
    var decorSlot: [Int32] = []
    var decors: [Decor] = []
    /// Per stack (slot 0 = root, slot k + 1 = row k): the row index of its last non-hidden row,
    /// or -1.
    var lastShown: [Int32] = []
}

extension Document {
    /// Builds the engine tree for this document (SPEC §2.3). Every row gets exactly one node,
    /// appended in document order; hidden rows are `display: none` and rows below them are
    /// plain `display: none` nodes (the engine skips them).
    func compile() -> CompiledDocument {
        let s = settings
        let n = rowCount
        var c = CompiledDocument(tree: FlexTree(capacity: n + 1))
        c.rows.reserveCapacity(n)
        c.parentSlot.reserveCapacity(n)
        c.flags.reserveCapacity(n)
        c.decorSlot.reserveCapacity(n)
        c.lastShown = [Int32](repeating: -1, count: n + 1)
        c.decors = [CompiledDocument.Decor(insets: s.defaults.insets, separator: s.defaults.separator)]

        c.rootNode = c.tree.addNode(StyleCompiler.root(s), parent: nil)
        c.firstRowNode = c.rootNode + 1

        /// One open stack of the depth-first walk.
        struct Level {
            var rows: [RowID]
            var next: Int
            var slot: Int32          // row index of the stack row, -1 for the root
            var node: FlexNodeID
            var axis: Axis
            var align: Align
            var hidden: Bool         // the stack row or an ancestor is hidden
        }
        var levels = [Level(rows: children(of: nil), next: 0, slot: -1, node: c.rootNode,
                            axis: s.axis, align: s.align, hidden: false)]
        let hiddenStyle: FlexStyle = { var h = FlexStyle(); h.display = false; return h }()

        while !levels.isEmpty {
            let top = levels.count - 1
            let i = levels[top].next
            if i == levels[top].rows.count {
                levels.removeLast()
                continue
            }
            levels[top].next = i + 1
            let level = levels[top]
            let id = level.rows[i]
            guard let config = config(of: id) else { continue }  // cannot happen: child lists hold known ids
            let k = Int32(c.rows.count)

            let hiddenInTree = level.hidden || config.hidden
            var f: UInt8 = 0
            if config.hidden { f |= CompiledDocument.ownHidden }
            if hiddenInTree { f |= CompiledDocument.hiddenInTree }
            if level.axis == .horizontal { f |= CompiledDocument.parentHorizontal }

            var decor: Int32 = 0
            if config.insets != nil || !config.separator.isEmpty {
                decor = Int32(c.decors.count)
                c.decors.append(.init(insets: config.effectiveInsets(s.defaults),
                                      separator: config.separator.resolved(over: s.defaults.separator)))
            }
            let style = level.hidden
                ? hiddenStyle
                : StyleCompiler.row(config, insets: c.decors[Int(decor)].insets,
                                    parentAxis: level.axis, parentAlign: level.align)
            let node = c.tree.addNode(style, parent: level.node)
            assert(node == c.firstRowNode + Int(k), "FlexTree must number nodes in order")

            c.rows.append(RowLayout(id: id, parent: level.slot < 0 ? nil : c.rows[Int(level.slot)].id,
                                    index: i, type: config.type, hidden: config.hidden, frame: nil,
                                    content: nil, separator: nil, visibility: .hidden, percent: 0))
            c.parentSlot.append(level.slot)
            c.flags.append(f)
            c.decorSlot.append(decor)
            if !config.hidden { c.lastShown[Int(level.slot + 1)] = k }

            if let stack = config.stack {
                let kids = children(of: id)
                if !kids.isEmpty {
                    levels.append(Level(rows: kids, next: 0, slot: k, node: node, axis: stack.axis,
                                        align: stack.align, hidden: hiddenInTree))
                }
            }
        }
        return c
    }
}
