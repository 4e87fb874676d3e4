import Testing
@testable import Layout

@Suite("FlexLineIndex (incremental main-axis positions)")
struct FlexLineIndexTests {
    /// One item of the reference model: margins and border-box size along the main axis.
    struct Row: Equatable {
        var marginStart: Double
        var size: Double
        var marginEnd: Double
        var hidden: Bool
        var outer: Double { marginStart + size + marginEnd }
    }

    static func randomRow(_ rng: inout SplitMix64) -> Row {
        Row(marginStart: Double(Int.random(in: 0...3, using: &rng)),
            size: Double(Int.random(in: 0...200, using: &rng)) + (Bool.random(using: &rng) ? 0.5 : 0),
            marginEnd: Double(Int.random(in: 0...2, using: &rng)),
            hidden: Int.random(in: 0..<8, using: &rng) == 0)
    }

    /// Lays the rows out with the full engine: a column root 390 wide with padding and gap.
    static func engineFrames(_ rows: [Row], gap: Double, padding: Edges) -> (root: Rect, rows: [Rect]) {
        var tree = FlexTree(capacity: rows.count + 1)
        var rootStyle = FlexStyle()
        rootStyle.direction = .column
        rootStyle.width = .points(390)
        rootStyle.rowGap = gap
        rootStyle.padding = padding
        let root = tree.addNode(rootStyle, parent: nil)
        let ids = rows.map { row -> FlexNodeID in
            var s = FlexStyle()
            s.height = .points(row.size)
            s.flexShrink = 0
            s.margin = Edges(top: row.marginStart, left: 0, bottom: row.marginEnd, right: 0)
            s.display = !row.hidden
            return tree.addNode(s, parent: root)
        }
        tree.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        return (tree.frame(of: root), ids.map { tree.frame(of: $0) })
    }

    /// Checks the index against the model and against the engine.
    static func check(_ index: FlexLineIndex, _ rows: [Row], gap: Double, step: Int) {
        let padding = Edges(top: 7, left: 3, bottom: 5, right: 3)
        #expect(index.count == rows.count, "step \(step)")
        #expect(index.visibleCount == rows.filter { !$0.hidden }.count, "step \(step)")
        let items = index.items
        #expect(items.map(\.length) == rows.map(\.outer), "step \(step)")
        #expect(items.map(\.hidden) == rows.map(\.hidden), "step \(step)")
        let (rootFrame, frames) = engineFrames(rows, gap: gap, padding: padding)
        #expect(abs(rootFrame.height - (index.totalLength + padding.vertical)) < 1e-9, "step \(step): content length")
        for (i, row) in rows.enumerated() where !row.hidden {
            let y = padding.top + index.offset(at: i) + row.marginStart
            #expect(abs(frames[i].y - y) < 1e-9, "step \(step): row \(i) engine y \(frames[i].y), index \(y)")
        }
    }

    @Test func randomEditSequencesAgreeWithTheEngine() {
        var rng = SplitMix64(seed: 7)
        for sequence in 0..<12 {
            var rows = (0..<Int.random(in: 0...40, using: &rng)).map { _ in Self.randomRow(&rng) }
            var gap = Double(Int.random(in: 0...10, using: &rng))
            var index = FlexLineIndex(lengths: rows.map(\.outer), hidden: rows.map(\.hidden), gap: gap, seed: UInt64(sequence))
            Self.check(index, rows, gap: gap, step: -1)
            for step in 0..<60 {
                switch Int.random(in: 0..<7, using: &rng) {
                case 0, 1:
                    let row = Self.randomRow(&rng)
                    let at = Int.random(in: 0...rows.count, using: &rng)
                    rows.insert(row, at: at)
                    index.insert(length: row.outer, hidden: row.hidden, at: at)
                case 2 where !rows.isEmpty:
                    let at = Int.random(in: 0..<rows.count, using: &rng)
                    rows.remove(at: at)
                    index.remove(at: at)
                case 3 where !rows.isEmpty:
                    let from = Int.random(in: 0..<rows.count, using: &rng)
                    let to = Int.random(in: 0..<rows.count, using: &rng)
                    rows.insert(rows.remove(at: from), at: to)
                    index.move(from: from, to: to)
                case 4 where !rows.isEmpty:
                    let at = Int.random(in: 0..<rows.count, using: &rng)
                    rows[at].size = Double(Int.random(in: 0...300, using: &rng))
                    index.setLength(rows[at].outer, at: at)
                case 5 where !rows.isEmpty:
                    let at = Int.random(in: 0..<rows.count, using: &rng)
                    rows[at].hidden.toggle()
                    index.setHidden(rows[at].hidden, at: at)
                case 6:
                    gap = Double(Int.random(in: 0...10, using: &rng))
                    index.gap = gap
                default:
                    break
                }
                Self.check(index, rows, gap: gap, step: sequence * 100 + step)
            }
        }
    }

