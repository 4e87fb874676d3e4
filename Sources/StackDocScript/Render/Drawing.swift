import Layout

/// `draw`: a character picture of the viewport.
///
/// Scale: one column is 10 points across and one line is 20 points down (a terminal cell is
/// about twice as tall as wide), the viewport's top-left corner at the picture's top-left. When
/// the viewport would need more than 200 columns or lines, both scales double until it fits;
/// the first line of the output names the scale. Column `i` covers points [10i, 10i + 10).
///
/// Each row visible in the viewport is a box of `+ - |` spanning the cells its frame covers
/// (at least one cell each way); rows are drawn in document order, so a nested row is drawn
/// over its stack. A row cut by the viewport edge has no border on the cut side. The id is
/// written inside the box on its second line when the box is at least three lines tall, and in
/// its top border (`+a-----+`) when it is thinner or a stack row (whose rows would cover it).
/// Frame edges are rounded to the nearest cell (halves away from zero). Cells outside the
/// unobscured rectangle (the viewport's insets and the keyboard) are `:`, over the rows.
enum Drawing {
    static let maxCells = 200

    struct Scale: Equatable {
        var x: Double
        var y: Double
    }

    static func scale(for viewport: Size) -> Scale {
        var scale = Scale(x: 10, y: 20)
        while (viewport.width / scale.x > Double(maxCells) || viewport.height / scale.y > Double(maxCells)) && scale.x < 1e300 {
            scale.x *= 2
            scale.y *= 2
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
    static func lines(_ layout: DocumentLayout, stacks: Set<RowID>? = nil) -> [String] {
        let scale = scale(for: layout.viewport)
        let width = max(1, min(maxCells, cell(layout.viewport.width / scale.x)))
        let height = max(1, min(maxCells, cell(layout.viewport.height / scale.y)))
        var grid = [[Character]](repeating: [Character](repeating: " ", count: width), count: height)
        let vertical = layout.axis == .vertical
        let originX = vertical ? 0 : layout.offset
        let originY = vertical ? layout.offset : 0

        let stacks = stacks ?? Set(layout.rows.compactMap(\.parent))
        // Rows moved by sticky positioning are drawn at their shown frame, after (over) the rows in flow.
        let inFlow = layout.rows.filter { layout.displaced[$0.id] == nil }
        let moved = layout.rows.filter { layout.displaced[$0.id] != nil }
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
            let cutLeft = c0 < 0, cutRight = c1 >= width, cutTop = l0 < 0, cutBottom = l1 >= height
            c0 = max(c0, 0); c1 = min(c1, width - 1)
            l0 = max(l0, 0); l1 = min(l1, height - 1)
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
                }
            }
            // The label: inside on the second line when there is room, else on the first line.
            // Stack rows keep it in the top border, where their own rows do not cover it.
            let roomInside = l1 - l0 >= 2 && !stacks.contains(row.id)
            let labelLine = cutTop || !roomInside ? l0 : l0 + 1
            let labelStart = c0 + (cutLeft ? 0 : 1)
            let labelEnd = c1 - (cutRight ? 0 : 1)
            if labelStart <= labelEnd {
                for (i, ch) in row.id.prefix(labelEnd - labelStart + 1).enumerated() {
                    grid[labelLine][labelStart + i] = ch.isWhitespace || ch.asciiValue.map({ $0 < 0x20 }) == true ? "?" : ch
                }
            }
        }
        // Obscured edges (insets, the keyboard): every cell outside the unobscured rectangle is `:`,
        // drawn over the rows they cover.
        if layout.obscured != .zero {
            let u = layout.unobscuredRect
            let c0 = cell((u.minX - originX) / scale.x), c1 = cell((u.maxX - originX) / scale.x)
            let l0 = cell((u.minY - originY) / scale.y), l1 = cell((u.maxY - originY) / scale.y)
            for l in 0..<height {
                for c in 0..<width where !(c >= c0 && c < c1 && l >= l0 && l < l1) { grid[l][c] = ":" }
            }
        }
        let obscured = layout.obscured == .zero ? "" : "; obscured \(Format.edges(layout.obscured)) (:)"
        let caption = "viewport \(Format.size(layout.viewport))\(obscured) at offset \(Format.number(layout.offset)); 1 column = \(Format.number(scale.x)) pt, 1 line = \(Format.number(scale.y)) pt"
        return [caption] + grid.map { String($0).trimmingTrailingSpaces() }
    }
}
