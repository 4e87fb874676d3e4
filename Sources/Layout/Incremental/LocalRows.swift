/// One root row and its whole subtree laid out on their own: every rect relative to the root
/// row's margin-box start along the root's main axis (cross coordinates are absolute). Valid
/// while the root's rows do not share free space (see `LiveLayout`), when a root row's layout
/// does not depend on its siblings.
struct LocalRows {
    var id: RowID
    /// The root row is not hidden.
    var shown: Bool
    /// The root row (index 0) and its subtree in document order; `visibility`/`percent` unused,
    /// the root row's `index` and `separator` are filled in per query.
    var rows: [RowLayout]
    /// The root row's separator when it is not the last shown root row.
    var separatorIfNotLast: Rect?
    /// Main-axis extent of every framed row (lo > hi when none).
    var extentLo: Double
    var extentHi: Double
    /// Rows with a frame.
    var framedCount: Int
    /// Margin-start + border-box main length + margin-end of the root row (0 when hidden).
    var outerLength: Double
    /// The root row's `grow` (only counted when shown).
    var grow: Double

    var rowCount: Int { rows.count }

    static let empty = LocalRows(id: "", shown: false, rows: [], separatorIfNotLast: nil, extentLo: 1, extentHi: 0,
                                 framedCount: 0, outerLength: 0, grow: 0)

    /// Builds the entry from rows whose rects are absolute; `shift` is subtracted along `axis`.
    init(id: RowID, config: RowConfig, rows absolute: ArraySlice<RowLayout>, shift: Double, axis: Axis,
         defaults: DocumentDefaults) {
        self.id = id
        shown = !config.hidden
        grow = config.grow
        var list: [RowLayout] = []
        list.reserveCapacity(absolute.count)
        var a = Double.infinity, b = -Double.infinity
        var framed = 0
        for var r in absolute {
            r.frame = r.frame.map { Self.shifted($0, by: -shift, axis) }
            r.content = r.content.map { Self.shifted($0, by: -shift, axis) }
            r.separator = r.separator.map { Self.shifted($0, by: -shift, axis) }
            r.visibility = .offscreen
            r.percent = 0
            if let f = r.frame {
                framed += 1
                a = min(a, axis == .vertical ? f.minY : f.minX)
                b = max(b, axis == .vertical ? f.maxY : f.maxX)
            }
            list.append(r)
        }
        rows = list
        framedCount = framed
        extentLo = framed > 0 ? a : 1
        extentHi = framed > 0 ? b : 0
        if shown, let f = list.first?.frame {
            let m = config.layoutMargin
            outerLength = axis == .vertical ? m.top + f.height + m.bottom : m.left + f.width + m.right
            separatorIfNotLast = SeparatorRule.frame(row: f, parentAxis: axis,
                                                     style: config.separator.resolved(over: defaults.separator),
                                                     isLastShown: false, autoHideLast: defaults.autoHideLastSeparator)
        } else {
            outerLength = 0
            separatorIfNotLast = nil
        }
    }

    private init(id: RowID, shown: Bool, rows: [RowLayout], separatorIfNotLast: Rect?, extentLo: Double,
                 extentHi: Double, framedCount: Int, outerLength: Double, grow: Double) {
        self.id = id
        self.shown = shown
        self.rows = rows
        self.separatorIfNotLast = separatorIfNotLast
        self.extentLo = extentLo
        self.extentHi = extentHi
        self.framedCount = framedCount
        self.outerLength = outerLength
        self.grow = grow
    }

    /// The root settings under which a root row is laid out on its own: the same cross size,
    /// padding, alignment and defaults, `justify start` and a main-axis viewport of 0 (no
    /// main-axis free space).
    static func alone(_ settings: DocumentSettings) -> DocumentSettings {
        var s = settings
        s.offset = 0
        s.justify = .start
        if s.axis == .vertical { s.viewport.height = 0 } else { s.viewport.width = 0 }
        return s
    }

    /// Lays out root row `id` of `document` and its subtree on their own with the engine (the
    /// document compiled for that one root row under `alone` settings; nothing is copied).
    /// O(log n + rows of the subtree).
    static func compute(_ id: RowID, in document: Document) -> LocalRows? {
        guard let config = document.config(of: id), case .some(nil) = document.parent(of: id),
              let index = document.index(of: id) else { return nil }
        let s = alone(document.settings)
        let c = document.laidOut(settings: s, roots: index..<(index + 1))
        let rows = LayoutAssembly.rows(of: c, range: 0..<c.count, viewport: Rect(x: 0, y: 0, width: 0, height: 0),
                                       autoHideLast: s.defaults.autoHideLastSeparator)
        guard rows.first?.id == id else { return nil }
        let p = s.layoutPadding
        let start = s.axis == .vertical ? p.top : p.left
        return LocalRows(id: id, config: config, rows: rows[...], shift: start, axis: s.axis, defaults: s.defaults)
    }

    static func shifted(_ r: Rect, by d: Double, _ axis: Axis) -> Rect {
        var r = r
        if axis == .vertical { r.y += d } else { r.x += d }
        return r
    }
}
