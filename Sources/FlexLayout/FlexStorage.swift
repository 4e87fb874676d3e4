/// The columns of a `FlexStorage`: one contiguous buffer per property, indexed by node id.
/// A plain struct of pointers, so code that works on many nodes copies it once into a local
/// and then touches memory only (no per-access exclusivity checks on class properties).
struct FlexColumns {
    // MARK: Style (sanitised; NaN means `auto` / not set)
    var flags: UnsafeMutablePointer<UInt16>
    var width: UnsafeMutablePointer<Double>
    var height: UnsafeMutablePointer<Double>
    var minWidth: UnsafeMutablePointer<Double>
    var minHeight: UnsafeMutablePointer<Double>
    var flexBasis: UnsafeMutablePointer<Double>
    var flexGrow: UnsafeMutablePointer<Double>
    var flexShrink: UnsafeMutablePointer<Double>
    /// Margins and paddings are interned: each node stores an index into the storage's
    /// `edgesTable` (documents repeat a handful of inset values across millions of rows).
    var marginIndex: UnsafeMutablePointer<UInt32>
    var paddingIndex: UnsafeMutablePointer<UInt32>
    var rowGap: UnsafeMutablePointer<Double>
    var columnGap: UnsafeMutablePointer<Double>
    /// Rarely set properties (max sizes, a leaf's intrinsic content box) are interned like the
    /// edges: an index into the storage's `extrasTable`, 0 = `FlexExtras.none`.
    var extrasIndex: UnsafeMutablePointer<UInt32>

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
    /// Border-box min-content width (differs from `contentWidth` only with text below).
    var minContentWidth: UnsafeMutablePointer<Double>
    /// Height for width (only in trees with text or aspect ratios): bit 0 — the node's height
    /// depends on its width; bit 1 — its widths follow a definite height; bit 2 — its height is definite.
    var sizing: UnsafeMutablePointer<UInt8>
    /// The border-box width `contentHeight` was last measured at (NaN: not yet in this pass).
    var measuredWidth: UnsafeMutablePointer<Double>
    /// The flex base size an aspect ratio gives the node along its parent's main axis (NaN: none).
    var aspectBase: UnsafeMutablePointer<Double>

    init(capacity cap: Int) {
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
        extrasIndex = .allocate(capacity: cap)
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
        minContentWidth = .allocate(capacity: cap)
        sizing = .allocate(capacity: cap)
        measuredWidth = .allocate(capacity: cap)
        aspectBase = .allocate(capacity: cap)
    }

    func deallocate() {
        flags.deallocate(); width.deallocate(); height.deallocate()
        minWidth.deallocate(); minHeight.deallocate(); flexBasis.deallocate()
        flexGrow.deallocate(); flexShrink.deallocate(); marginIndex.deallocate()
        paddingIndex.deallocate(); rowGap.deallocate(); columnGap.deallocate(); extrasIndex.deallocate()
        parent.deallocate(); firstChild.deallocate(); lastChild.deallocate()
        nextSibling.deallocate(); childCount.deallocate(); frame.deallocate()
        state.deallocate(); contentWidth.deallocate(); contentHeight.deallocate()
        flexBase.deallocate(); hypotheticalMain.deallocate(); childHypotheticalSum.deallocate()
        visibleChildCount.deallocate(); childFlexFlags.deallocate(); frozen.deallocate()
        minContentWidth.deallocate(); sizing.deallocate(); measuredWidth.deallocate(); aspectBase.deallocate()
    }

