/// A document's layout kept up to date by the primitive `Change`s the store applies, instead of
/// being recomputed (issue 5). Equal, row for row, to `Document.layout()` of the same document.
///
/// The root's rows live in a `RootLine` (a balanced tree with subtree sums of their outer
/// lengths and extents); each root row's subtree is laid out on its own by the engine
/// (`LocalRows`). That is exact while the root's rows are independent along the main axis —
/// the root's free space is zero (content at least as long as the viewport) or left unused
/// (`justify start` and no shown root row with `grow`); the root never shrinks its rows, its
/// main size being max(viewport, content). Otherwise, and for changes that affect every row
/// (viewport cross size, padding, spacing, justify, align, axis, defaults), the layout falls back
/// to `Document.layout()` (see docs/incremental.md). A big stack whose children are laid out
/// independently, at any depth, is kept as a line of its own (`StackLine`): changes inside it
/// cost O(depth · log n) plus the children they touch, with the same phases as at the root.
///
/// | operation | cost |
/// |---|---|
/// | `init(_:)`, a fallback | O(n), one full engine layout |
/// | `apply(_:to:)` | O(log n + k) per change, plus the rows of changed root rows' subtrees |
/// | `apply(_:to:)` inside a stack line | O(depth · log n + k) per change, plus the rows of the changed children |
/// | `row(_:)`, `scrollOffset(to:_:)` | O(depth · log n) |
/// | `visibleRows()`, `rows(from:to:)` | O(log n + k) |
/// | `layout()` | O(n) |
public struct LiveLayout: Sendable {
    /// The document's name.
    public internal(set) var document: String
    /// The document's settings the layout follows.
    public internal(set) var settings: DocumentSettings
    /// The full layout while the document is outside the incremental regime.
    var full: DocumentLayout?
    var line = RootLine()
    /// Root rows: their node, by id (the table keeps node numbers, keys are the entries' ids).
    var rootTable = DocumentIndexTable()
    /// Rows below the root rows: their line, entry and position in it (`Location`).
    var nestedLocation: [RowID: Location] = [:]
    /// Where each stack line is, by number (`LineLink`).
    var links: [LineLink] = []
    /// The root's cross size (the viewport's, or the padding when that is larger).
    var crossSize: Double = 0
    /// Shown root rows with grow > 0.
    var growing = 0
    /// Rows laid out by the engine for this layout since it was made: every row of each build
    /// and fallback, and the rows of each entry laid out again by an update. The work of its
    /// updates as a count (tests bound it: an update costs its changes and the subtrees they
    /// touch, not the document), never reset by a rebuild.
    public internal(set) var rowsLaidOut = 0

    /// Root rows laid out by the engine at a time when building (bounds the engine's memory).
    static let defaultChunk = 1 << 15
    /// This layout's slice size (tests use small ones).
    var chunk = LiveLayout.defaultChunk
    /// Stacks with at least this many rows below them that qualify (`StackLine`), at any depth,
    /// are kept as lines of their own (tests use small numbers).
    static let defaultStackLineMinRows = 64
    var stackLineMinRows = LiveLayout.defaultStackLineMinRows

    /// Lays `document` out once (the full engine) and indexes the root's rows. O(n).
    public init(_ document: Document) {
        self.init(document, chunk: Self.defaultChunk)
    }

    /// As `init(_:)`, laying out `chunk` root rows at a time.
    init(_ document: Document, chunk: Int, stackLineMinRows: Int = LiveLayout.defaultStackLineMinRows) {
        self.document = document.name
        settings = document.settings
        self.chunk = max(1, chunk)
        self.stackLineMinRows = stackLineMinRows
        rebuild(document)
    }

    /// True while edits are applied incrementally (not a full relayout per change).
    public var isIncremental: Bool { full == nil }

    /// `document.nestedOffsetClamps(in:)` of this layout (`document` the one it follows): O(1)
    /// in the incremental regime, which holds no shown stack that scrolls on its own.
    public func nestedOffsetClamps(_ document: Document) -> [Change] {
        full.map { document.nestedOffsetClamps(in: $0) } ?? []
    }

    // MARK: Geometry of the root

