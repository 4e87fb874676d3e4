import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// The import's reading thread encodes rows for their INSERTs with two shortcuts (issue 11 item
/// 3): a style's part of `fields` encoded once per batch and copied (`EncodedRows.append(…style:)`), and
/// order keys stepped in place (`OrderKey.advance`, `StackKeys.withKey`). Each must give exactly
/// what the plain path gives.
@Suite(.offThePool) struct EncodedRowsTests {
    static func randomConfig(_ rng: inout SplitMix64) -> RowConfig {
        var c = RowConfig()
        // A few styles, many rows of each: sizes, contents and hidden vary per row.
        switch rng.int(0..<5) {
        case 0: c.type = "card"
        case 1: c.insets = Edges(top: 1, left: 2, bottom: 3, right: 4)
        case 2: c.stack = StackSettings(axis: .horizontal, spacing: 3)
        case 3:
            c.minMain = 4
            c.background = "#FF0000"
            c.text = TextRun(count: 12)
        default: break
        }
        if rng.chance(2) { c.size = .fixed(Double(rng.int(0..<300))) }
        if rng.chance(3) { c.content = Size(width: Double(rng.int(0..<9)), height: Double(rng.int(0..<9))) }
        c.hidden = rng.chance(4)
        return c
    }

    @Test func rowsEncodedByStyleAreTheRowsEncodedInFull() {
        var rng = SplitMix64(seed: 0xE4C0_DED5)
        var table = RowStyleTable()
        for _ in 0..<20 {
            var byStyle = EncodedRows(), inFull = EncodedRows(), mixed = EncodedRows()
            let n = rng.int(1..<200)
            for i in 0..<n {
                let config = Self.randomConfig(&rng)
                let parent: RowID? = rng.chance(3) ? "s\(rng.int(0..<3))" : nil
                let key = Array("a\(i)".utf8)
                byStyle.append("r\(i)", parent: parent, key: key, config: config, style: table.number(of: config))
                inFull.append("r\(i)", parent: parent, key: key, config: config)
                if rng.chance(5) {
                    mixed.append("r\(i)", parent: parent, key: key, config: config)
                } else {
                    mixed.append("r\(i)", parent: parent, key: key, config: config, style: table.number(of: config))
                }
            }
            #expect(byStyle.count == n)
            for r in 0..<n {
                #expect(byStyle.describe(row: r) == inFull.describe(row: r))
                #expect(mixed.describe(row: r) == inFull.describe(row: r))
            }
            for low in stride(from: 0, to: n, by: 7) {
                let range = low..<min(n, low + rng.int(1..<40))
                #expect(byStyle.columnsSet(range) == inFull.columnsSet(range))
                // The values a statement binds once are exactly those all rows have alike.
                let shared = byStyle.valuesShared(range)
                #expect(shared == inFull.valuesShared(range))
                #expect(mixed.valuesShared(range) == shared)
                #expect(mixed.columnsSet(range) == inFull.columnsSet(range))
                let rowsText = range.map { inFull.describe(row: $0) }
                for k in 0..<EncodedRows.configCount where range.count > 1 {
                    let alike = Set(rowsText.map { $0[3 + k] }).count == 1
                    #expect((shared & (1 << UInt64(k)) != 0) == alike, "column \(k)")
                }
                if range.count > 1 {
                    #expect((shared & EncodedRows.parentBit != 0) == (Set(rowsText.map { $0[0] }).count == 1))
                }
            }
            byStyle.removeAll()
            #expect(byStyle.count == 0)
        }
    }

    @Test func aStyleLeavesOutSizeContentAndHidden() throws {
        // Two configs of one style (`RowStyleKey`) share the style part of `fields`, and each
        // row's values are its size and `RowFields.encode` of its config, read back exactly.
        var rng = SplitMix64(seed: 7)
        for i in 0..<500 {
            let a = Self.randomConfig(&rng)
            var b = a
            b.size = rng.chance(2) ? .fit : .fixed(Double(rng.int(0..<50)))
            b.content = Size(width: Double(rng.int(0..<5)), height: 1)
            b.hidden.toggle()
            #expect(RowStyleKey(a) == RowStyleKey(b))
            #expect(RowFields.style(a) == RowFields.style(b))
            var rows = EncodedRows()
            rows.append("r\(i)", parent: nil, key: Array("a".utf8), config: b)
            let fields = RowFields.encode(b)
            let hex = fields.map { "blob " + $0.map { String($0, radix: 16) }.joined(separator: " ") } ?? "NULL"
            #expect(rows.describe(row: 0)[4] == hex)
            var back = try RowFields.decode(fields)
            back.size = b.size
            #expect(back == b)
        }
    }

    @Test func keysSteppedInPlaceAreTheSequence() {
        var key = Array(OrderKey.first.utf8)
        var expected = Array(OrderKey.first.utf8)
        for _ in 0..<300_000 {
            OrderKey.advance(&key)
            expected = OrderKey.next(after: expected)
            guard key == expected else {
                Issue.record("\(String(decoding: key, as: UTF8.self)) ≠ \(String(decoding: expected, as: UTF8.self))")
                return
            }
        }
        // Stacks that take turns keep their own sequences.
        var keys = StackKeys()
        var got: [RowID?: [String]] = [:]
        var rng = SplitMix64(seed: 3)
        for _ in 0..<5_000 {
            let parent: RowID? = rng.pick([nil, "a", "b"])
            got[parent, default: []].append(keys.withKey(in: parent) { String(decoding: $0, as: UTF8.self) })
        }
        for (_, sequence) in got { #expect(sequence == OrderKey.sequence(sequence.count)) }
    }
}
