import Layout

/// `draw`: a character picture of the viewport.
///
/// Scale: one line is twice as many points down as one column is across (a terminal cell is
/// about twice as tall as wide), the viewport's top-left corner at the picture's top-left. By
/// default one column is the smallest whole number of points, at least 10, that fits the
/// viewport in 80 columns and 200 lines (10 for a phone: 390 points are 39 columns); `--width N`
/// makes the viewport N columns wide and `--scale S` one column S points. The first line of the
/// output names the scale. Column `i` covers points [S·i, S·i + S).
///
/// Each row visible in the viewport is a box of `+ - |` spanning the cells its frame covers
/// (at least one cell each way); rows are drawn in document order, so a nested row is drawn
/// over its stack. A row cut by the viewport edge has no border on the cut side. Frame edges
/// are rounded to the nearest cell (halves away from zero). Cells outside the unobscured
/// rectangle (the viewport's insets and the keyboard) are `:`, over the rows.
///
/// The ids are written after every box, in document order, so no box covers one; a row that is
/// not a stack and whose box later boxes cover wholly (a row under a stuck header) has none. A row's id
/// goes inside the box on its second line when the box is at least three lines tall, and in
/// its top border (`+a-----+`) when it is thinner or a stack row (whose rows fill it). An id
/// that would touch one written before (a stack's and its first row's share a line when the
/// stack has no inset) moves right along that line, else to the next line of its box, with a
/// blank between them; with no room anywhere in its box it is cut short, or left out. Ids of
/// different rows on one line are always separated by a blank or a `|`/`+` border, never by a
/// `-` (ids may hold `-`). When an id is cut short or left out, a last line says which
/// `draw --scale` gives more room (`Drawing+Hint`).
///
/// Row kinds (issue 14, `RowKind`): the id of a text, aspect or sticky row is followed by a tag,
/// `caption [3 lines]`, `photo [16:9]`, `h1 [sticky]` (`[stuck]` while sticky positioning moves
/// it), when the id and the tag fit in its box uncut (else the id alone, as above). Inside a text
/// row's box, each picture line whose middle falls on a wrapped line of its text shows that
/// line's glyphs as `~` from the content's left edge (the ragged last line shorter).
enum Drawing {
    /// The most columns and lines a picture has (the default's lines, and any `--width` or `--scale`).
    static let maxCells = 200
    /// The columns the default scale fits the viewport in (a terminal's width).
    static let terminalColumns = 80

    struct Scale: Equatable {
        var x: Double
        var y: Double
    }

    /// The default scale: the smallest whole number of points per column, at least 10, that
    /// fits `viewport` in `terminalColumns` columns and `maxCells` lines (one line is two columns' points).
    static func scale(for viewport: Size) -> Scale {
        let x = max(10, (viewport.width / Double(terminalColumns)).rounded(.up), (viewport.height / Double(2 * maxCells)).rounded(.up))
        return Scale(x: x, y: 2 * x)
    }

    /// The scale `draw` asked for, checked: a picture of at most `maxCells` columns and lines.
    static func scale(_ asked: DrawScale, for viewport: Size) throws -> Scale {
        let scale: Scale
        switch asked {
        case .fit: return self.scale(for: viewport)
        case .width(let n): scale = Scale(x: viewport.width / Double(n), y: 2 * viewport.width / Double(n))
        case .points(let s): scale = Scale(x: s, y: 2 * s)
        }
        let columns = viewport.width / scale.x, lines = viewport.height / scale.y
        guard scale.x > 0, columns.rounded() <= Double(maxCells), lines.rounded() <= Double(maxCells) else {
            throw StackDocError(.badValue(path: Printer.text(.draw(asked)), problem: "the \(Format.size(viewport)) viewport would be \(Format.number(columns.rounded())) columns by \(Format.number(lines.rounded())) lines; a picture has at most \(maxCells) of each"))
        }
        return scale
    }

    /// A position in cells, rounded (halves away from zero); far-away or non-finite values are
    /// pinned well outside the picture instead of trapping in the conversion to Int.
    static func cell(_ v: Double) -> Int {
        guard v.isFinite else { return v > 0 ? 1_000_000 : -1_000_000 }
        return Int(min(max(v.rounded(), -1_000_000), 1_000_000))
    }

