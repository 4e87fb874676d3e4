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
    /// Shown stacks that scroll on their own (SPEC §2.8), by row index, in document order, and
    /// their stored offsets.
    var scrollers: [Int32] = []
    var scrollOffsets: [Double] = []
    /// Some stack scrolls on its own, shown or not.
    var hasScroller = false

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
            var defaultDecor: Int32  // its rows' defaults: insets of those that set none, separator under theirs (0: the document's)

            /// The parent's part of a shared style's key (axis and align).
            var key: Int { (axis == .horizontal ? 4 : 0) + align.code }
        }
        let store = rows
        let first = lower == 0 ? store.order.first(store.rootRoot)
            : lower < rootCount ? store.order.node(at: lower, in: store.rootRoot) : -1
        var levels = [Level(cursor: first, index: Int32(lower), slot: -1, node: c.rootNode,
                            axis: s.axis, align: s.align, hidden: false, defaultDecor: 0)]
        // Rows sharing a style record share its facts (type, decoration: insets and separator
        // style) and, per parent axis and align, the shared part of their engine style: each is
        // computed once per record (or record and parent), not per row.
        let recordCount = store.styles.records.count
        var factsOfRecord = [Int32](repeating: -1, count: recordCount)
        var facts: [RecordFacts] = []
        var sharedOfKey = [Int32](repeating: -1, count: recordCount * 8)
        var shared: [StyleCompiler.Shared] = []
        // Rows inside a stack with row defaults of its own (`rowInsets`, `rowSeparator`): their
        // decoration and engine style also depend on those defaults, keyed by them (few rows: forms).
        var rowDecorOfRecord: [Int: Int32] = [:]
        var decorInside: [Int: Int32] = [:]
        var sharedInside: [Int: Int32] = [:]

        while let level = levels.last {
            let top = levels.count - 1
            let slot = level.cursor
            guard slot >= 0, top > 0 || level.index < upper else {
                levels.removeLast()
                continue
            }
            levels[top].cursor = store.order.successor(slot)
            levels[top].index = level.index + 1
            let record = Int(store.style[Int(slot)])
            var fi = Int(factsOfRecord[record])
            if fi < 0 {
                fi = facts.count
                factsOfRecord[record] = Int32(truncatingIfNeeded: fi)
                facts.append(RecordFacts(store.styles[Int32(truncatingIfNeeded: record)].rest, defaults: s.defaults, into: &c))
            }
            let hidden = store.flags[Int(slot)] & DocumentRows.hidden != 0
            let k = Int32(truncatingIfNeeded: c.ids.count)

            let hiddenInTree = level.hidden || hidden
            var f: UInt8 = 0
            if hidden { f |= CompiledDocument.ownHidden }
            if hiddenInTree { f |= CompiledDocument.hiddenInTree }
            if level.axis == .horizontal { f |= CompiledDocument.parentHorizontal }
            var decor = facts[fi].decor
            let inside = level.defaultDecor != 0
            if inside {
                let key = record << 32 | Int(level.defaultDecor)
                if let d = decorInside[key] {
                    decor = d
                } else {
                    let d = Int32(truncatingIfNeeded: c.decors.count)
                    let stackDefault = c.decors[Int(level.defaultDecor)]
                    c.decors.append(.init(insets: facts[fi].ownInsets ? c.decors[Int(decor)].insets : stackDefault.insets,
                                          separator: facts[fi].separator.resolved(over: stackDefault.separator)))
                    decorInside[key] = d
                    decor = d
                }
            }

            let node: FlexNodeID
            if hiddenInTree {
                node = c.tree.addNode(StyleCompiler.hidden, parent: level.node)
            } else {
                let key = record * 8 + level.key
                var si = inside ? Int(sharedInside[key << 32 | Int(decor)] ?? -1) : Int(sharedOfKey[key])
                if si < 0 {
                    si = shared.count
                    if inside { sharedInside[key << 32 | Int(decor)] = Int32(truncatingIfNeeded: si) } else { sharedOfKey[key] = Int32(truncatingIfNeeded: si) }
                    shared.append(StyleCompiler.shared(store.styles[Int32(truncatingIfNeeded: record)].rest,
                                                       insets: c.decors[Int(decor)].insets,
                                                       parentAxis: level.axis, parentAlign: level.align))
                }
                node = c.tree.addNode(StyleCompiler.row(shared[si], size: store.rowSize(slot), content: store.content[Int(slot)]),
                                      parent: level.node)
            }
            assert(node == c.firstRowNode + Int(k), "FlexTree must number nodes in order")

            c.ids.append(store.ids[Int(slot)])
            c.slots.append(slot)
            c.lastShown.append(-1)
            c.types.append(facts[fi].type)
            c.indexInParent.append(level.index)
            c.parentSlot.append(level.slot)
            c.flags.append(f)
            c.decorSlot.append(decor)
            if !hidden { c.lastShown[Int(level.slot + 1)] = k }
            if facts[fi].sticky {
                c.hasSticky = true
                if !hiddenInTree { c.sticky.append(k) }
            }

            if let offset = facts[fi].scrollOffset {
                c.hasScroller = true
                if !hiddenInTree { c.scrollers.append(k); c.scrollOffsets.append(offset) }
            }

            if let stack = facts[fi].stack {
                let first = store.order.first(store.childRoot[Int(slot)])
                if first >= 0 {
                    var defaultDecor = level.defaultDecor
                    if facts[fi].rowInsets != nil || facts[fi].rowSeparator != nil {
                        let key = record << 32 | Int(level.defaultDecor)
                        if let d = rowDecorOfRecord[key] {
                            defaultDecor = d
                        } else {
                            // Its own defaults, each over the one it is inside (the document's at the root).
                            let outer = c.decors[Int(level.defaultDecor)]
                            defaultDecor = Int32(truncatingIfNeeded: c.decors.count)
                            c.decors.append(.init(insets: facts[fi].rowInsets.map(LayoutUnit.snap) ?? outer.insets,
                                                  separator: facts[fi].rowSeparator?.resolved(over: outer.separator) ?? outer.separator))
                            rowDecorOfRecord[key] = defaultDecor
                        }
                    }
                    levels.append(Level(cursor: first, index: 0, slot: k, node: node, axis: stack.axis,
                                        align: stack.align, hidden: hiddenInTree, defaultDecor: defaultDecor))
                }
            }
        }
        return c
    }
}

