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
/// to `Document.layout()` (see docs/incremental.md).
///
/// | operation | cost |
/// |---|---|
/// | `init(_:)`, a fallback | O(n), one full engine layout |
/// | `apply(_:to:)` | O(log n + k) per change, plus the rows of changed root rows' subtrees |
/// | `row(_:)`, `scrollOffset(to:_:)` | O(log n) |
/// | `visibleRows()`, `rows(from:to:)` | O(log n + k) |
/// | `layout()` | O(n) |
public struct LiveLayout: Sendable {
    /// Where a row sits: its root row's node and its position in that entry (0 = the root row).
    struct Location: Sendable {
        var node: Int32
        var k: Int32
    }

    public internal(set) var document: String
    public internal(set) var settings: DocumentSettings
    /// The full layout while the document is outside the incremental regime.
    var full: DocumentLayout?
    var line = RootLine()
    var location: [RowID: Location] = [:]
    /// The root's cross size (the viewport's, or the padding when that is larger).
    var crossSize: Double = 0
    /// Shown root rows with grow > 0.
    var growing = 0
    /// Why the last `apply` (or `init`) laid everything out again; nil when it was incremental.
    public internal(set) var lastFallback: String?

    /// Lays `document` out once (the full engine) and indexes the root's rows. O(n).
    public init(_ document: Document) {
        self.document = document.name
        settings = document.settings
        rebuild(document, reason: "initial layout")
    }

    /// True while edits are applied incrementally (not a full relayout per change).
    public var isIncremental: Bool { full == nil }

    // MARK: Geometry of the root

    var vertical: Bool { settings.axis == .vertical }
    var paddingStart: Double { vertical ? settings.padding.top : settings.padding.left }
    var paddingMain: Double { vertical ? settings.padding.vertical : settings.padding.horizontal }
    var viewportMain: Double { vertical ? settings.viewport.height : settings.viewport.width }
    var gap: Double { settings.spacing }

    /// Visible outer lengths plus the gaps between them.
    var innerLength: Double {
        let shown = line.shown(line.root)
        return shown == 0 ? 0 : line.total(line.root) - gap
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
        DocumentLayout.maxOffset(axis: settings.axis, viewport: settings.viewport, contentSize: contentSize)
    }

    /// `offset` clamped to [0, maxOffset] (NaN → 0).
    public func clamp(_ offset: Double) -> Double { DocumentLayout.clamp(offset, maxOffset: maxOffset) }

    /// The document's offset, clamped.
    public var offset: Double { clamp(settings.offset) }

    /// The viewport rectangle at the current offset.
    var viewportRect: Rect {
        VisibilityRule.viewportRect(axis: settings.axis, viewport: settings.viewport, offset: offset)
    }

    /// Number of rows at every depth.
    public var rowCount: Int { full?.rows.count ?? line.rows(line.root) }

    // MARK: Building

    /// Lays the whole document out and rebuilds the index (or keeps the full layout when the
    /// incremental regime does not hold).
    mutating func rebuild(_ doc: Document, reason: String) {
        document = doc.name
        settings = doc.settings
        lastFallback = reason
        let layout = doc.layout()
        crossSize = vertical ? layout.contentSize.width : layout.contentSize.height
        var entries: [LocalRows] = []
        var contributions: [Double] = []
        entries.reserveCapacity(doc.childCount(of: nil))
        contributions.reserveCapacity(doc.childCount(of: nil))
        var at = 0
        let rows = layout.rows
        var grow = 0
        doc.forEachChild(of: nil) { _, id, config in
            var end = at + 1
            while end < rows.count, rows[end].parent != nil { end += 1 }
            var shift = 0.0
            if let f = rows[at].frame {
                shift = vertical ? f.y - config.margin.top : f.x - config.margin.left
            }
            let entry = LocalRows(id: id, config: config, rows: rows[at..<end], shift: shift, axis: settings.axis,
                                  defaults: settings.defaults)
            if entry.shown && entry.grow > 0 { grow += 1 }
            contributions.append(entry.shown ? entry.outerLength + settings.spacing : 0)
            entries.append(entry)
            at = end
        }
        growing = grow
        line = RootLine(entries: entries, contributions: contributions)
        location = [:]
        // A full layout may have grown rows when the root had free space: with grow, only
        // content strictly longer than the viewport proves the rows kept their own lengths.
        let inner = innerLength
        let proven = (settings.justify == .start && growing == 0)
            || (inner >= 0 && (growing == 0 ? inner >= viewportMain - paddingMain : inner > viewportMain - paddingMain))
        if proven {
            full = nil
            location.reserveCapacity(rows.count)
            for node in 0..<Int32(entries.count) { index(node) }
        } else {
            full = layout
            line = RootLine()
        }
    }

    /// Records the location of every row of the entry at `node`.
    mutating func index(_ node: Int32) {
        let rows = line.entries[Int(node)].rows
        for (k, r) in rows.enumerated() { location[r.id] = Location(node: node, k: Int32(k)) }
    }

