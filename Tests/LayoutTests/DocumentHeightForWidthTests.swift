import Testing
@testable import Layout
import StackDocTestSupport

/// Issue 14, items 2 and 3: text rows (height for width) and aspect ratios. The expected frames
/// are the ones headless Chromium gives the same documents (the cases of
/// scripts/oracle/height-for-width-cases.json, named in brackets, which
/// `DocumentChromiumTests.heightForWidthCasesMatchChromium` checks in full).
@Suite("Document layout: text rows and aspect ratios", .offThePool)
struct DocumentHeightForWidthTests {
    typealias F = DocFixture

    static func text(_ id: RowID, _ count: Int, char: Double = 8, line: Double = 20, size: RowSize = .fit,
                     insets: Edges? = nil, shrink: Double = 0, align: AlignSelf = .auto) -> RowTree {
        RowTree(id: id, config: RowConfig(size: size, insets: insets, shrink: shrink, alignSelf: align,
                                          text: TextRun(count: count, glyphWidth: char, lineHeight: line)))
    }

    static func aspect(_ id: RowID, _ w: Double, _ h: Double, size: RowSize = .fit, content: Size = .zero,
                       align: AlignSelf = .auto, minMain: Double? = nil, maxMain: Double? = nil,
                       maxCross: Double? = nil) -> RowTree {
        RowTree(id: id, config: RowConfig(size: size, content: content, alignSelf: align, minMain: minMain,
                                          maxMain: maxMain, maxCross: maxCross, aspect: Size(width: w, height: h)))
    }

    /// The fitted height rule on its own.
    @Test func fittedHeight() {
        let t = TextRun(count: 20)
        #expect(t.height(atWidth: 70) == 60)     // 8 a line, 3 lines
        #expect(t.height(atWidth: 160) == 20)    // one line exactly
        #expect(t.height(atWidth: 159.99) == 40) // 19 + 1
        #expect(t.height(atWidth: 3) == 400)     // narrower than a glyph: one a line
        #expect(t.height(atWidth: 0) == 400)
        #expect(TextRun(count: 0).height(atWidth: 100) == 0)
    }

    /// [textNarrow] Content narrower than one glyph: one glyph a line, the row overflows its
    /// content box sideways, not its height.
    @Test func contentNarrowerThanOneGlyph() throws {
        let doc = try F.make(DocumentSettings(viewport: Size(width: 40, height: 300)), [
            Self.text("t", 3, char: 13),
            Self.text("u", 5, char: 10, line: 16, insets: .zero),
        ])
        let l = doc.layout()
        #expect(l.frame("t") == R(0, 0, 40, 84))   // content 10 < 13: 3 lines of 20, + 24
        #expect(l.frame("u") == R(0, 84, 40, 32))  // content 40: 4 a line, 2 lines of 16
    }

    /// [textZero] No glyphs: the height is the insets; `fixed` still fixes it; in a horizontal
    /// stack it is as wide as its insets (none here) and stretched to its neighbour.
    @Test func noGlyphs() throws {
        let doc = try F.make(F.bare(viewport: Size(width: 390, height: 844)), [
            Self.text("z", 0),
            Self.text("z2", 0, size: .fixed(30)),
            F.stack("S", .horizontal, [Self.text("z3", 0), F.leaf("n", content: Size(width: 20, height: 10))]),
        ])
        let l = doc.layout()
        #expect(l.frame("z") == R(0, 0, 390, 0))
        #expect(l.frame("z2") == R(0, 0, 390, 30))
        #expect(l.frame("z3") == R(0, 30, 0, 10))
        #expect(l.frame("n") == R(0, 30, 20, 10))
    }

    /// [textAlignStart] A text row that is not stretched is fit-content wide: one line when it
    /// fits, else the available width (and wrapped there).
    @Test func fitContentWidth() throws {
        var s = DocumentSettings(viewport: Size(width: 100, height: 300))
        s.align = .start
        let doc = try F.make(s, [Self.text("long", 20), Self.text("short", 3)])
        let l = doc.layout()
        #expect(l.frame("long") == R(0, 0, 100, 84))
        #expect(l.frame("short") == R(0, 84, 54, 44))
    }