/// What the compile walk needs of a style record, read once per record.
private struct RecordFacts {
    var type: String
    var sticky: Bool
    var stack: StackSettings?
    /// Index into `CompiledDocument.decors` (0: the document default).
    var decor: Int32
    /// The record sets its own insets (else a stack's default may replace the document's).
    var ownInsets: Bool
    /// A stack's default insets for the rows inside it (`rowInsets`).
    var rowInsets: Edges?
    /// A stack's scroll offset when it scrolls on its own (`scrolls`).
    var scrollOffset: Double?
    /// A stack's separator overrides for the rows inside it (`rowSeparator`).
    var rowSeparator: SeparatorOverrides?
    /// The record's own separator overrides (laid over a stack's defaults).
    var separator: SeparatorOverrides

    /// The facts of the record whose config is `config`; a record with its own insets or
    /// separator adds its decoration to `c.decors`.
    init(_ config: RowConfig, defaults: DocumentDefaults, into c: inout CompiledDocument) {
        type = config.type
        sticky = config.sticky
        stack = config.stack
        ownInsets = config.insets != nil
        rowInsets = config.stack == nil ? nil : config.rowInsets
        scrollOffset = config.stack == nil ? nil : config.scrollOffset
        rowSeparator = config.stack == nil ? nil : config.rowSeparator
        separator = config.separator
        decor = 0
        if config.insets != nil || !config.separator.isEmpty {
            decor = Int32(truncatingIfNeeded: c.decors.count)
            c.decors.append(.init(insets: LayoutUnit.snap(config.effectiveInsets(defaults)),
                                  separator: config.separator.resolved(over: defaults.separator)))
        }
    }
}

private extension Align {
    /// 0…3, for the compile walk's style keys.
    var code: Int {
        switch self {
        case .start: 0
        case .center: 1
        case .end: 2
        case .stretch: 3
        }
    }
}
