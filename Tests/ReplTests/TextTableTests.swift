import Layout
import OrderStatistics
@testable import StackDocScript
import StackDocTestSupport
import Testing

/// `TextTable` renders by bytes where its cells are plain ASCII and by characters elsewhere;
/// its output must be exactly what the character-by-character rendering it replaced gave
/// (frozen below as the reference), for any cells: trailing spaces, combining marks, `\r\n`,
/// wide and prepended characters, empty cells, short rows.
@Suite(.offThePool) struct TextTableTests {
    /// The rendering before the fast path (kept frozen: the reference the new one must equal).
    static func reference(_ table: TextTable, widening widths: inout [Int], withHeaders: Bool) -> String {
        if widths.count != table.headers.count { widths = table.headers.map(\.count) }
        for row in table.rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        let final = widths
        func trimmed(_ text: String) -> String {
            var s = Substring(text)
            while s.last == " " { s = s.dropLast() }
            return String(s)
        }
        func line(_ cells: [String]) -> String {
            trimmed(cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: max(0, final[i] - cell.count))
                return table.rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  "))
        }
        return ((withHeaders ? [line(table.headers)] : []) + table.rows.map(line)).joined(separator: "\n")
    }

    static let pieces = ["a", "r12", " ", "  ", "x ", "é", "e\u{301}", "\r\n", "\r", "日本", "👩‍👩‍👧", "\u{600} ", "-", "", "fixed 20", "1.5"]

    static func randomCell(_ rng: inout SplitMix64) -> String {
        (0..<Int(rng.next() % 4)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
    }

    @Test func equalsTheCharacterRenderingForRandomCells() {
        var rng = SplitMix64(seed: 2026_11_27)
        for round in 0..<400 {
            let columns = 1 + Int(rng.next() % 5)
            var table = TextTable((0..<columns).map { _ in Self.randomCell(&rng) },
                                  rightAligned: Set((0..<columns).filter { _ in rng.next() % 2 == 0 }))
            for _ in 0..<Int(rng.next() % 6) {
                table.add((0..<(1 + Int(rng.next() % UInt64(columns)))).map { _ in Self.randomCell(&rng) })
            }
            var widths: [Int] = round % 3 == 0 ? [] : (0..<columns).map { _ in Int(rng.next() % 8) }
            var expectedWidths = widths
            let headers = round % 2 == 0
            let expected = Self.reference(table, widening: &expectedWidths, withHeaders: headers)
            let got = table.rendered(widening: &widths, withHeaders: headers)
            #expect(got == expected, "round \(round): \(String(describing: table.headers)) \(String(describing: table.rows))")
            #expect(widths == expectedWidths, "round \(round)")
            if got != expected || widths != expectedWidths { return }
        }
    }

    @Test func trimsOnlyTrailingSpaceCharacters() {
        #expect("a b  ".trimmingTrailingSpaces() == "a b")
        #expect("   ".trimmingTrailingSpaces() == "")
        #expect("".trimmingTrailingSpaces() == "")
        #expect("a\u{600} ".trimmingTrailingSpaces() == "a\u{600} ", "a prepended space is one character, not a space")
        #expect("a \u{301}".trimmingTrailingSpaces() == "a \u{301}")
    }
}