    /// The picture's lines, the first one a caption. `stacks`: the stack rows that have rows
    /// (by default the rows that are some row's parent in `layout`).
    /// `kinds`: the rows that are text, aspect or sticky rows (none by default).
    /// When an id is cut to fit its box, the picture ends with one hint line naming a finer
    /// `draw --scale` (`Drawing+Hint`).
    static func lines(_ layout: DocumentLayout, stacks: Set<RowID>? = nil, kinds: [RowID: RowKind] = [:],
                      scale asked: DrawScale = .fit) throws -> [String] {
        let stacks = stacks ?? Set(layout.rows.compactMap(\.parent))
        let scale = try scale(asked, for: layout.viewport)
        let drawn = picture(layout, stacks: stacks, kinds: kinds, scale: scale)
        guard let hint = cutHint(drawn.cut, layout: layout, stacks: stacks, kinds: kinds, scale: scale) else { return drawn.lines }
        return drawn.lines + [hint]
    }

    /// An id drawn shorter than it is (or left out for want of room): its box's width in
    /// points and the columns the id and the box's borders need.
    struct CutID {
        var widthPoints: Double
        var columnsNeeded: Int
    }

    /// The picture at `scale` and the ids it cut.
    static func picture(_ layout: DocumentLayout, stacks: Set<RowID>, kinds: [RowID: RowKind],
                        scale: Scale) -> (lines: [String], cut: [CutID]) {
        let width = max(1, min(maxCells, cell(layout.viewport.width / scale.x)))
        let height = max(1, min(maxCells, cell(layout.viewport.height / scale.y)))
        var grid = [[Character]](repeating: [Character](repeating: " ", count: width), count: height)
        let vertical = layout.axis == .vertical
        let originX = vertical ? 0 : layout.offset
        let originY = vertical ? layout.offset : 0

        // Rows moved by sticky positioning are drawn at their shown frame, after (over) the rows in flow.
        let inFlow = layout.rows.filter { layout.displaced[$0.id] == nil }
        let moved = layout.rows.filter { layout.displaced[$0.id] != nil }
        /// Where each drawn box is, in cells, for its label.
        struct Box { var id: RowID; var c0, c1, l0, l1: Int; var cutLeft, cutRight, cutTop: Bool; var stack: Bool; var widthPoints: Double }
        var boxes: [Box] = []
        /// The box drawn last on each cell (-1: none): a box wholly covered by later ones has no id.
        var owner = [[Int]](repeating: [Int](repeating: -1, count: width), count: height)
        for row in inFlow + moved where row.visibility == .entire || row.visibility == .partial {
            guard var f = row.frame else { continue }
            if let d = layout.displaced[row.id] { f = d.moved(f) }
            // Frame in viewport points, then in cells (half-open), clipped to the picture.
            let x0 = (f.minX - originX) / scale.x, x1 = (f.maxX - originX) / scale.x
            let y0 = (f.minY - originY) / scale.y, y1 = (f.maxY - originY) / scale.y
            var c0 = cell(x0), c1 = cell(x1) - 1
            var l0 = cell(y0), l1 = cell(y1) - 1
            if c1 < c0 { c1 = c0 }
            if l1 < l0 { l1 = l0 }
            // Clipped to the picture, and a row inside stacks that scroll on their own to what
            // they let be seen of it (SPEC §2.8): their windows.
            var (bc0, bc1, bl0, bl1) = (0, width - 1, 0, height - 1)
            if let clip = layout.clips[row.id] {
                bc0 = max(bc0, cell((clip.minX - originX) / scale.x)); bc1 = min(bc1, cell((clip.maxX - originX) / scale.x) - 1)
                bl0 = max(bl0, cell((clip.minY - originY) / scale.y)); bl1 = min(bl1, cell((clip.maxY - originY) / scale.y) - 1)
            }
            let cutLeft = c0 < bc0, cutRight = c1 > bc1, cutTop = l0 < bl0, cutBottom = l1 > bl1
            c0 = max(c0, bc0); c1 = min(c1, bc1)
            l0 = max(l0, bl0); l1 = min(l1, bl1)
            guard c0 <= c1, l0 <= l1 else { continue }

            for l in l0...l1 {
                for c in c0...c1 {
                    let top = l == l0 && !cutTop, bottom = l == l1 && !cutBottom
                    let left = c == c0 && !cutLeft, right = c == c1 && !cutRight
                    let horizontalEdge = top || bottom
                    let verticalEdge = left || right
                    if horizontalEdge && verticalEdge {
                        grid[l][c] = "+"
                    } else if horizontalEdge {
                        grid[l][c] = "-"
                    } else if verticalEdge {
                        grid[l][c] = "|"
                    } else {
                        grid[l][c] = " "
                    }
                    owner[l][c] = boxes.count
                }
            }
            if let kind = kinds[row.id], kind.lines > 0, var content = row.content {
                if let d = layout.displaced[row.id] { content = d.moved(content) }
                let first = c0 + (cutLeft ? 0 : 1), last = c1 - (cutRight ? 0 : 1)
                let top = l0 + (cutTop ? 0 : 1), bottom = l1 - (cutBottom ? 0 : 1)
                if first <= last && top <= bottom {
                    textLines(kind, content: content, in: &grid, columns: first...last, lines: top...bottom,
                              origin: (originX, originY), scale: scale)
                }
            }
            boxes.append(Box(id: row.id, c0: c0, c1: c1, l0: l0, l1: l1, cutLeft: cutLeft, cutRight: cutRight, cutTop: cutTop,
                             stack: stacks.contains(row.id),
                             widthPoints: (min(x1, Double(width)) - max(x0, 0)) * scale.x))
        }
        // The ids, after every box (no box covers one), in the same order.
        var labelled = [[Bool]](repeating: [Bool](repeating: false, count: width), count: height)
        var cut: [CutID] = []
        for (index, box) in boxes.enumerated() where box.stack || owner[box.l0...box.l1].contains(where: { $0[box.c0...box.c1].contains(index) }) {
            var text = box.id.map { $0.isWhitespace || $0.asciiValue.map({ $0 < 0x20 }) == true ? "?" : $0 }
            let start = box.c0 + (box.cutLeft ? 0 : 1)
            let end = box.c1 - (box.cutRight ? 0 : 1)
            let idCut = CutID(widthPoints: box.widthPoints,
                              columnsNeeded: text.count + (box.cutLeft ? 0 : 1) + (box.cutRight ? 0 : 1))
            guard start <= end else { cut.append(idCut); continue }
            // Inside on the second line when there is room; in the top border when thinner, cut
            // at the top, or a stack row (whose rows cover its inside).
            let roomInside = box.l1 - box.l0 >= 2 && !box.stack
            let preferred = box.cutTop || !roomInside ? box.l0 : box.l0 + 1
            var place = labelPlace(length: text.count, preferred: preferred, lines: box.l0...box.l1,
                                   columns: start...end, taken: labelled)
            if let kind = kinds[box.id] {
                // The id and its kind's tag when they fit uncut; else the id alone.
                let tagged = text + Array(" " + kind.tag)
                if let p = labelPlace(length: tagged.count, preferred: preferred, lines: box.l0...box.l1,
                                      columns: start...end, taken: labelled), p.count == tagged.count {
                    place = p
                    text = tagged
                }
            }
            guard let (line, column, count) = place else { cut.append(idCut); continue }
            if count < box.id.count { cut.append(idCut) }
            for i in 0..<count {
                grid[line][column + i] = text[i]
                labelled[line][column + i] = true
            }
        }
        // Ids of different rows on one line are two words: the border between them is a blank
        // (`+outer inner x-+`, not `+outer-inner-x-+`, which reads as one id).
        for l in 0..<height where width > 2 {
            for c in 1..<(width - 1) where !labelled[l][c] && labelled[l][c - 1] && labelled[l][c + 1] && grid[l][c] == "-" {
                grid[l][c] = " "
            }
        }
        // Obscured edges (insets, the keyboard): every cell outside the unobscured rectangle is `:`,
        // drawn over the rows they cover; the safe area's bars, `=`.
        if layout.obscured != .zero {
            func cells(_ r: Rect) -> (c0: Int, c1: Int, l0: Int, l1: Int) {
                (cell((r.minX - originX) / scale.x), cell((r.maxX - originX) / scale.x),
                 cell((r.minY - originY) / scale.y), cell((r.maxY - originY) / scale.y))
            }
            let u = cells(layout.unobscuredRect), s = cells(layout.safeAreaRect)
            for l in 0..<height {
                for c in 0..<width where !(c >= u.c0 && c < u.c1 && l >= u.l0 && l < u.l1) {
                    grid[l][c] = c >= s.c0 && c < s.c1 && l >= s.l0 && l < s.l1 ? ":" : "="
                }
            }
        }
        let obscured = (layout.obscured == .zero ? "" : "; obscured \(Format.edges(layout.obscured)) (:)")
            + (layout.safeArea == .zero ? "" : ", safe area \(Format.edges(layout.safeArea)) (=)")
        let caption = "viewport \(Format.size(layout.viewport))\(obscured) at offset \(Format.number(layout.offset)); 1 column = \(Format.twoDecimals(scale.x)) pt, 1 line = \(Format.twoDecimals(scale.y)) pt"
        return ([caption] + grid.map { String($0).trimmingTrailingSpaces() }, cut)
    }

