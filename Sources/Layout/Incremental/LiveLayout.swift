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
/// to `Document.layout()` (see docs/incremental.md). A big root stack whose children are laid
/// out independently is kept as a line of its own (`StackLine`): changes inside it cost
/// O(log n) plus the children they touch.
///
/// | operation | cost |
/// |---|---|
/// | `init(_:)`, a fallback | O(n), one full engine layout |
/// | `apply(_:to:)` | O(log n + k) per change, plus the rows of changed root rows' subtrees |
/// | `apply(_:to:)` inside a stack line | O(log n + k) per change, plus the rows of the changed children |
/// | `row(_:)`, `scrollOffset(to:_:)` | O(log n) |
/// | `visibleRows()`, `rows(from:to:)` | O(log n + k) |
/// | `layout()` | O(n) |
public struct LiveLayout: Sendable {
    /// Where a row sits: its root row's node and its position in that entry (0 = the root row);
    /// for a row below a stack line (`StackLine`), the node of the line's entry holding it
    /// (`inner`) and its position in that entry.
    struct Location: Sendable {
        var node: Int32
        var k: Int32
        var inner: Int32 = -1
    }

    /// The document's name.
    public internal(set) var document: String
    /// The document's settings the layout follows.
    public internal(set) var settings: DocumentSettings
    /// The full layout while the document is outside the incremental regime.
    var full: DocumentLayout?
    var line = RootLine()
    /// Root rows: their node, by id (the table keeps node numbers, keys are the entries' ids).
    var rootTable = DocumentIndexTable()
    /// Rows below the root rows: their entry and position in it.
    var nestedLocation: [RowID: Location] = [:]
    /// The root's cross size (the viewport's, or the padding when that is larger).
    var crossSize: Double = 0
    /// Shown root rows with grow > 0.
    var growing = 0

    /// Root rows laid out by the engine at a time when building (bounds the engine's memory).
    static let defaultChunk = 1 << 15
    /// This layout's slice size (tests use small ones).
    var chunk = LiveLayout.defaultChunk
    /// Root stacks with at least this many rows below them that qualify (`StackLine`) are kept
    /// as lines of their own (tests use small numbers).
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

    /// Records the location of every row of the entry at `node` (replacing the root row's old
    /// node, if any).
    mutating func index(_ node: Int32) {
        let i = Int(node)
        if let old = rootNode(of: line.entries.ids[i]) { dropRoot(old) }
        let ids = line.entries.ids
        rootTable.insert(node, hash: DocumentIndexTable.hash(ids[i]), hashOf: { DocumentIndexTable.hash(ids[Int($0)]) })
        indexNested(node)
    }

    /// Records the location of the rows below the root row of the entry at `node`.
    mutating func indexNested(_ node: Int32) {
        line.entries.forEachNestedRow(Int(node)) { id, inner, k in
            nestedLocation[id] = Location(node: node, k: Int32(k), inner: inner)
        }
    }

    /// Forgets where the rows of the entry at `node` are (those that still point there).
    mutating func dropLocations(of node: Int32) {
        let i = Int(node)
        line.entries.forEachNestedRow(i) { id, inner, k in
            if let l = nestedLocation[id], l.node == node, l.inner == inner, Int(l.k) == k { nestedLocation[id] = nil }
        }
        if rootNode(of: line.entries.ids[i]) == node { dropRoot(node) }
    }

    private mutating func dropRoot(_ node: Int32) {
        let ids = line.entries.ids
        rootTable.remove(node, hash: DocumentIndexTable.hash(ids[Int(node)]), hashOf: { DocumentIndexTable.hash(ids[Int($0)]) })
    }

    /// The node of the root row `id`, or nil.
    func rootNode(of id: RowID) -> Int32? {
        let ids = line.entries.ids
        return rootTable.find(hash: DocumentIndexTable.hash(id)) { ids[Int($0)] == id }
    }

