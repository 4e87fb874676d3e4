/// Struct-of-arrays storage of a `FlexTree`: one contiguous column per property, indexed by
/// node id. There is no object per node; growing the tree reallocates every column at once
/// (amortised doubling), so laying out never allocates per node.
///
/// The class is shared by value copies of `FlexTree` and copied on write
/// (`FlexTree.makeUnique`), which is what makes the `@unchecked Sendable` sound.
final class FlexStorage: @unchecked Sendable {
    private(set) var count = 0
    private(set) var capacity = 0

    // MARK: Style (sanitised; NaN means `auto` / not set)
    var flags: UnsafeMutablePointer<UInt16>
    var width: UnsafeMutablePointer<Double>
    var height: UnsafeMutablePointer<Double>
    var minWidth: UnsafeMutablePointer<Double>
    var minHeight: UnsafeMutablePointer<Double>
    var flexBasis: UnsafeMutablePointer<Double>
    var flexGrow: UnsafeMutablePointer<Double>
    var flexShrink: UnsafeMutablePointer<Double>
    /// Margins and paddings are interned: each node stores an index into `edgesTable`
    /// (documents repeat a handful of inset values across millions of rows).
    var marginIndex: UnsafeMutablePointer<UInt32>
    var paddingIndex: UnsafeMutablePointer<UInt32>
    var rowGap: UnsafeMutablePointer<Double>
    var columnGap: UnsafeMutablePointer<Double>

    // MARK: Interned edge values (index 0 is `Edges.zero`)
    private(set) var edgesTable: UnsafeMutablePointer<Edges>
    private(set) var edgesCount = 0
    private var edgesCapacity = 0
    private var edgesLookup: [Edges: UInt32] = [:]
    /// The last value interned for margins (slot 0) and for paddings (slot 1).
    private var lastInterned = [(Edges.zero, UInt32(0)), (Edges.zero, UInt32(0))]

    // MARK: Tree (first-child / next-sibling lists; -1 = none)
    var parent: UnsafeMutablePointer<Int32>
    var firstChild: UnsafeMutablePointer<Int32>
    var lastChild: UnsafeMutablePointer<Int32>
    var nextSibling: UnsafeMutablePointer<Int32>
    var childCount: UnsafeMutablePointer<Int32>

    // MARK: Result
    var frame: UnsafeMutablePointer<Rect>

    // MARK: Per-pass scratch (written before read by every layout pass)
    /// 0 = outside the laid-out subtree, 1 = laid out, 2 = `display: none` (itself or an ancestor).
    var state: UnsafeMutablePointer<UInt8>
    /// Border-box max-content (= min-content: there is no text) width and height, ignoring the
    /// node's own width/height (padding included).
    var contentWidth: UnsafeMutablePointer<Double>
    var contentHeight: UnsafeMutablePointer<Double>
    /// Flex base size and hypothetical main size (border box) along the parent's main axis.
    var flexBase: UnsafeMutablePointer<Double>
    var hypotheticalMain: UnsafeMutablePointer<Double>
    /// Per container: sum of the children's outer hypothetical main sizes (gaps excluded).
    var childHypotheticalSum: UnsafeMutablePointer<Double>
    /// Per container: number of visible (not `display: none`) children.
    var visibleChildCount: UnsafeMutablePointer<Int32>
    /// Per container: bit 0 when some visible child has flex-grow > 0, bit 1 for flex-shrink > 0.
    var childFlexFlags: UnsafeMutablePointer<UInt8>
    /// Per item during §9.7: 1 when frozen.
    var frozen: UnsafeMutablePointer<UInt8>

    init(capacity requested: Int = 16) {
        let cap = Swift.max(requested, 1)
        capacity = cap
        flags = .allocate(capacity: cap)
        width = .allocate(capacity: cap)
        height = .allocate(capacity: cap)
        minWidth = .allocate(capacity: cap)
        minHeight = .allocate(capacity: cap)
        flexBasis = .allocate(capacity: cap)
        flexGrow = .allocate(capacity: cap)
        flexShrink = .allocate(capacity: cap)
        marginIndex = .allocate(capacity: cap)
        paddingIndex = .allocate(capacity: cap)
        rowGap = .allocate(capacity: cap)
        columnGap = .allocate(capacity: cap)
        parent = .allocate(capacity: cap)
        firstChild = .allocate(capacity: cap)
        lastChild = .allocate(capacity: cap)
        nextSibling = .allocate(capacity: cap)
        childCount = .allocate(capacity: cap)
        frame = .allocate(capacity: cap)
        state = .allocate(capacity: cap)
        contentWidth = .allocate(capacity: cap)
        contentHeight = .allocate(capacity: cap)
        flexBase = .allocate(capacity: cap)
        hypotheticalMain = .allocate(capacity: cap)
        childHypotheticalSum = .allocate(capacity: cap)
        visibleChildCount = .allocate(capacity: cap)
        childFlexFlags = .allocate(capacity: cap)
        frozen = .allocate(capacity: cap)
        edgesCapacity = 8
        edgesTable = .allocate(capacity: edgesCapacity)
        edgesTable.initialize(to: .zero)
        edgesCount = 1
        edgesLookup[.zero] = 0
    }

