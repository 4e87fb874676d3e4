import Testing
import Layout
@testable import repl
@testable import StackDocScript
import StackDocTestSupport
import Store

@Suite(.offThePool) struct DrawingTests {
    func row(_ id: String, _ y: Double, _ h: Double, x: Double = 0, w: Double = 200, _ v: Visibility = .entire, parent: String? = nil) -> RowLayout {
        RowLayout(id: id, parent: parent, index: 0, type: "view", hidden: false, frame: Rect(x: x, y: y, width: w, height: h),
                  content: nil, separator: nil, visibility: v, percent: v == .entire ? 100 : 50)
    }

    @Test func boxesLabelsAndCuts() throws {
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
        let lines = try Drawing.lines(layout)
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

    /// Issue 13 item 24: the default fits an 80-column terminal (and 200 lines) with whole
    /// points per column, never finer than 10.
    @Test func theDefaultFitsAnEightyColumnTerminal() throws {
        #expect(Drawing.scale(for: Size(width: 390, height: 844)) == Drawing.Scale(x: 10, y: 20))
        #expect(Drawing.scale(for: Size(width: 800, height: 600)) == Drawing.Scale(x: 10, y: 20))
        #expect(Drawing.scale(for: Size(width: 1024, height: 768)) == Drawing.Scale(x: 13, y: 26))
        #expect(Drawing.scale(for: Size(width: 5000, height: 100)) == Drawing.Scale(x: 63, y: 126))
        #expect(Drawing.scale(for: Size(width: 100, height: 9000)) == Drawing.Scale(x: 23, y: 46))
        #expect(Drawing.scale(for: Size(width: 1e300, height: 1e300)).x.isFinite)
        for (w, h) in [(801.0, 20.0), (1024, 768), (1366, 1024), (2560, 1440), (12345, 50), (300, 20000)] {
            let layout = DocumentLayout(document: "d", axis: .vertical, viewport: Size(width: w, height: h), offset: 0,
                                        contentSize: Size(width: w, height: h), rows: [row("a", 0, h, w: w)])
            let lines = try Drawing.lines(layout)
            #expect(lines.dropFirst().allSatisfy { $0.count <= 80 }, "\(w)x\(h): \(lines.dropFirst().map(\.count).max() ?? 0) columns")
            if h / 2 <= w * Double(Drawing.maxCells) / 80 {   // the width, not the 200 lines, sets the scale
                #expect(lines.dropFirst().first?.count ?? 0 >= 70, "\(w)x\(h): the picture uses the terminal's width")
            }
            #expect(lines.count - 1 <= Drawing.maxCells)
        }
    }

    /// `--width N` makes the viewport N columns wide; `--scale S` one column S points; a
    /// picture of more than 200 columns or lines is refused with the numbers.
    @Test func widthAndScaleOptions() throws {
        let layout = DocumentLayout(document: "d", axis: .vertical, viewport: Size(width: 400, height: 200), offset: 0,
                                    contentSize: Size(width: 400, height: 200), rows: [row("a", 0, 200, w: 400)])
        let wide = try Drawing.lines(layout, scale: .width(20))
        #expect(wide.first == "viewport 400x200 at offset 0; 1 column = 20 pt, 1 line = 40 pt")
        #expect(wide.dropFirst().map(\.count) == [20, 20, 20, 20, 20])
        let fine = try Drawing.lines(layout, scale: .points(5))
        #expect(fine.first == "viewport 400x200 at offset 0; 1 column = 5 pt, 1 line = 10 pt")
        #expect(fine.count == 1 + 20 && fine[1].count == 80)
        #expect(try Drawing.lines(layout, scale: .width(33)).first == "viewport 400x200 at offset 0; 1 column = 12.12 pt, 1 line = 24.24 pt")
        #expect(throws: StackDocError(.badValue(path: "draw --scale 1", problem: "the 400x200 viewport would be 400 columns by 100 lines; a picture has at most 200 of each"))) {
            try Drawing.lines(layout, scale: .points(1))
        }
        let tall = DocumentLayout(document: "d", axis: .vertical, viewport: Size(width: 10, height: 4000), offset: 0,
                                  contentSize: Size(width: 10, height: 4000), rows: [])
        #expect(throws: StackDocError.self) { try Drawing.lines(tall, scale: .width(10)) }   // 200 + lines
        for bad in ["draw --width 0", "draw --width 201", "draw --width 2.5", "draw --scale 0", "draw --scale -1", "draw --scale", "draw --width 10 --scale 2"] {
            #expect(throws: CommandError.self, "\(bad)") { try Parser.parse(bad) }
        }
        #expect(try Parser.parse("draw --width 40 --at v1") == .at(.draw(.width(40)), .mark("v1")))
    }

