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
        if widths.count != headers.count { widths = headers.map(\.count) }
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        let final = widths
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: max(0, final[i] - cell.count))
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        return ((withHeaders ? [line(headers)] : []) + rows.map(line)).joined(separator: "\n")
    }
}
