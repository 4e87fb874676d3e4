import Testing
import Layout
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

@Suite(.offThePool) struct ChangeReportTests {
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
        // frames (1 + 12 moved rows), content, 24 transitions and their count line.
        #expect(r.textLines.count <= 4 + ChangeReport.listLimit * 3 + 1)
        #expect(r.moved.count == 100)   // every row was visible before: all in the data, 12 in the text
        #expect(r.textLines.filter { $0.hasPrefix("    ") }.count == ChangeReport.listLimit)
    }

    /// Issue 13 item 11: each listed row with its frame before and after.
    @Test func movedRowsShowTheirFramesBeforeAndAfter() {
        let r = ChangeReport(before: layout([("a", 50), ("b", 50), ("c", 50)]), after: layout([("x", 10), ("a", 50), ("c", 50)]))
        #expect(r.moved == [FrameChange(row: "x", from: nil, to: Rect(x: 0, y: 0, width: 100, height: 10)),
                            FrameChange(row: "a", from: Rect(x: 0, y: 0, width: 100, height: 50), to: Rect(x: 0, y: 10, width: 100, height: 50)),
                            FrameChange(row: "c", from: Rect(x: 0, y: 100, width: 100, height: 50), to: Rect(x: 0, y: 60, width: 100, height: 50))])
        #expect(Array(r.textLines.prefix(4)) == ["  frames: x a c", "    x: - -> 0,0 100x10", "    a: 0,0 100x50 -> 0,10 100x50",
                                                 "    c: 0,100 100x50 -> 0,60 100x50"])
    }

    /// Issue 13 item 10: rows that arrive or leave are transitions, offscreen ones too.
    @Test func arrivalsAndDeparturesAreTransitions() {
        let r = ChangeReport(before: layout([("a", 50), ("b", 50), ("c", 50)]), after: layout([("x", 10), ("a", 50), ("c", 50), ("y", 50)]))
        #expect(r.transitions == [VisibilityTransition(row: "x", from: nil, to: .entire),
                                  VisibilityTransition(row: "c", from: .offscreen, to: .partial),
                                  VisibilityTransition(row: "y", from: nil, to: .offscreen),
                                  VisibilityTransition(row: "b", from: .entire, to: nil)])
        #expect(r.textLines.suffix(4) == ["  x: (new) -> entire", "  c: offscreen -> partial", "  y: (new) -> offscreen", "  b: entire -> (removed)"])
        var json: [UInt8] = []
        JSONWriter.append(.array(r.transitions.map(LayoutOutput.eventJSON)), to: &json, pretty: false, indent: 0)
        #expect(String(decoding: json, as: UTF8.self).hasSuffix(#"{"row":"y","from":null,"to":"offscreen"},{"row":"b","from":"entire","to":null}]"#))
    }
}