    /// The node of the entry holding `id` (root row or nested), when the location is current.
    func owner(of id: RowID) -> Location? {
        if let node = rootNode(of: id) { return Location(node: node, k: 0) }
        guard let l = nestedLocation[id], Int(l.node) < line.entries.count else { return nil }
        let i = Int(l.node)
        guard l.inner >= 0 else {
            return !line.entries.isLine(i) && l.k > 0 && Int(l.k) < line.entries.rowCount(i)
                && line.entries.id(i, Int(l.k)) == id ? l : nil
        }
        guard line.entries.isLine(i) else { return nil }
        let inner = line.entries.stackLine(i).line.entries
        let j = Int(l.inner)
        return j < inner.count && inner.isFilled(j) && l.k >= 0 && Int(l.k) < inner.rowCount(j)
            && inner.id(j, Int(l.k)) == id ? l : nil
    }

    /// The position of the row at `l` in its root entry's document order (0 = the root row).
    /// O(log n).
    func offset(of l: Location) -> Int {
        guard l.inner >= 0 else { return Int(l.k) }
        return 1 + line.entries.stackLine(Int(l.node)).line.locate(l.inner).rowsBefore + Int(l.k)
    }

    // MARK: Rows

    /// Row `k` of the entry at `node` with absolute rects and visibility; `base` is the sum of
    /// contributions before the entry, `index` its position among the root's rows.
    func absolute(_ node: Int32, _ k: Int, base: Double, index: Int, lastShown: Int32, viewport: Rect) -> RowLayout {
        var r = line.entries.row(Int(node), k, start: paddingStart + base, isLast: node == lastShown,
                                 autoHideLast: settings.defaults.autoHideLastSeparator)
        if k == 0 { r.index = index }
        return Self.classified(r, viewport)
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

    /// Every row of the entry at `node` (as `absolute`), in document order. O(rows of the entry).
    func entryRows(_ node: Int32, base: Double, index: Int, lastShown: Int32, viewport: Rect) -> [RowLayout] {
        let i = Int(node)
        guard line.entries.isLine(i) else {
            return (0..<line.entries.rowCount(i)).map {
                absolute(node, $0, base: base, index: index, lastShown: lastShown, viewport: viewport)
            }
        }
        var rows = [absolute(node, 0, base: base, index: index, lastShown: lastShown, viewport: viewport)]
        rows.reserveCapacity(line.entries.rowCount(i))
        line.entries.stackLine(i).forEachRow(start: paddingStart + base, of: line.entries.ids[i],
                                             autoHideLast: settings.defaults.autoHideLastSeparator) {
            rows.append(Self.classified($0, viewport))
        }
        return rows
    }

    /// Where sticky positioning shows the row at the current offset (SPEC §2.7), nil when it is
    /// shown at its frame. Documents with sticky rows are kept as a full layout.
    public func displacement(of id: RowID) -> StuckRow? { full?.displaced[id] }

    /// Every row moved by sticky positioning at the current offset, with its layout, in
    /// document order (empty without sticky rows).
    public func displacedRows() -> [RowLayout] {
        guard let full, !full.displaced.isEmpty else { return [] }
        return full.rows.filter { full.displaced[$0.id] != nil }
    }

    /// The layout of one row (any depth), or nil for an unknown id. O(log n).
    public func row(_ id: RowID) -> RowLayout? {
        if let full { return full.row(id) }
        guard let l = owner(of: id) else { return nil }
        let at = line.locate(l.node)
        guard l.inner >= 0 else {
            return absolute(l.node, Int(l.k), base: at.before, index: at.index, lastShown: line.lastShown(),
                            viewport: viewportRect)
        }
        let i = Int(l.node)
        let r = line.entries.stackLine(i).row(l.inner, Int(l.k), start: paddingStart + at.before, of: line.entries.ids[i],
                                              autoHideLast: settings.defaults.autoHideLastSeparator)
        return Self.classified(r, viewportRect)
    }

    /// Position of a row in document order (every depth), or nil. O(log n).
    public func position(of id: RowID) -> Int? {
        if let full { return full.position(of: id) }
        guard let l = owner(of: id) else { return nil }
        return line.locate(l.node).rowsBefore + offset(of: l)
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
        let last = line.lastShown()
        let p = paddingStart
        line.forEachEntry(meeting: from - p, to - p) { node, start in
            let index = line.locate(node).index
            if line.entries.isLine(Int(node)) {
                stackLineRows(node, start: start, index: index, from: from, to: to, lastShown: last, viewport: viewport,
                              into: &out)
                return
            }
            for k in 0..<line.entries.rowCount(Int(node)) {
                guard let (a, b) = line.entries.frameRange(Int(node), k) else { continue }
                guard a + p + start <= to, b + p + start >= from else { continue }
                out.append(absolute(node, k, base: start, index: index, lastShown: last, viewport: viewport))
            }
        }
        return out
    }

    /// The deepest non-hidden row whose frame contains the point, as `DocumentLayout.hitTest`
    /// (half-open frames, the later row in document order wins among rows of one depth). A
    /// point query: O(log n) plus the rows of the root entries that cross the point's main
    /// coordinate (one row each in a flat document).
    public func hitTest(x: Double, y: Double) -> RowID? {
        if let full { return full.hitTest(x: x, y: y) }
        let main = vertical ? y : x
        let p = paddingStart
        var best: RowID?
        var bestDepth = -1
        line.forEachEntry(meeting: main - p, main - p) { node, start in
            let i = Int(node)
            if line.entries.isLine(i) {
                stackLineHit(node, start: start, x: x, y: y, best: &best, bestDepth: &bestDepth)
                return
            }
            let count = line.entries.rowCount(i)
            var depth: [RowID: Int] = [:]
            for k in 0..<count {
                let r = line.entries.row(i, k, start: p + start, isLast: false, autoHideLast: false)
                let d = k == 0 ? 0 : (r.parent.flatMap { depth[$0] } ?? 0) + 1
                if count > 1 { depth[r.id] = d }
                guard let f = r.frame, x >= f.minX, x < f.maxX, y >= f.minY, y < f.maxY, d >= bestDepth else { continue }
                best = r.id
                bestDepth = d
            }
        }
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
        while node >= 0 {
            rows.append(contentsOf: entryRows(node, base: base, index: index, lastShown: last, viewport: viewport))
            base += line.contribution[Int(node)]
            index += 1
            node = line.successor(node)
        }
        return DocumentLayout(document: document, axis: settings.axis, viewport: settings.viewport, offset: offset,
                              contentSize: contentSize, rows: rows, obscured: settings.obscured)
    }

    /// The clamped offset `scroll to ROW POS` aims at (SPEC §2.6), as
    /// `DocumentLayout.scrollOffset(to:_:)`, with the same errors. O(log n).
    /// - Parameters:
    ///   - id: The row to scroll to.
    ///   - position: Where in the viewport it should sit.
    /// - Throws: `StackDocError` when there is no such row or it is hidden (it has no frame).
    public func scrollOffset(to id: RowID, _ position: ScrollPosition) throws -> Double {
        if let full { return try full.scrollOffset(to: id, position) }
        guard let r = row(id), let l = owner(of: id) else { throw StackDocError(.noSuchRow(id)) }
        if r.frame == nil {
            if r.hidden { throw StackDocError(.hiddenScrollTarget(id, inside: nil)) }
            // The outermost hidden ancestor, as the full layout names it (a stack line is shown:
            // the ancestor is in the entry of its line that holds the row).
            let entries = l.inner >= 0 ? line.entries.stackLine(Int(l.node)).line.entries : line.entries
            let e = Int(l.inner >= 0 ? l.inner : l.node)
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
                                 contentSize: contentSize, rows: [r], obscured: settings.obscured)
        return try one.scrollOffset(to: id, position)
    }
}
