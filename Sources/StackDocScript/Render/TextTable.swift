/// An aligned text table: a header line, then one line per row; columns separated by two
/// spaces, numeric columns right-aligned, trailing blanks trimmed.
struct TextTable {
    var headers: [String]
    /// Columns whose cells are right-aligned.
    var rightAligned: Set<Int> = []
    var rows: [[String]] = []

    init(_ headers: [String], rightAligned: Set<Int> = []) {
        self.headers = headers
        self.rightAligned = rightAligned
    }

    mutating func add(_ cells: [String]) { rows.append(cells) }

    var rendered: String {
        var widths: [Int] = []
        return rendered(widening: &widths, withHeaders: true)
    }

    /// The table's lines, each column at least as wide as `widths` says (empty: no minimum),
    /// which become the widths used; the header line only `withHeaders`. A long table printed a
    /// block at a time keeps its columns from narrowing between blocks.
    func rendered(widening widths: inout [Int], withHeaders: Bool) -> String {
        if widths.count != headers.count { widths = headers.map(Self.width) }
        let cellWidths = rows.map { $0.map(Self.width) }
        for row in cellWidths {
            for (i, w) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], w) }
        }
        let final = widths
        let right = (0..<final.count).map(rightAligned.contains)
        var out = ""
        var first = true
        func line(_ cells: [String], _ cellWidths: [Int]) {
            if !first { out += "\n" }
            first = false
            var text = ""
            for (i, cell) in cells.enumerated() {
                if i > 0 { text += "  " }
                let pad = max(0, final[i] - cellWidths[i])
                if right[i] { Self.appendSpaces(pad, to: &text) }
                text += cell
                if !right[i] { Self.appendSpaces(pad, to: &text) }
            }
            out += text.trimmingTrailingSpaces()
        }
        if withHeaders { line(headers, headers.map(Self.width)) }
        for (cells, cellWidths) in zip(rows, cellWidths) { line(cells, cellWidths) }
        return out
    }

    /// A cell's width in characters: its byte count when every byte is ASCII other than a
    /// carriage return (one character each), else its character count.
    static func width(_ cell: String) -> Int {
        var ascii = true
        for b in cell.utf8 where b >= 0x80 || b == 0x0D { ascii = false; break }
        return ascii ? cell.utf8.count : cell.count
    }

    private static func appendSpaces(_ n: Int, to text: inout String) {
        if n > 0 { text += String(repeating: " ", count: n) }
    }
}