    deinit {
        flags.deallocate(); width.deallocate(); height.deallocate()
        minWidth.deallocate(); minHeight.deallocate(); flexBasis.deallocate()
        flexGrow.deallocate(); flexShrink.deallocate(); marginIndex.deallocate()
        paddingIndex.deallocate(); edgesTable.deallocate(); rowGap.deallocate(); columnGap.deallocate()
        parent.deallocate(); firstChild.deallocate(); lastChild.deallocate()
        nextSibling.deallocate(); childCount.deallocate(); frame.deallocate()
        state.deallocate(); contentWidth.deallocate(); contentHeight.deallocate()
        flexBase.deallocate(); hypotheticalMain.deallocate()
        childHypotheticalSum.deallocate(); frozen.deallocate()
        visibleChildCount.deallocate(); childFlexFlags.deallocate()
    }

    /// A deep copy (for copy-on-write).
    func copy() -> FlexStorage {
        let c = FlexStorage(capacity: capacity)
        c.count = count
        let n = count
        c.flags.initialize(from: flags, count: n)
        c.width.initialize(from: width, count: n)
        c.height.initialize(from: height, count: n)
        c.minWidth.initialize(from: minWidth, count: n)
        c.minHeight.initialize(from: minHeight, count: n)
        c.flexBasis.initialize(from: flexBasis, count: n)
        c.flexGrow.initialize(from: flexGrow, count: n)
        c.flexShrink.initialize(from: flexShrink, count: n)
        c.marginIndex.initialize(from: marginIndex, count: n)
        c.paddingIndex.initialize(from: paddingIndex, count: n)
        c.edgesTable.deallocate()
        c.edgesCapacity = edgesCapacity
        c.edgesTable = .allocate(capacity: edgesCapacity)
        c.edgesTable.initialize(from: edgesTable, count: edgesCount)
        c.edgesCount = edgesCount
        c.edgesLookup = edgesLookup
        c.lastInterned = lastInterned
        c.rowGap.initialize(from: rowGap, count: n)
        c.columnGap.initialize(from: columnGap, count: n)
        c.parent.initialize(from: parent, count: n)
        c.firstChild.initialize(from: firstChild, count: n)
        c.lastChild.initialize(from: lastChild, count: n)
        c.nextSibling.initialize(from: nextSibling, count: n)
        c.childCount.initialize(from: childCount, count: n)
        c.frame.initialize(from: frame, count: n)
        return c
    }

    /// Makes room for at least `minimum` nodes.
    func reserve(_ minimum: Int) {
        guard minimum > capacity else { return }
        let cap = minimum
        let n = count
        Self.move(&flags, n, cap); Self.move(&width, n, cap); Self.move(&height, n, cap)
        Self.move(&minWidth, n, cap); Self.move(&minHeight, n, cap); Self.move(&flexBasis, n, cap)
        Self.move(&flexGrow, n, cap); Self.move(&flexShrink, n, cap); Self.move(&marginIndex, n, cap)
        Self.move(&paddingIndex, n, cap); Self.move(&rowGap, n, cap); Self.move(&columnGap, n, cap)
        Self.move(&parent, n, cap); Self.move(&firstChild, n, cap); Self.move(&lastChild, n, cap)
        Self.move(&nextSibling, n, cap); Self.move(&childCount, n, cap); Self.move(&frame, n, cap)
        // Scratch columns carry nothing between passes.
        Self.move(&state, 0, cap); Self.move(&contentWidth, 0, cap); Self.move(&contentHeight, 0, cap)
        Self.move(&flexBase, 0, cap); Self.move(&hypotheticalMain, 0, cap)
        Self.move(&childHypotheticalSum, 0, cap); Self.move(&frozen, 0, cap)
        Self.move(&visibleChildCount, 0, cap); Self.move(&childFlexFlags, 0, cap)
        capacity = cap
    }

    /// Appends one node slot (columns must be filled by the caller) and returns its index.
    func appendSlot() -> Int {
        if count == capacity { reserve(Swift.max(16, capacity * 2)) }
        count += 1
        return count - 1
    }

    /// The index of `edges` in `edgesTable`, adding it when new. Values are never removed:
    /// the table holds every distinct margin and padding the tree has used.
    /// `slot` 0 is for margins, 1 for paddings (each remembers its last value: rows in a
    /// document mostly repeat their neighbour's).
    func intern(_ edges: Edges, slot: Int) -> UInt32 {
        let last = lastInterned[slot]
        if edges == last.0 { return last.1 }
        let index: UInt32
        if let known = edgesLookup[edges] {
            index = known
        } else {
            if edgesCount == edgesCapacity {
                let grown = UnsafeMutablePointer<Edges>.allocate(capacity: edgesCapacity * 2)
                grown.moveInitialize(from: edgesTable, count: edgesCount)
                edgesTable.deallocate()
                edgesTable = grown
                edgesCapacity *= 2
            }
            precondition(edgesCount < Int(UInt32.max), "FlexTree: too many distinct edge values")
            index = UInt32(edgesCount)
            (edgesTable + edgesCount).initialize(to: edges)
            edgesCount += 1
            edgesLookup[edges] = index
        }
        lastInterned[slot] = (edges, index)
        return index
    }

    private static func move<T>(_ pointer: inout UnsafeMutablePointer<T>, _ live: Int, _ capacity: Int) {
        let fresh = UnsafeMutablePointer<T>.allocate(capacity: capacity)
        if live > 0 { fresh.moveInitialize(from: pointer, count: live) }
        pointer.deallocate()
        pointer = fresh
    }
}