    /// Issue 13 item 24: a stack's id stays readable when its rows share its top line (no
    /// inset) or cover its inside, and when the viewport cuts it and its first row at the top.
    /// Ids of different rows on one line are separate words (a blank, not a `-`, between them:
    /// ids may hold `-`).
    @Test func nestedStacksKeepTheirIds() throws {
        // Viewport 200 × 200: 20 columns × 10 lines. `outer` holds `inner` at its very top-left,
        // which holds `x` (thin: its id goes in its border too) at the same corner.
        let layout = DocumentLayout(document: "d", axis: .vertical, viewport: Size(width: 200, height: 200), offset: 0,
                                    contentSize: Size(width: 200, height: 200), rows: [
                                        row("outer", 0, 200),
                                        row("inner", 0, 120, w: 160, parent: "outer"),
                                        row("x", 0, 40, w: 160, parent: "inner"),
                                        row("y", 40, 80, w: 160, parent: "inner"),
                                    ])
        let lines = try Drawing.lines(layout)
        #expect(lines == [
            "viewport 200x200 at offset 0; 1 column = 10 pt, 1 line = 20 pt",
            "+outer inner x-+---+",
            "+--------------+   |",
            "+--------------+   |",
            "|y             |   |",
            "|              |   |",
            "+--------------+   |",
            "|                  |",
            "|                  |",
            "|                  |",
            "+------------------+",
        ], Comment(rawValue: "\n" + lines.joined(separator: "\n")))
        // Scrolled so that the stack and its first row are cut at the top: both ids show.
        let cut = DocumentLayout(document: "d", axis: .vertical, viewport: Size(width: 200, height: 100), offset: 50,
                                 contentSize: Size(width: 200, height: 300), rows: [
                                     row("card", 0, 200, .partial),
                                     row("t1", 0, 100, x: 20, w: 160, .partial, parent: "card"),
                                 ])
        let cutLines = try Drawing.lines(cut)
        #expect(cutLines.dropFirst().first == "|card t1         | |", Comment(rawValue: "\n" + cutLines.joined(separator: "\n")))
    }

    /// Issue 32: when ids are cut to fit their boxes, the picture ends with one line naming a
    /// `draw --scale` that shows them whole (checked by drawing at it), or that gives more room
    /// when a box is too narrow for any scale; a picture that cuts none has no such line.
    @Test func cutIdsEndWithAScaleHint() throws {
        let dir = try Scratch.directory("draw")
        defer { Scratch.remove(dir) }
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        // Three 40-point rows across: 4 columns each at 10 points, 8 at 5.
        for line in ["new s horizontal viewport 300 100", "defaults insets 0", "add first second third fixed 40"] {
            _ = try session.run(try #require(try Parser.parse(line)))
        }
        let lines = try session.drawing()
        #expect(lines.dropFirst().prefix(2) == ["+--++--++--+", "|fi||se||th|"], Comment(rawValue: "\n" + lines.joined(separator: "\n")))
        #expect(lines.last == "(ids cut to fit: 'draw --scale 5' shows them whole)")
        let finer = try session.drawing(.points(5))
        #expect(finer.dropFirst().prefix(2) == ["+------++------++------+", "|first ||second||third |"])
        #expect(finer.last?.hasPrefix("(") == false && finer.count == 1 + 10)
        #expect(try session.drawing(.points(7)).last == "(ids cut to fit: 'draw --scale 5' shows them whole)")
        // A 2-point row has no room at any scale allowed: the hint names the scale that shows the others.
        _ = try session.run(try #require(try Parser.parse("add x fixed 2")))
        #expect(try session.drawing().last == "(ids cut to fit: 'draw --scale 5' gives more room)")
        #expect(try session.drawing(.points(5)).last == "(ids cut to fit, even at the finest 'draw --scale'; 'rows' lists them whole)")
    }

    @Test func svgEscapesAndOutlinesTheViewport() {
        let layout = DocumentLayout(document: "d<&>", axis: .vertical, viewport: Size(width: 100, height: 50), offset: 10,
                                    contentSize: Size(width: 100, height: 200), rows: [row("a\"b", 0, 30)])
        let svg = SVGPicture.render(layout, document: Document(name: "d"))
        #expect(svg.contains("<title>d&lt;&amp;&gt;</title>"))
        #expect(svg.contains(">a&quot;b</text>"))
        #expect(svg.contains("<rect id=\"viewport\" x=\"0\" y=\"10\" width=\"100\" height=\"50\" fill=\"none\" stroke=\"#E02020\""))
    }
}

@Suite(.offThePool) struct LineDiffTests {
    @Test func showsRemovedThenAddedLinesWithContext() {
        let diff = LineDiff.unified(expected: "a\nb\nc\nd", actual: "a\nB\nc\nd\ne", name: "x")
        #expect(diff == "--- x (expected)\n+++ x (actual)\n a\n-b\n+B\n c\n d\n+e")
    }
}

@Suite(.offThePool) struct DrawingExtremeTests {
    @Test func farAwayAndNonFiniteFramesDoNotTrap() throws {
        let rows = [
            RowLayout(id: "far", parent: nil, index: 0, type: "view", hidden: false, frame: Rect(x: -1e300, y: -1e300, width: 1e300 * 3, height: 1e300 * 3),
                      content: nil, separator: nil, visibility: .partial, percent: 1),
            RowLayout(id: "nan", parent: nil, index: 1, type: "view", hidden: false, frame: Rect(x: .nan, y: .infinity, width: .nan, height: 1),
                      content: nil, separator: nil, visibility: .partial, percent: 1),
        ]
        let layout = DocumentLayout(document: "d", axis: .vertical, viewport: Size(width: 100, height: 40), offset: 1e300,
                                    contentSize: Size(width: 100, height: 1e300), rows: rows)
        let lines = try Drawing.lines(layout)
        #expect(lines.count == 3)
        #expect(lines[1] == "far")   // cut on every side: no border at all
    }
    /// Issue 14: a text row shows its wrapped lines as `~` (the last one ragged) and its line
    /// count, an aspect row its ratio, a sticky row `[sticky]` (`[stuck]` while it is moved);
    /// a tag that does not fit its box uncut is left out (the id alone).
    @Test func rowKindsAreShown() throws {
        let dir = try Scratch.directory("draw")
        defer { Scratch.remove(dir) }
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        // 130 glyphs of 8 × 20 at 300 points: 37 a line, 4 lines (37, 37, 37, 19), 80 + 40 tall.
        for line in ["new d viewport 300 260", "defaults insets 0 0 0 0", "add caption text 130 insets 20 0 20 0",
                     "add photo aspect 3 1", "add hdr fixed 20 sticky"] {
            _ = try session.run(try #require(try Parser.parse(line)))
        }
        let lines = try session.drawing()
        #expect(lines == [
            "viewport 300x260 at offset 0; 1 column = 10 pt, 1 line = 20 pt",
            "+----------------------------+",
            "|caption [4 lines]~~~~~~~~~~~|",
            "|~~~~~~~~~~~~~~~~~~~~~~~~~~~~|",
            "|~~~~~~~~~~~~~~~~~~~~~~~~~~~~|",
            "|~~~~~~~~~~~~~~              |",
            "+----------------------------+",
            "+----------------------------+",
            "|photo [3:1]                 |",
            "|                            |",
            "|                            |",
            "+----------------------------+",
            "+hdr [sticky]----------------+",
            "",
        ], Comment(rawValue: "\n" + lines.joined(separator: "\n")))
        // Narrow boxes: the ids alone.
        #expect(try session.drawing(.width(10)).dropFirst().prefix(3) == ["+caption-+", "+--------+", "+photo---+"])
        // A sticky header stuck at the top of its scrolled section.
        for line in ["new s viewport 200 100", "defaults insets 0 0 0 0", "add sec stack vertical", "add h fixed 20 sticky in sec",
                     "add a b c fixed 50 in sec", "scroll 60"] {
            _ = try session.run(try #require(try Parser.parse(line)))
        }
        #expect(try session.drawing().dropFirst().first == "+sec h [stuck]-----+")
    }
}