    @Test func positionQueriesMatchALinearScan() {
        var rng = SplitMix64(seed: 11)
        let rows = (0..<500).map { _ in Self.randomRow(&rng) }
        let gap = 4.0
        let index = FlexLineIndex(lengths: rows.map(\.outer), hidden: rows.map(\.hidden), gap: gap)
        // Reference offsets and ends.
        var offsets: [Double] = []
        var acc = 0.0
        for row in rows {
            offsets.append(acc)
            if !row.hidden { acc += row.outer + gap }
        }
        func expectedIndex(at p: Double) -> Int? {
            rows.indices.first { !rows[$0].hidden && offsets[$0] + rows[$0].outer > p }
        }
        for _ in 0..<400 {
            let p = Double.random(in: -10...(index.totalLength + 10), using: &rng).rounded()
            #expect(index.index(atOffset: p) == expectedIndex(at: p), "position \(p)")
            let end = p + Double.random(in: 0...900, using: &rng)
            let expected = rows.indices.filter {
                !rows[$0].hidden && offsets[$0] + rows[$0].outer > p && offsets[$0] < end
            }
            let got = index.visibleItems(from: p, to: end)
            #expect(got.map(\.index) == expected, "range \(p)..<\(end)")
            #expect(got.map(\.offset) == expected.map { offsets[$0] })
        }
    }

    @Test func handlesFollowTheirItems() {
        var index = FlexLineIndex(lengths: [10, 20, 30, 40], gap: 1)
        let third = index.item(at: 2)
        index.move(from: 2, to: 0)
        #expect(index.index(of: third) == 0)
        index.insert(length: 5, at: 0)
        #expect(index.index(of: third) == 1)
        #expect(index.offset(at: 1) == 6)
        index.remove(at: 1)
        #expect(index.index(of: third) == nil)
        let fresh = index.insert(length: 7, at: 2) // may reuse the freed slot
        #expect(index.index(of: third) == nil)
        #expect(index.index(of: fresh) == 2)
    }

    @Test func hiddenItemsTakeNoLengthAndNoGap() {
        var index = FlexLineIndex(lengths: [10, 20, 30], gap: 5)
        #expect(index.totalLength == 70)
        index.setHidden(true, at: 1)
        #expect(index.totalLength == 45)
        #expect(index.offset(at: 1) == 15) // where it would start
        #expect(index.offset(at: 2) == 15)
        #expect(index.index(atOffset: 12) == 2) // in the gap: the next visible item
        index.setHidden(true, at: 0)
        index.setHidden(true, at: 2)
        #expect(index.totalLength == 0)
        #expect(index.index(atOffset: 0) == nil)
    }

    @Test func largeLinesStayBalanced() {
        var index = FlexLineIndex(lengths: Array(repeating: 44, count: 100_000))
        for i in 0..<2000 { index.insert(length: 10, at: i * 37 % index.count) }
        for i in 0..<1000 { index.move(from: i * 101 % index.count, to: i * 13 % index.count) }
        // A random treap of n nodes has expected height about 3·ln n ≈ 35 here.
        #expect(index.treeHeight < 80)
        #expect(index.count == 102_000)
    }

    @Test func invalidLengthsCountAsZero() {
        var index = FlexLineIndex(lengths: [10, .nan, -5, .infinity])
        #expect(index.items.map(\.length) == [10, 0, 0, 0])
        index.setLength(-1, at: 0)
        #expect(index.totalLength == 0)
        index.gap = -3
        #expect(index.gap == 0)
    }
}
