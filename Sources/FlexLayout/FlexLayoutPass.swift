/// One run of the flex layout algorithm over a subtree of a `FlexStorage`.
///
/// The pass has three sweeps, none recursive (node ids are topologically ordered: a parent's id
/// is smaller than its children's):
/// 1. `markSubtree` — forward sweep: which nodes are laid out, which are `display: none`.
/// 2. `computeIntrinsicSizes` — backward sweep (children before parents): every node's content
///    size and, along its parent's main axis, its flex base size and hypothetical main size
///    (CSS Flexbox §9.2 steps 3, §9.9).
/// 3. `sizeRoot`, then a forward sweep calling `layoutChildren` on every container whose own
///    size is final (§9.2–§9.6 for its single flex line).
///
/// The struct holds raw column pointers so the sweeps run without ARC or bounds checks; it
/// never outlives the `computeLayout` call that created it.
struct FlexLayoutPass {
    /// Keeps the storage (and so every column below) alive for the pass.
    let s: FlexStorage
    let flags: UnsafeMutablePointer<UInt16>
    let width: UnsafeMutablePointer<Double>
    let height: UnsafeMutablePointer<Double>
    let minWidth: UnsafeMutablePointer<Double>
    let minHeight: UnsafeMutablePointer<Double>
    let flexBasis: UnsafeMutablePointer<Double>
    let flexGrow: UnsafeMutablePointer<Double>
    let flexShrink: UnsafeMutablePointer<Double>
    let margin: InternedEdges
    let padding: InternedEdges
    let rowGap: UnsafeMutablePointer<Double>
    let columnGap: UnsafeMutablePointer<Double>
    let extras: InternedExtras
    let parent: UnsafeMutablePointer<Int32>
    let firstChild: UnsafeMutablePointer<Int32>
    let nextSibling: UnsafeMutablePointer<Int32>
    let frame: UnsafeMutablePointer<Rect>
    let state: UnsafeMutablePointer<UInt8>
    let contentWidth: UnsafeMutablePointer<Double>
    let contentHeight: UnsafeMutablePointer<Double>
    let flexBase: UnsafeMutablePointer<Double>
    let hypotheticalMain: UnsafeMutablePointer<Double>
    let childHypotheticalSum: UnsafeMutablePointer<Double>
    let frozen: UnsafeMutablePointer<UInt8>
    let visibleChildCount: UnsafeMutablePointer<Int32>
    let childFlexFlags: UnsafeMutablePointer<UInt8>
    let minContentWidth: UnsafeMutablePointer<Double>
    let sizing: UnsafeMutablePointer<UInt8>
    let measuredWidth: UnsafeMutablePointer<Double>
    let aspectBase: UnsafeMutablePointer<Double>
    /// The tree has text or aspect ratios: the height-for-width steps run
    /// (`FlexLayoutPass+HeightForWidth`).
    let heightForWidth: Bool
    let count: Int

    /// Values of the `state` column.
    static let outside: UInt8 = 0
    static let laidOut: UInt8 = 1
    static let none: UInt8 = 2

    init(_ s: FlexStorage) {
        self.s = s
        let c = s.columns
        flags = c.flags; width = c.width; height = c.height
        minWidth = c.minWidth; minHeight = c.minHeight; flexBasis = c.flexBasis
        flexGrow = c.flexGrow; flexShrink = c.flexShrink
        margin = InternedEdges(index: c.marginIndex, table: s.edgesTable)
        padding = InternedEdges(index: c.paddingIndex, table: s.edgesTable)
        rowGap = c.rowGap; columnGap = c.columnGap
        extras = InternedExtras(index: c.extrasIndex, table: s.extras.base)
        parent = c.parent; firstChild = c.firstChild; nextSibling = c.nextSibling
        frame = c.frame; state = c.state
        contentWidth = c.contentWidth; contentHeight = c.contentHeight
        flexBase = c.flexBase; hypotheticalMain = c.hypotheticalMain
        childHypotheticalSum = c.childHypotheticalSum; frozen = c.frozen
        visibleChildCount = c.visibleChildCount; childFlexFlags = c.childFlexFlags
        minContentWidth = c.minContentWidth; sizing = c.sizing
        measuredWidth = c.measuredWidth; aspectBase = c.aspectBase
        heightForWidth = s.usesHeightForWidth
        count = s.count
    }