    /// The node of the entry holding `id` (root row or nested), when the location is current.
    func owner(of id: RowID) -> Location? {
        guard let l = location[id], Int(l.node) < line.entries.count else { return nil }
        let e = line.entries[Int(l.node)]
        if l.k == 0 { return e.id == id ? l : nil }
        return Int(l.k) < e.rows.count && e.rows[Int(l.k)].id == id ? l : nil
    }

    // MARK: Rows

    /// Row `k` of the entry at `node` with absolute rects and visibility; `base` is the sum of
    /// contributions before the entry, `index` its position among the root's rows.
    func absolute(_ node: Int32, _ k: Int, base: Double, index: Int, lastShown: Int32, viewport: Rect) -> RowLayout {
        let e = line.entries[Int(node)]
        var r = e.rows[k]
        let d = paddingStart + base
        let axis = settings.axis
        r.frame = r.frame.map { LocalRows.shifted($0, by: d, axis) }
        r.content = r.content.map { LocalRows.shifted($0, by: d, axis) }
        if k == 0 {
            r.index = index
            let last = node == lastShown && settings.defaults.autoHideLastSeparator
            r.separator = last ? nil : e.separatorIfNotLast.map { LocalRows.shifted($0, by: d, axis) }
        } else {
            r.separator = r.separator.map { LocalRows.shifted($0, by: d, axis) }
        }
        if let f = r.frame {
            (r.visibility, r.percent) = VisibilityRule.classify(f, in: viewport)
        } else {
            r.visibility = .hidden
            r.percent = 0
        }
        return r
    }

    /// The layout of one row (any depth), or nil for an unknown id. O(log n).
    public func row(_ id: RowID) -> RowLayout? {
        if let full { return full.row(id) }
        guard let l = owner(of: id) else { return nil }
        let at = line.locate(l.node)
        return absolute(l.node, Int(l.k), base: at.before, index: at.index, lastShown: line.lastShown(),
                        viewport: viewportRect)
    }

    /// Position of a row in document order (every depth), or nil. O(log n).
    public func position(of id: RowID) -> Int? {
        if let full { return full.position(of: id) }
        guard let l = owner(of: id) else { return nil }
        return line.locate(l.node).rowsBefore + Int(l.k)
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
            let e = line.entries[Int(node)]
            for k in 0..<e.rows.count {
                guard let f = e.rows[k].frame else { continue }
                let (a, b) = vertical ? (f.minY, f.maxY) : (f.minX, f.maxX)
                guard a + p + start <= to, b + p + start >= from else { continue }
                out.append(absolute(node, k, base: start, index: index, lastShown: last, viewport: viewport))
            }
        }
        return out
    }

    /// The rows the viewport shows (`entire` or `partial`), in document order. O(log n + k).
    public func visibleRows() -> [RowLayout] {
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
            let e = line.entries[Int(node)]
            while k < e.rows.count, out.count < upper - lower {
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
            for k in 0..<line.entries[Int(node)].rows.count {
                rows.append(absolute(node, k, base: base, index: index, lastShown: last, viewport: viewport))
            }
            base += line.contribution[Int(node)]
            index += 1
            node = line.successor(node)
        }
        return DocumentLayout(document: document, axis: settings.axis, viewport: settings.viewport, offset: offset,
                              contentSize: contentSize, rows: rows)
    }

    /// The clamped offset `scroll to ROW POS` aims at (SPEC §2.6), as
    /// `DocumentLayout.scrollOffset(to:_:)`, with the same errors. O(log n).
    public func scrollOffset(to id: RowID, _ position: ScrollPosition) throws -> Double {
        if let full { return try full.scrollOffset(to: id, position) }
        guard let r = row(id), let l = owner(of: id) else { throw StackDocError(.noSuchRow(id)) }
        if r.frame == nil {
            if r.hidden { throw StackDocError("cannot scroll to row \(Validation.quoted(id)): it is hidden") }
            // The outermost hidden ancestor, as the full layout names it.
            let e = line.entries[Int(l.node)]
            var parent = r.parent
            var hidden: RowID?
            var steps = 0
            while let p = parent, steps <= e.rows.count {
                steps += 1
                guard let q = e.rows.firstIndex(where: { $0.id == p }) else { break }
                if e.rows[q].hidden { hidden = p }
                parent = e.rows[q].parent
            }
            throw StackDocError("cannot scroll to row \(Validation.quoted(id)): it is inside hidden row \(hidden.map(Validation.quoted) ?? "(unknown)")")
        }
        // The same arithmetic as the full layout, on a one-row layout with this geometry.
        let one = DocumentLayout(document: document, axis: settings.axis, viewport: settings.viewport, offset: offset,
                                 contentSize: contentSize, rows: [r])
        return try one.scrollOffset(to: id, position)
    }
}
