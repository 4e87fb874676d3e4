import Testing
import Layout
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

@Suite struct DrawingTests {
    func row(_ id: String, _ y: Double, _ h: Double, x: Double = 0, w: Double = 200, _ v: Visibility = .entire, parent: String? = nil) -> RowLayout {
        RowLayout(id: id, parent: parent, index: 0, type: "view", hidden: false, frame: Rect(x: x, y: y, width: w, height: h),
                  content: nil, separator: nil, visibility: v, percent: v == .entire ? 100 : 50)
    }

    @Test func boxesLabelsAndCuts() {
        // Viewport 200 × 200 at offset 50: 20 columns × 10 lines.
        let layout = DocumentLayout(document: "d", axis: .vertical, viewport: Size(width: 200, height: 200), offset: 50,
                                    contentSize: Size(width: 200, height: 400), rows: [
                                        row("a", 0, 100, .partial),          // lines -3..2 → cut at the top
                                        row("b", 100, 40),                   // lines 3..4 → label in the border
                                        row("card", 140, 100, .partial),     // lines 5..9 (a stack: label in the border)
                                        row("in", 160, 40, x: 20, w: 100, .entire, parent: "card"),
                                        row("c", 240, 100, .partial),        // starts at line 10 → not in the picture
                                        row("gone", 340, 60, .offscreen),
                                    ])
        let lines = Drawing.lines(layout)
        #expect(lines == [
            "viewport 200x200 at offset 50; 1 column = 10 pt, 1 line = 20 pt",
            "|a                 |",
            "|                  |",
            "+------------------+",
            "+b-----------------+",
            "+------------------+",
            "+card--------------+",
            "| +in------+       |",
            "| +--------+       |",
            "|                  |",
            "+------------------+",
        ], Comment(rawValue: "\n" + lines.joined(separator: "\n")))
    }

    @Test func bigViewportsScaleDown() {
        #expect(Drawing.scale(for: Size(width: 390, height: 844)) == Drawing.Scale(x: 10, y: 20))
        #expect(Drawing.scale(for: Size(width: 5000, height: 100)) == Drawing.Scale(x: 40, y: 80))
        #expect(Drawing.scale(for: Size(width: 1e300, height: 1e300)).x.isFinite)
    }

    @Test func svgEscapesAndOutlinesTheViewport() {
        let layout = DocumentLayout(document: "d<&>", axis: .vertical, viewport: Size(width: 100, height: 50), offset: 10,
                                    contentSize: Size(width: 100, height: 200), rows: [row("a\"b", 0, 30)])
        let svg = SVGPicture.render(layout, document: Document(name: "d"))
        #expect(svg.contains("<title>d&lt;&amp;&gt;</title>"))
        #expect(svg.contains(">a&quot;b</text>"))
        #expect(svg.contains("<rect x=\"0\" y=\"10\" width=\"100\" height=\"50\" fill=\"none\" stroke=\"#E02020\""))
    }
}

@Suite struct LineDiffTests {
    @Test func showsRemovedThenAddedLinesWithContext() {
        let diff = LineDiff.unified(expected: "a\nb\nc\nd", actual: "a\nB\nc\nd\ne", name: "x")
        #expect(diff == "--- x (expected)\n+++ x (actual)\n a\n-b\n+B\n c\n d\n+e")
    }
}

@Suite struct DrawingExtremeTests {
    @Test func farAwayAndNonFiniteFramesDoNotTrap() {
        let rows = [
            RowLayout(id: "far", parent: nil, index: 0, type: "view", hidden: false, frame: Rect(x: -1e300, y: -1e300, width: 1e300 * 3, height: 1e300 * 3),
                      content: nil, separator: nil, visibility: .partial, percent: 1),
            RowLayout(id: "nan", parent: nil, index: 1, type: "view", hidden: false, frame: Rect(x: .nan, y: .infinity, width: .nan, height: 1),
                      content: nil, separator: nil, visibility: .partial, percent: 1),
        ]
        let layout = DocumentLayout(document: "d", axis: .vertical, viewport: Size(width: 100, height: 40), offset: 1e300,
                                    contentSize: Size(width: 100, height: 1e300), rows: rows)
        let lines = Drawing.lines(layout)
        #expect(lines.count == 3)
        #expect(lines[1] == "far")   // cut on every side: no border at all
    }
}