    /// [textHorizontalStack] A horizontal stack measures text rows by one line (flex base) and
    /// shrinks them no further than one glyph; their heights follow the widths they get.
    @Test func textInAHorizontalStack() throws {
        let doc = try F.make(F.bare(viewport: Size(width: 100, height: 300)), [
            F.stack("H", .horizontal, [Self.text("a", 20, shrink: 1), Self.text("b", 30, shrink: 1)]),
        ])
        let l = doc.layout()
        // Bases 160 and 240 shrink by 300 in proportion: 40 (5 a line, 4 lines) and 60 (7 a
        // line, 5 lines); both stretched to the taller.
        #expect(l.frame("a") == R(0, 0, 40, 100))
        #expect(l.frame("b") == R(40, 0, 60, 100))
        #expect(l.frame("H") == R(0, 0, 100, 100))
    }

    /// [textNested] Text in stretched stacks inside a horizontal stack inside a vertical one:
    /// each level's width decides the heights below it.
    @Test func textInNestedStacks() throws {
        let doc = try F.make(F.bare(viewport: Size(width: 200, height: 300)), [
            F.stack("V", .vertical, [
                F.stack("H", .horizontal, [
                    F.stack("V2", .vertical, grow: 1, shrink: 1, [Self.text("t1", 25)]),
                    Self.text("t2", 6),
                ]),
            ]),
        ])
        let l = doc.layout()
        // t2 keeps one line (48 wide); V2 shrinks from one line (200) to the rest, 152: t1
        // stretched to 152 holds 19 a line, 2 lines; t2 is stretched to the line's 40.
        #expect(l.frame("V2") == R(0, 0, 152, 40))
        #expect(l.frame("t1") == R(0, 0, 152, 40))
        #expect(l.frame("t2") == R(152, 0, 48, 40))
        #expect(l.frame("H") == R(0, 0, 200, 40))
    }

    /// [aspectVertical, aspectMinMax] Stretched: the width gives the height; the content keeps a
    /// minimum; `fixed` wins; `min`/`max` clamp; `max-cross` clamps the width first.
    @Test func aspectInAVerticalStack() throws {
        let doc = try F.make(DocumentSettings(viewport: Size(width: 390, height: 600)), [
            Self.aspect("a", 2, 1),
            Self.aspect("c", 4, 1, content: Size(width: 10, height: 200)),
            Self.aspect("d", 2, 1, size: .fixed(100)),
            Self.aspect("lo", 2, 1, minMain: 300),
            Self.aspect("hi", 2, 1, maxMain: 100),
            Self.aspect("mc", 2, 1, maxCross: 200),
        ])
        let l = doc.layout()
        #expect(l.frame("a") == R(0, 0, 390, 195))
        #expect(l.frame("c")?.height == 224)
        #expect(l.frame("d")?.height == 124)
        #expect(l.frame("lo")?.height == 300)
        #expect(l.frame("hi")?.height == 100)
        #expect(l.frame("mc")?.width == 200 && l.frame("mc")?.height == 100)
    }

    /// [aspectHorizontalStack] In a horizontal stack of indefinite height the width is the
    /// content's and the height follows it; in a `fixed` stack the height gives the width.
    @Test func aspectInAHorizontalStack() throws {
        let doc = try F.make(F.bare(viewport: Size(width: 390, height: 600)), [
            F.stack("H", .horizontal, [
                Self.aspect("a", 2, 1, content: Size(width: 40, height: 10)),
                F.leaf("b", content: Size(width: 70, height: 30)),
            ]),
            F.stack("F", .horizontal, size: .fixed(100), [Self.aspect("f", 2, 1)]),
        ])
        let l = doc.layout()
        #expect(l.frame("a") == R(0, 0, 40, 30))   // 40 wide, 20 by the ratio, stretched to 30
        #expect(l.frame("f") == R(0, 30, 200, 100))
    }

