import Testing
import Layout
@testable import repl
@testable import StackDocScript

@Suite struct ChangeReportTests {
    func layout(_ rows: [(String, Double)], viewport: Double = 100) -> DocumentLayout {
        var y = 0.0
        let laid = rows.enumerated().map { i, r -> RowLayout in
            defer { y += r.1 }
            let frame = Rect(x: 0, y: y, width: 100, height: r.1)
            let vis: Visibility = frame.maxY <= viewport ? .entire : (frame.minY < viewport ? .partial : .offscreen)
            return RowLayout(id: r.0, parent: nil, index: i, type: "view", hidden: false, frame: frame, content: frame,
                             separator: nil, visibility: vis, percent: vis == .entire ? 100 : 0)
        }
        return DocumentLayout(document: "d", axis: .vertical, viewport: Size(width: 100, height: viewport), offset: 0,
                              contentSize: Size(width: 100, height: max(y, viewport)), rows: laid)
    }

    @Test func sameRowsOnlyFramesThatMoved() {
        let r = ChangeReport(before: layout([("a", 50), ("b", 50), ("c", 50)]), after: layout([("a", 50), ("b", 60), ("c", 50)]))
        #expect(r.changedVisible == ["b"])   // c moved but is offscreen before and after
        #expect(r.changedCount == 2)
        #expect(r.removed.isEmpty)
    }

    @Test func insertedAtTopShiftsEverything() {
        let r = ChangeReport(before: layout([("a", 50), ("b", 50), ("c", 50)]), after: layout([("x", 10), ("a", 50), ("b", 50), ("c", 50)]))
        #expect(r.changedVisible == ["x", "a", "b"])   // c was and stays offscreen
        #expect(r.changedCount == 4)
        #expect(r.textLines.first == "  frames: x a b (+1 offscreen)")
    }

    @Test func removedAndMovedRows() {
        let r = ChangeReport(before: layout([("a", 50), ("b", 50), ("c", 50)]), after: layout([("c", 50), ("a", 50)]))
        #expect(r.removed == ["b"])
        #expect(r.changedVisible == ["c", "a"])
        let empty = ChangeReport(before: layout([("a", 50), ("b", 50)]), after: layout([]))
        #expect(empty.removed == ["a", "b"])
        #expect(empty.changedCount == 0)
    }

    @Test func listsAreBounded() {
        let before = layout((0..<100).map { ("r\($0)", 1) })
        let after = layout((0..<100).map { ("r\($0)", 2) })
        let r = ChangeReport(before: before, after: after)
        #expect(r.changedCount == 100)
        #expect(r.textLines.first == "  frames: r0 r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 +88 more")   // all were visible before
        #expect(r.textLines.count <= 4 + ChangeReport.listLimit * 2 + 1)
    }
}