    var vertical: Bool { settings.axis == .vertical }
    // Lengths in layout units, as the engine uses them (`LayoutUnit`): positions are then exact
    // sums, equal bit for bit to the full layout's whatever the order of the treap's additions.
    var paddingStart: Double { vertical ? settings.layoutPadding.top : settings.layoutPadding.left }
    var paddingMain: Double { vertical ? settings.layoutPadding.vertical : settings.layoutPadding.horizontal }
    var viewportMain: Double { vertical ? settings.viewport.height : settings.viewport.width }
    var gap: Double { settings.layoutSpacing }

    /// Visible outer lengths plus the gaps between them.
    var innerLength: Double {
        let shown = Int(line.summary.shown)
        return shown == 0 ? 0 : line.summary.sum - gap
    }

    /// True when root rows' positions are prefix sums (no free space is distributed).
    var regimeHolds: Bool {
        if settings.justify == .start && growing == 0 { return true }
        let inner = innerLength
        return inner >= 0 && inner >= viewportMain - paddingMain
    }

    /// The root's border-box size (SPEC §2.3 `contentSize`).
    public var contentSize: Size {
        if let full { return full.contentSize }
        let main = max(viewportMain, paddingMain + max(0, innerLength))
        return vertical ? Size(width: crossSize, height: main) : Size(width: main, height: crossSize)
    }

    /// max(0, content main − viewport main).
    public var maxOffset: Double {
        DocumentLayout.maxOffset(axis: settings.axis, viewport: settings.viewport, contentSize: contentSize,
                                 obscured: settings.obscured)
    }

    /// `offset` clamped to [0, maxOffset] (NaN → 0).
    public func clamp(_ offset: Double) -> Double { DocumentLayout.clamp(offset, maxOffset: maxOffset) }

    /// The document's offset, clamped.
    public var offset: Double { clamp(settings.offset) }

    /// The unobscured rectangle at the current offset (SPEC §2.5).
    var viewportRect: Rect {
        VisibilityRule.viewportRect(axis: settings.axis, viewport: settings.viewport, offset: offset,
                                    obscured: settings.obscured)
    }

    /// Number of rows at every depth.
    public var rowCount: Int { full?.rows.count ?? line.summary.rows }

    // MARK: Building

    /// Records where the rows below the root row of the entry at `node` are (numbering the
    /// stack lines among them).
    mutating func indexNested(_ node: Int32) {
        let i = Int(node)
        guard line.entries.isLine(i) else {
            for (k, r) in line.entries.nestedRows(i).enumerated() {
                nestedLocation[r.id] = Location(line: -1, node: node, k: Int32(k + 1))
            }
            return
        }
        var sl = LiveEntries.emptyLine
        line.entries.withStackLine(i) { swap(&$0, &sl) }
        numberLine(&sl, parent: -1, node: node)
        line.entries.withStackLine(i) { swap(&$0, &sl) }
    }

    // MARK: Rows

    /// Row `k` of the root entry at `node` with absolute rects and visibility; `base` is the sum
    /// of contributions before the entry, `index` its position among the root's rows.
    func absolute(_ node: Int32, _ k: Int, base: Double, index: Int, lastShown: Int32, viewport: Rect) -> RowLayout {
        Self.classified(Self.entryRow(line, node, k, origin: paddingStart, stack: nil, at: (index, base), lastShown: lastShown,
                                      autoHideLast: settings.defaults.autoHideLastSeparator), viewport)
    }

    /// `r` with its visibility in `viewport` (SPEC §2.5).
    static func classified(_ r: RowLayout, _ viewport: Rect) -> RowLayout {
        var r = r
        if let f = r.frame {
            (r.visibility, r.percent) = VisibilityRule.classify(f, in: viewport)
        } else {
            r.visibility = .hidden
            r.percent = 0
        }
        return r
    }

    /// Every row of the root entry at `node` (as `absolute`), in document order. O(rows of the entry).
    func entryRows(_ node: Int32, base: Double, index: Int, lastShown: Int32, viewport: Rect) -> [RowLayout] {
        var rows: [RowLayout] = []
        rows.reserveCapacity(line.entries.rowCount(Int(node)))
        Self.forEachRow(of: node, in: line, origin: paddingStart, stack: nil, at: (index, base), lastShown: lastShown,
                        autoHideLast: settings.defaults.autoHideLastSeparator) { rows.append(Self.classified($0, viewport)) }
        return rows
    }