    /// Text and aspect ratios are leaf features with limits; a bad value changes nothing.
    @Test func validation() throws {
        #expect(throws: StackDocError.self) { try RowConfig().applying([.text(TextRun(count: -1))]) }
        #expect(throws: StackDocError.self) { try RowConfig().applying([.text(TextRun(count: 10_000_001))]) }
        #expect(throws: StackDocError.self) { try RowConfig().applying([.text(TextRun(count: 3, glyphWidth: 0))]) }
        #expect(throws: StackDocError.self) { try RowConfig().applying([.aspect(Size(width: 0, height: 1))]) }
        #expect(throws: StackDocError.self) { try RowConfig().applying([.text(TextRun(count: 3)), .aspect(Size(width: 1, height: 1))]) }
        #expect(throws: StackDocError.self) { try RowConfig().applying([.stack(.vertical), .text(TextRun(count: 3))]) }
        let c = try RowConfig().applying([.text(TextRun(count: 3)), .text(nil), .aspect(Size(width: 16, height: 9))])
        #expect(c.text == nil && c.aspect == Size(width: 16, height: 9))
        let doc = try F.make([F.leaf("a")])
        let error = try #require(throws: StackDocError.self) { try doc.plan(.set(id: "a", spec: [.text(TextRun(count: 2, lineHeight: -1))])) }
        #expect(error.message.contains("text.line"), "\(error.message)")

    }

    /// Saved format: written only when set, read back equal; bad members named by path.
    @Test func savedFormat() throws {
        let doc = try F.make([Self.text("t", 12, char: 7.5, line: 17), Self.aspect("p", 16, 9), F.leaf("plain")])
        let json = doc.exportJSON(pretty: false)
        #expect(json.contains(#""text":"12 char 7.5 line 17""#))
        #expect(json.contains(#""aspect":"16 9""#))
        let back = try Document(json: json)
        #expect(back.config(of: "t")?.text == TextRun(count: 12, glyphWidth: 7.5, lineHeight: 17))
        #expect(back.config(of: "plain")?.hasHeightForWidth == false)
        let problems = Document.importJSON(Array(#"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","text":"2.5"},{"id":"b","aspect":"0 1"},{"id":"c","text":"3 char 0"},{"id":"d","text":"3 line 5"}]}"#.utf8)).problems
        #expect(problems.contains { $0.hasPrefix("rows[0].text: expected 'N [char W] [line H]'") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("rows[1].aspect.width: must be 1/64") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("rows[2].text.char: must be 1/64") }, "\(problems)")
        #expect(problems.count == 3, "\(problems)")
    }

    /// The live layout stays incremental with text rows: an edit relays out its root row only,
    /// and a viewport width change rebuilds every root row; both equal a full layout.
    @Test func liveLayoutWithTextRows() throws {
        var doc = Document(name: "d", settings: DocumentSettings(viewport: Size(width: 390, height: 844)))
        try doc.apply(try doc.plan(.add(ids: (0..<300).map { "t\($0)" }, spec: [.text(TextRun(count: 70))], position: nil, parent: nil)))
        var live = LiveLayout(doc)
        #expect(live.isIncremental)
        #expect(live.layout() == doc.layout())
        for edit: Edit in [.set(id: "t10", spec: [.text(TextRun(count: 200))]), .viewport(Size(width: 200, height: 844)),
                           .set(id: "t20", spec: [.aspect(Size(width: 2, height: 1)), .text(nil)]),
                           .viewport(Size(width: 391.5, height: 600))] {
            let changes = try doc.plan(edit, live: live)
            try doc.apply(changes)
            _ = live.apply(changes, to: doc)
            #expect(live.isIncremental)
            #expect(live.layout() == doc.layout(), "\(edit)")
        }
        // 70 glyphs at a content width of 361.5: 45 a line, 2 lines.
        #expect(doc.layout().frame("t0")?.height == 64)
    }
}