    /// Copies the first `n` nodes' persistent columns (style, tree, frames) from `other`.
    func copyNodes(from other: FlexColumns, count n: Int) {
        flags.initialize(from: other.flags, count: n)
        width.initialize(from: other.width, count: n)
        height.initialize(from: other.height, count: n)
        minWidth.initialize(from: other.minWidth, count: n)
        minHeight.initialize(from: other.minHeight, count: n)
        flexBasis.initialize(from: other.flexBasis, count: n)
        flexGrow.initialize(from: other.flexGrow, count: n)
        flexShrink.initialize(from: other.flexShrink, count: n)
        marginIndex.initialize(from: other.marginIndex, count: n)
        paddingIndex.initialize(from: other.paddingIndex, count: n)
        rowGap.initialize(from: other.rowGap, count: n)
        columnGap.initialize(from: other.columnGap, count: n)
        extrasIndex.initialize(from: other.extrasIndex, count: n)
        parent.initialize(from: other.parent, count: n)
        firstChild.initialize(from: other.firstChild, count: n)
        lastChild.initialize(from: other.lastChild, count: n)
        nextSibling.initialize(from: other.nextSibling, count: n)
        childCount.initialize(from: other.childCount, count: n)
        frame.initialize(from: other.frame, count: n)
    }
}

/// Struct-of-arrays storage of a `FlexTree` (see `FlexColumns`). There is no object per node;
/// growing the tree reallocates every column at once (amortised doubling), so laying out never
/// allocates per node.
///
/// The class is shared by value copies of `FlexTree` and copied on write
/// (`FlexTree.makeUnique`), which is what makes the `@unchecked Sendable` sound.
final class FlexStorage: @unchecked Sendable {
    private(set) var count = 0
    private(set) var capacity = 0
    private(set) var columns: FlexColumns

    // MARK: Interned edge values (index 0 is `Edges.zero`)
    private var edges = InternTable<Edges>(first: .zero)
    /// The interned margins and paddings, addressed by `marginIndex` / `paddingIndex`.
    var edgesTable: UnsafeMutablePointer<Edges> { edges.base }
    /// The last value interned for margins and for paddings.
    private var lastMargin = (Edges.zero, UInt32(0))
    private var lastPadding = (Edges.zero, UInt32(0))
    /// Interned `FlexExtras` (index 0 is `FlexExtras.none`).
    private(set) var extras = InternTable<FlexExtras>(first: .none)
    /// Some node was given text or an aspect ratio: layout passes take the height-for-width
    /// steps (a tree without them lays out exactly as before, at no extra cost).
    var usesHeightForWidth = false

    init(capacity requested: Int = 16) {
        let cap = Swift.max(requested, 1)
        capacity = cap
        columns = FlexColumns(capacity: cap)
    }

    deinit {
        columns.deallocate()
        edges.deallocate()
        extras.deallocate()
    }

    /// A deep copy (for copy-on-write).
    func copy() -> FlexStorage {
        let c = FlexStorage(capacity: capacity)
        c.count = count
        c.columns.copyNodes(from: columns, count: count)
        c.edges.deallocate()
        c.edges = edges.copy()
        c.lastMargin = lastMargin
        c.lastPadding = lastPadding
        c.extras.deallocate()
        c.extras = extras.copy()
        c.usesHeightForWidth = usesHeightForWidth
        return c
    }

    /// Makes room for at least `minimum` nodes.
    func reserve(_ minimum: Int) {
        guard minimum > capacity else { return }
        let grown = FlexColumns(capacity: minimum)
        grown.copyNodes(from: columns, count: count) // scratch carries nothing between passes
        columns.deallocate()
        columns = grown
        capacity = minimum
    }

    /// Appends one node slot (columns must be filled by the caller) and returns its index.
    func appendSlot() -> Int {
        if count == capacity { reserve(Swift.max(16, capacity * 2)) }
        count += 1
        return count - 1
    }

    /// The index of the margin `edges` in `edgesTable`, adding it when new.
    @inline(__always) func internMargin(_ edges: Edges) -> UInt32 {
        if edges == lastMargin.0 { return lastMargin.1 }
        let index = self.edges.intern(edges)
        lastMargin = (edges, index)
        return index
    }

    /// The index of the padding `edges` in `edgesTable`, adding it when new.
    @inline(__always) func internPadding(_ edges: Edges) -> UInt32 {
        if edges == lastPadding.0 { return lastPadding.1 }
        let index = self.edges.intern(edges)
        lastPadding = (edges, index)
        return index
    }

    /// The index of `value` in the extras table, adding it when new.
    @inline(__always) func internExtras(_ value: FlexExtras) -> UInt32 { extras.intern(value) }
}