    /// A text row's wrapped lines as `~` inside its box (`columns` × `lines`, in cells): on each
    /// picture line whose middle point falls on text line k, from the content's left edge for
    /// the glyphs of line k. Cells taken by nothing but the box's blank inside are written.
    static func textLines(_ kind: RowKind, content: Rect, in grid: inout [[Character]], columns: ClosedRange<Int>,
                          lines: ClosedRange<Int>, origin: (x: Double, y: Double), scale: Scale) {
        guard let text = kind.text, text.lineHeight > 0 else { return }
        for l in lines {
            let middle = origin.y + (Double(l) + 0.5) * scale.y
            let k = ((middle - content.minY) / text.lineHeight).rounded(.down)
            guard k >= 0, k < Double(kind.lines), middle < content.maxY else { continue }
            let glyphs = Double(kind.glyphs(onLine: Int(k)))
            let from = max(columns.lowerBound, cell((content.minX - origin.x) / scale.x))
            let to = min(columns.upperBound, cell((content.minX + glyphs * text.glyphWidth - origin.x) / scale.x) - 1,
                         cell((content.maxX - origin.x) / scale.x) - 1)
            guard from <= to else { continue }
            for c in from...to where grid[l][c] == " " { grid[l][c] = "~" }
        }
    }

    /// Where an id of `length` characters goes in its box: the first place, on the `preferred`
    /// line and then on the box's other lines top to bottom, left to right from `columns`' start,
    /// where it touches no id written before (`taken`, with a blank between them); else the
    /// longest such run on the preferred line, cutting the id short. Nil when there is no free cell.
    static func labelPlace(length: Int, preferred: Int, lines: ClosedRange<Int>, columns: ClosedRange<Int>,
                           taken: [[Bool]]) -> (line: Int, column: Int, count: Int)? {
        /// The free runs of `line` within `columns` (a cell beside a taken one is not free).
        func runs(_ line: Int) -> [(start: Int, count: Int)] {
            var out: [(Int, Int)] = []
            var runStart: Int?
            for c in columns {
                let free = !taken[line][c] && (c == 0 || !taken[line][c - 1]) && (c + 1 >= taken[line].count || !taken[line][c + 1])
                if free, runStart == nil { runStart = c }
                if !free, let s = runStart { out.append((s, c - s)); runStart = nil }
            }
            if let s = runStart { out.append((s, columns.upperBound + 1 - s)) }
            return out
        }
        for line in [preferred] + lines.filter({ $0 != preferred }) {
            if let run = runs(line).first(where: { $0.count >= length }) { return (line, run.start, length) }
        }
        guard let best = runs(preferred).max(by: { $0.count < $1.count }) else { return nil }
        return (preferred, best.start, min(best.count, length))
    }
}