    /// Lays out `root`'s subtree (see the type's comment for the sweeps).
    mutating func run(root: Int, availableWidth: Double?, availableHeight: Double?) {
        markSubtree(root: root)
        guard state[root] == Self.laidOut else { return }
        computeIntrinsicSizes(root: root)
        sizeRoot(root, availableWidth: availableWidth, availableHeight: availableHeight)
        var i = root
        while i < count {
            if state[i] == Self.laidOut && firstChild[i] >= 0 { layoutChildren(of: i) }
            i += 1
        }
    }

    // MARK: Axis helpers (main/cross relative to a container's direction)

    @inline(__always) func isColumn(_ i: Int) -> Bool { FlexStylePacking.isColumn(flags[i]) }

    /// Specified main size (NaN = auto) of item `i` in a container of direction `column`.
    @inline(__always) func mainSpec(_ i: Int, _ column: Bool) -> Double { column ? height[i] : width[i] }
    @inline(__always) func crossSpec(_ i: Int, _ column: Bool) -> Double { column ? width[i] : height[i] }
    @inline(__always) func mainMin(_ i: Int, _ column: Bool) -> Double { column ? minHeight[i] : minWidth[i] }
    @inline(__always) func crossMin(_ i: Int, _ column: Bool) -> Double { column ? minWidth[i] : minHeight[i] }
    /// Max main / cross size (border box; `.infinity` = none), before a larger min overrides it.
    @inline(__always) func mainMax(_ i: Int, _ column: Bool) -> Double {
        column ? extras[i].maxHeight : extras[i].maxWidth
    }
    @inline(__always) func crossMax(_ i: Int, _ column: Bool) -> Double {
        column ? extras[i].maxWidth : extras[i].maxHeight
    }
    @inline(__always) func mainContent(_ i: Int, _ column: Bool) -> Double { column ? contentHeight[i] : contentWidth[i] }
    @inline(__always) func crossContent(_ i: Int, _ column: Bool) -> Double { column ? contentWidth[i] : contentHeight[i] }
    @inline(__always) func paddingMain(_ i: Int, _ column: Bool) -> Double {
        column ? padding[i].vertical : padding[i].horizontal
    }
    @inline(__always) func paddingCross(_ i: Int, _ column: Bool) -> Double {
        column ? padding[i].horizontal : padding[i].vertical
    }
    @inline(__always) func marginMain(_ i: Int, _ column: Bool) -> Double {
        column ? margin[i].vertical : margin[i].horizontal
    }
    @inline(__always) func marginCross(_ i: Int, _ column: Bool) -> Double {
        column ? margin[i].horizontal : margin[i].vertical
    }
    /// The gap between items along the main axis of container `i`.
    @inline(__always) func mainGap(_ i: Int, _ column: Bool) -> Double { column ? rowGap[i] : columnGap[i] }

    @inline(__always) func frameMain(_ i: Int, _ column: Bool) -> Double { column ? frame[i].height : frame[i].width }
    @inline(__always) func setFrameMain(_ i: Int, _ column: Bool, _ v: Double) {
        if column { frame[i].height = v } else { frame[i].width = v }
    }
}

/// The extras column: per-node indexes into the storage's interned `FlexExtras`.
struct InternedExtras {
    let index: UnsafeMutablePointer<UInt32>
    let table: UnsafeMutablePointer<FlexExtras>

    @inline(__always) subscript(i: Int) -> FlexExtras { table[Int(index[i])] }
}

/// A margin or padding column: per-node indexes into the storage's interned edge values.
struct InternedEdges {
    let index: UnsafeMutablePointer<UInt32>
    let table: UnsafeMutablePointer<Edges>

    @inline(__always) subscript(i: Int) -> Edges { table[Int(index[i])] }
}