    /// Where sticky positioning shows the row at the current offset (SPEC §2.7), nil when it is
    /// shown at its frame. Documents with sticky rows are kept as a full layout.
    public func displacement(of id: RowID) -> StuckRow? { full?.displaced[id] }

    /// `offset` clamped to the largest offset of scrolling stack `stack` (SPEC §2.8); 0 when it
    /// is hidden or does not scroll. Documents with such stacks are kept as a full layout.
    public func clampScroll(of stack: RowID, _ offset: Double) -> Double {
        full?.clampScroll(of: stack, offset) ?? 0
    }

    /// `DocumentLayout.scrollTargets(to:_:)`: without stacks that scroll on their own (the
    /// incremental regime) only the root scrolls. O(log n) there.
    /// - Throws: `StackDocError` when there is no row `id` or it is hidden (nothing to scroll to).
    public func scrollTargets(to id: RowID, _ position: ScrollPosition) throws -> ScrollTargets {
        if let full { return try full.scrollTargets(to: id, position) }
        return ScrollTargets(root: try scrollOffset(to: id, position))
    }

    /// The stacks that scroll on their own, shown, with their offsets (empty without them).
    public var nestedScrolls: [NestedScroll] { full?.nestedScrolls ?? [] }

    /// Every row moved by sticky positioning at the current offset, with its layout, in
    /// document order (empty without sticky rows).
    public func displacedRows() -> [RowLayout] {
        guard let full, !full.displaced.isEmpty else { return [] }
        return full.rows.filter { full.displaced[$0.id] != nil }
    }

    /// One row (any depth) as shown at the current offset: its layout and, for a row sticky
    /// positioning moves, its `shownFrame`; nil for an unknown id. O(depth · log n).
    public func row(_ id: RowID) -> ShownRow? {
        if let full { return full.row(id) }
        guard let (path, k) = path(of: id) else { return nil }
        let autoHide = settings.defaults.autoHideLastSeparator
        return withLastLevel(path) { l, level in
            ShownRow(Self.classified(Self.entryRow(l, level.node, k, origin: level.origin, stack: level.stack,
                                                   at: (level.index, level.before), lastShown: l.lastShown(),
                                                   autoHideLast: autoHide),
                                     viewportRect))
        }
    }

    /// Position of a row in document order (every depth), or nil. O(depth · log n).
    public func position(of id: RowID) -> Int? {
        if let full { return full.position(of: id) }
        guard let (path, k) = path(of: id) else { return nil }
        return withLastLevel(path) { _, level in level.rowsBefore + k }
    }

    /// Every row whose frame meets the main-axis range [from, to] (edges inclusive), with
    /// visibility at the current offset, in document order. O(log n + k).
    public func rows(from: Double, to: Double) -> [RowLayout] {
        let viewport = viewportRect
        if let full {
            return full.rows.filter { r in
                guard let f = r.frame else { return false }
                let (a, b) = vertical ? (f.minY, f.maxY) : (f.minX, f.maxX)
                return a <= to && b >= from
            }
        }
        var out: [RowLayout] = []
        forEachRow(inLine: line, origin: paddingStart, stack: nil, meeting: from, to) { out.append(Self.classified($0, viewport)) }
        return out
    }

    /// The deepest non-hidden row whose frame contains the point, as `DocumentLayout.hitTest`
    /// (half-open frames, the later row in document order wins among rows of one depth). A
    /// point query: O(log n) plus the rows of the root entries that cross the point's main
    /// coordinate (one row each in a flat document).
    public func hitTest(x: Double, y: Double) -> RowID? {
        if let full { return full.hitTest(x: x, y: y) }
        var best: RowID?
        var bestDepth = -1
        hit(inLine: line, origin: paddingStart, depth: 0, x: x, y: y, best: &best, bestDepth: &bestDepth)
        return best
    }

    /// The rows the viewport shows (`entire` or `partial`), in document order. O(log n + k).
    public func visibleRows() -> [RowLayout] {
        if let full, !full.displaced.isEmpty {
            // Stuck rows are shown away from their frames: the flow range would miss them.
            return full.rows.filter { $0.visibility == .entire || $0.visibility == .partial }
        }
        let o = offset
        return rows(from: o, to: o + viewportMain).filter { $0.visibility == .entire || $0.visibility == .partial }
    }

    /// Rows `range` of the document order (every depth), clamped to the rows there are.
    /// O(log n + k).
    public func rows(inOrder range: Range<Int>) -> [RowLayout] {
        let lower = max(0, range.lowerBound), upper = min(rowCount, range.upperBound)
        guard lower < upper else { return [] }
        if let full { return Array(full.rows[lower..<upper]) }
        guard var (node, k) = line.entry(atRow: lower) else { return [] }
        let viewport = viewportRect
        let last = line.lastShown()
        var at = line.locate(node)
        var out: [RowLayout] = []
        out.reserveCapacity(upper - lower)
        while out.count < upper - lower, node >= 0 {
            let count = line.entries.rowCount(Int(node))
            while k < count, out.count < upper - lower {
                out.append(absolute(node, k, base: at.before, index: at.index, lastShown: last, viewport: viewport))
                k += 1
            }
            at.before += line.contribution[Int(node)]
            at.index += 1
            node = line.successor(node)
            k = 0
        }
        return out
    }

    /// The whole layout, `==` to `Document.layout()` of the document. O(n).
    public func layout() -> DocumentLayout {
        if let full { return full }
        let viewport = viewportRect
        let last = line.lastShown()
        var rows: [RowLayout] = []
        rows.reserveCapacity(rowCount)
        var node = line.first()
        var base = 0.0
        var index = 0
        let autoHideLast = settings.defaults.autoHideLastSeparator
        while node >= 0 {
            // Appended in place, not through `entryRows` (an array per root entry: 100k of them
            // for a flat document, ≈ a third of this walk).
            Self.forEachRow(of: node, in: line, origin: paddingStart, stack: nil, at: (index, base), lastShown: last,
                            autoHideLast: autoHideLast) { rows.append(Self.classified($0, viewport)) }
            base += line.contribution[Int(node)]
            index += 1
            node = line.successor(node)
        }
        return DocumentLayout(document: document, axis: settings.axis, viewport: settings.viewport, offset: offset,
                              contentSize: contentSize, rows: rows, obscured: settings.obscured,
                              safeArea: settings.safeArea)
    }

    /// The clamped offset `scroll to ROW POS` aims at (SPEC §2.6), as
    /// `DocumentLayout.scrollOffset(to:_:)`, with the same errors. O(log n).
    /// - Parameters:
    ///   - id: The row to scroll to.
    ///   - position: Where in the viewport it should sit.
    /// - Throws: `StackDocError` when there is no such row or it is hidden (it has no frame).
    public func scrollOffset(to id: RowID, _ position: ScrollPosition) throws -> Double {
        if let full { return try full.scrollOffset(to: id, position) }
        guard let r = row(id)?.layout, let (path, _) = path(of: id) else { throw StackDocError(.noSuchRow(id)) }
        if r.frame == nil {
            if r.hidden { throw StackDocError(.hiddenScrollTarget(id, inside: nil)) }
            // The outermost hidden ancestor, as the full layout names it (a stack line is shown:
            // the ancestor is in the entry holding the row).
            let entries = lineAt(path.dropLast()).entries
            let e = Int(path.last!)
            let rows = entries.nestedRows(e)
            var parent = r.parent
            var hidden: RowID?
            var steps = 0
            while let p = parent, steps <= rows.count {
                steps += 1
                guard let q = rows.firstIndex(where: { $0.id == p }) else {
                    // The entry's root row.
                    if entries.id(e, 0) == p, entries.row(e, 0, start: 0, isLast: false, autoHideLast: false).hidden { hidden = p }
                    break
                }
                if rows[q].hidden { hidden = p }
                parent = rows[q].parent
            }
            guard let hidden else { throw StackDocError("cannot scroll to row \(Validation.quoted(id)): it is inside hidden row (unknown)") }
            throw StackDocError(.hiddenScrollTarget(id, inside: hidden))
        }
        // The same arithmetic as the full layout, on a one-row layout with this geometry.
        let one = DocumentLayout(document: document, axis: settings.axis, viewport: settings.viewport, offset: offset,
                                 contentSize: contentSize, rows: [r], obscured: settings.obscured,
                                 safeArea: settings.safeArea)
        return try one.scrollOffset(to: id, position)
    }
}
