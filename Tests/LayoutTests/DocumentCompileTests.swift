import Testing
@testable import Layout
import StackDocTestSupport

/// SPEC §2.3: the document compiled onto CSS flexbox. Expected frames are worked out by hand from
/// CSS; the ones marked "Chromium-checked" were also confirmed with headless Chromium through
/// scripts/doc_chromium_frames.py on scripts/oracle/document-cases.json (case name in brackets).
@Suite("Document layout: compile onto flex (SPEC §2.3)", .offThePool)
struct DocumentCompileTests {
    typealias F = DocFixture

    /// Chromium-checked [basic]: default insets 12,15,12,15; fixed, fit + align center, margins.
    @Test func leafRowsFixedFitAlignAndMargin() throws {
        let doc = try F.make([
            F.leaf("a", .fixed(100)),
            F.leaf("b", content: Size(width: 200, height: 50), align: .center),
            F.leaf("c", content: Size(width: 0, height: 20), margin: Edges(top: 10, left: 20, bottom: 5, right: 20)),
        ])
        let l = doc.layout()
        // a: 100 + 12 + 12 high, stretched to the viewport width.
        #expect(l.frame("a") == R(0, 0, 390, 124))
        #expect(l.at("a").content == R(15, 12, 360, 100))
        // b: not stretched → 200 + 15 + 15 wide, centred: (390 − 230) / 2 = 80.
        #expect(l.frame("b") == R(80, 124, 230, 74))
        #expect(l.at("b").content == R(95, 136, 200, 50))
        // c: margins 10 above, 20 either side; stretched inside the margins.
        #expect(l.frame("c") == R(20, 208, 350, 44))
        #expect(l.at("c").content == R(35, 220, 320, 20))
        // Content shorter than the viewport: the root's min-height is the viewport.
        #expect(l.contentSize == Size(width: 390, height: 844))
        #expect(l.rows.map(\.id) == ["a", "b", "c"])
        #expect(l.rows.map(\.index) == [0, 1, 2])
        #expect(l.rows.allSatisfy { $0.parent == nil })
    }

    @Test func contentLongerThanViewportSetsContentSize() throws {
        let rows = (0..<10).map { F.leaf("r\($0)", .fixed(100)) }
        let l = try F.make(rows).layout()
        // 10 × (100 + 24) = 1240 > 844.
        #expect(l.contentSize == Size(width: 390, height: 1240))
        #expect(l.frame("r9") == R(0, 1116, 390, 124))
    }

    /// Defaults are live: rows without own insets follow a changed default, rows with own keep theirs.
    @Test func defaultInsetsAreLive() throws {
        var doc = try F.make([F.leaf("a", .fixed(10)), F.leaf("b", .fixed(10), insets: Edges(all: 1))])
        doc.settings.defaults.insets = Edges(top: 5, left: 6, bottom: 7, right: 8)
        let l = doc.layout()
        #expect(l.frame("a") == R(0, 0, 390, 22))
        #expect(l.at("a").content == R(6, 5, 376, 10))
        #expect(l.frame("b") == R(0, 22, 390, 12))
        #expect(l.at("b").content == R(1, 23, 388, 10))
    }

    /// Chromium-checked [justifyEndPadded]: padding, spacing, a hidden row takes no gap, justify end.
    @Test func paddingSpacingHiddenRowAndJustifyEnd() throws {
        var s = F.bare(viewport: Size(width: 100, height: 200))
        s.padding = Edges(top: 10, left: 5, bottom: 20, right: 5)
        s.spacing = 4
        s.justify = .end
        let l = try F.make(s, [F.leaf("a", .fixed(30)), F.leaf("h", .fixed(30), hidden: true), F.leaf("b", .fixed(50))]).layout()
        // Content box 170 high; rows 30 + 4 + 50 = 84 (one gap: the hidden row has none); free 86.
        #expect(l.frame("a") == R(5, 96, 90, 30))
        #expect(l.frame("h") == nil)
        #expect(l.frame("b") == R(5, 130, 90, 50))
    }

    /// Chromium-checked [spacingHidden]: hidden rows first, between and last take no gap.
    @Test func spacingSkipsHiddenRowsAtEveryPlace() throws {
        var s = F.bare(viewport: Size(width: 100, height: 100))
        s.spacing = 10
        let l = try F.make(s, [F.leaf("h0", .fixed(5), hidden: true), F.leaf("a", .fixed(10)),
                               F.leaf("h1", .fixed(5), hidden: true), F.leaf("b", .fixed(20)),
                               F.leaf("h2", .fixed(5), hidden: true)]).layout()
        #expect(l.frame("a") == R(0, 0, 100, 10))
        #expect(l.frame("b") == R(0, 20, 100, 20))
    }

    /// Justify applies when the content is shorter than the viewport (free space = 200 − 80 = 120).
    /// spaceEvenly and spaceAround are Chromium-checked [justifyEvenly, justifyAround].
    @Test(arguments: [
        (Justify.start, 0.0, 30.0), (.end, 120, 150), (.center, 60, 90),
        (.spaceBetween, 0, 150), (.spaceAround, 30, 120), (.spaceEvenly, 40, 110),
    ])
    func justifyWhenContentIsShort(justify: Justify, aY: Double, bY: Double) throws {
        var s = F.bare(viewport: Size(width: 100, height: 200))
        s.justify = justify
        let l = try F.make(s, [F.leaf("a", .fixed(30)), F.leaf("b", .fixed(50))]).layout()
        #expect(l.frame("a") == R(0, aY, 100, 30))
        #expect(l.frame("b") == R(0, bY, 100, 50))
        #expect(l.contentSize == Size(width: 100, height: 200))
    }

    @Test(arguments: Justify.allCases)
    func justifyHasNoEffectWhenContentIsLonger(justify: Justify) throws {
        var s = F.bare(viewport: Size(width: 100, height: 200))
        s.justify = justify
        let l = try F.make(s, [F.leaf("a", .fixed(150)), F.leaf("b", .fixed(150))]).layout()
        #expect(l.frame("a") == R(0, 0, 100, 150))
        #expect(l.frame("b") == R(0, 150, 100, 150))
    }

    /// Chromium-checked [growFill]: grow shares the viewport's free space (root min-height).
    @Test func growFillsTheViewport() throws {
        var s = F.bare(viewport: Size(width: 100, height: 200))
        s.spacing = 10
        let l = try F.make(s, [F.leaf("a", .fixed(30)), F.leaf("g", .fixed(10), grow: 1),
                               F.leaf("b", .fixed(20), grow: 3)]).layout()
        // Free 200 − 80 = 120: g gets 30, b gets 90.
        #expect(l.frame("g") == R(0, 40, 100, 40))
        #expect(l.frame("b") == R(0, 90, 100, 110))
    }

    /// Chromium-checked [docAlignEnd]: document align (not stretch) sizes rows by content;
    /// alignSelf overrides it.
    @Test func documentAlignAndAlignSelf() throws {
        var s = F.bare(viewport: Size(width: 100, height: 200))
        s.align = .end
        let l = try F.make(s, [
            F.leaf("a", .fixed(10), content: Size(width: 30, height: 0)),
            F.leaf("b", .fixed(10), content: Size(width: 30, height: 0), align: .start),
            F.leaf("c", .fixed(10), content: Size(width: 30, height: 0), align: .stretch),
            F.leaf("d", .fixed(10), content: Size(width: 30, height: 0), insets: Edges(all: 2), align: .center),
        ]).layout()
        #expect(l.frame("a") == R(70, 0, 30, 10))
        #expect(l.frame("b") == R(0, 10, 30, 10))
        #expect(l.frame("c") == R(0, 20, 100, 10))
        // 30 + 2 + 2 wide, 10 + 2 + 2 high, centred: (100 − 34) / 2 = 33.
        #expect(l.frame("d") == R(33, 30, 34, 14))
        #expect(l.at("d").content == R(35, 32, 30, 10))
    }

    /// Chromium-checked [negmargin]: a negative margin widens a stretched row past the viewport.
    @Test func negativeMarginStretchesPastTheEdge() throws {
        let s = F.bare(viewport: Size(width: 100, height: 200))
        let l = try F.make(s, [F.leaf("a", .fixed(180)),
                               F.leaf("b", .fixed(50), margin: Edges(top: 0, left: -50, bottom: 0, right: 0))]).layout()
        #expect(l.frame("b") == R(-50, 180, 150, 50))
        #expect(l.contentSize == Size(width: 100, height: 230))
    }

    /// Chromium-checked [stackFitAlign]: a fit stack is sized by its rows (+ its insets, spacing).
    @Test func fitStackSizedByItsRows() throws {
        var s = F.bare(viewport: Size(width: 300, height: 400))
        s.align = .center
        let l = try F.make(s, [
            F.stack("S", .horizontal, align: .start, spacing: 6, insets: Edges(top: 2, left: 3, bottom: 4, right: 5), [
                F.leaf("p", content: Size(width: 40, height: 10)),
                F.leaf("q", content: Size(width: 60, height: 25)),
            ]),
        ]).layout()
        #expect(l.frame("S") == R(93, 0, 114, 31))
        #expect(l.at("S").content == R(96, 2, 106, 25))
        #expect(l.frame("p") == R(96, 2, 40, 10))
        #expect(l.frame("q") == R(142, 2, 60, 25))
        #expect(l.at("p").parent == "S")
        #expect(l.at("q").index == 1)
    }

    /// Chromium-checked [fixedStack].
    @Test func fixedStackMainSizeIsNPlusInsets() throws {
        let l = try F.make(F.bare(viewport: Size(width: 100, height: 200)), [
            F.stack("S", .vertical, size: .fixed(50), insets: Edges(top: 3, left: 0, bottom: 7, right: 0), [F.leaf("x", .fixed(10))]),
        ]).layout()
        #expect(l.frame("S") == R(0, 0, 100, 60))
        #expect(l.frame("x") == R(0, 3, 100, 10))
    }

    /// Chromium-checked [nest3v]: three levels, spaceBetween + center, alignSelf stretch +
    /// justify end + spacing with a hidden last row, grow + align end + alignSelf center.
    @Test func nestingThreeDeepVertical() throws {
        let doc = try F.threeDeepNested()
        let l = doc.layout()
        let expected: [(RowID, Rect?)] = [
            ("S1", R(0, 0, 400, 110)),
            ("x1", R(5, 45, 50, 20)),       // centred in 100: (100 − 20) / 2 + 5
            ("S2", R(92, 5, 206, 100)),     // free 390 − 336 = 54 → +27 per gap
            ("y1", R(94, 50, 30, 10)),      // justify end: 96 − 52 = 44 free
            ("S3", R(94, 62, 200, 40)),
            ("z1", R(94, 94, 170, 8)),      // grows by 200 − 80 = 120; aligned to the end
            ("z2", R(264, 76, 30, 12)),     // centred: (40 − 12) / 2
            ("y2", nil),
            ("x2", R(335, 5, 60, 100)),
        ]
        #expect(l.rows.map(\.id) == expected.map(\.0))
        for (id, frame) in expected { #expect(l.frame(id) == frame, "\(id)") }
        #expect(l.at("S3").parent == "S2")
        #expect(l.at("z2").parent == "S3")
        #expect(l.at("z2").index == 1)
        #expect(l.at("y2").index == 2)
        #expect(l.contentSize == Size(width: 400, height: 600))
    }

    /// Chromium-checked [nest3h]: horizontal document, padding + spacing, grow at the root,
    /// justify center + align end in a vertical stack, weighted shrink + align center three deep.
    @Test func nestingThreeDeepHorizontal() throws {
        var s = F.bare(axis: .horizontal, viewport: Size(width: 300, height: 200))
        s.padding = Edges(all: 10)
        s.spacing = 5
        let doc = try F.make(s, [
            F.leaf("A", .fixed(40)),
            F.stack("V", .vertical, size: .fixed(120), justify: .center, align: .end, spacing: 4, [
                F.leaf("v1", .fixed(30), content: Size(width: 50, height: 0)),
                F.stack("H", .horizontal, justify: .spaceEvenly, align: .center, alignSelf: .stretch, [
                    F.leaf("h1", .fixed(100), content: Size(width: 0, height: 20), shrink: 1),
                    F.leaf("h2", .fixed(50), content: Size(width: 0, height: 10), shrink: 2),
                    F.leaf("h3", .fixed(20), content: Size(width: 0, height: 30)),
                ]),
            ]),
            F.leaf("B", .fixed(20), grow: 1),
        ])
        let l = doc.layout()
        let expected: [(RowID, Rect)] = [
            ("A", R(10, 10, 40, 180)),
            ("V", R(55, 10, 120, 180)),
            ("v1", R(125, 68, 50, 30)),     // (180 − 64) / 2 = 58 down; aligned to the end
            ("H", R(55, 102, 120, 30)),
            ("h1", R(55, 107, 75, 20)),     // overflow 50 split 100 : 100 (scaled shrink)
            ("h2", R(130, 112, 25, 10)),
            ("h3", R(155, 102, 20, 30)),
            ("B", R(180, 10, 110, 180)),    // grows by 300 − 20 − 190 = 90
        ]
        for (id, frame) in expected { #expect(l.frame(id) == frame, "\(id)") }
        #expect(l.contentSize == Size(width: 300, height: 200))
    }

    /// Chromium-checked [horiz]: horizontal document, default insets, content wider than the viewport.
    @Test func horizontalDocument() throws {
        let l = try F.make(DocumentSettings(axis: .horizontal, viewport: Size(width: 300, height: 200)), [
            F.leaf("a", .fixed(100)),
            F.leaf("b", content: Size(width: 40, height: 60), align: .end),
            F.leaf("c", .fixed(200)),
        ]).layout()
        #expect(l.frame("a") == R(0, 0, 130, 200))
        #expect(l.at("a").content == R(15, 12, 100, 176))
        #expect(l.frame("b") == R(130, 116, 70, 84))
        #expect(l.frame("c") == R(200, 0, 230, 200))
        #expect(l.contentSize == Size(width: 430, height: 200))
        #expect(l.maxOffset == 130)
    }

    /// Hidden rows and everything under them have no frames; `hidden` is the row's own flag.
    @Test func hiddenStackHidesItsSubtree() throws {
        let l = try F.make(F.bare(viewport: Size(width: 100, height: 100)), [
            F.stack("S", .vertical, hidden: true, [F.stack("T", .vertical, [F.leaf("x", .fixed(10))])]),
            F.leaf("a", .fixed(10)),
        ]).layout()
        for id in ["S", "T", "x"] {
            let r = l.at(id)
            #expect(r.frame == nil && r.content == nil && r.separator == nil, "\(id)")
            #expect(r.visibility == .hidden && r.percent == 0, "\(id)")
        }
        #expect(l.at("S").hidden)
        #expect(!l.at("T").hidden && !l.at("x").hidden)
        #expect(l.frame("a") == R(0, 0, 100, 10))
    }

    /// Deep nesting is laid out without recursion limits: 400 stacks, each with 1 point of inset.
    @Test func deepNestingDoesNotOverflowTheStack() throws {
        var doc = Document(name: "deep", settings: F.bare(viewport: Size(width: 1000, height: 100)))
        var parent: RowID? = nil
        for d in 0..<400 {
            let id = "s\(d)"
            try doc.insertRow(id, config: RowConfig(insets: Edges(all: 1), stack: StackSettings()), parent: parent, at: 0)
            parent = id
        }
        try doc.insertRow("leaf", config: RowConfig(size: .fixed(10)), parent: parent, at: 0)
        let l = doc.layout()
        #expect(l.rows.count == 401)
        #expect(l.frame("s0") == R(0, 0, 1000, 810))
        #expect(l.frame("s399") == R(399, 399, 202, 12))
        #expect(l.frame("leaf") == R(400, 400, 200, 10))
        #expect(l.at("leaf").parent == "s399")
    }

    /// `index` counts every row of the stack, hidden ones included (SPEC §4.1).
    @Test func indexCountsHiddenRows() throws {
        let l = try F.make([F.leaf("a", hidden: true), F.leaf("b"), F.stack("S", .vertical, [F.leaf("h", hidden: true), F.leaf("c")])]).layout()
        #expect(l.rows.map(\.index) == [0, 1, 2, 0, 1])
        #expect(l.rows.map(\.parent) == [nil, nil, nil, "S", "S"])
    }

    @Test func emptyDocument() throws {
        let l = Document(name: "e").layout()
        #expect(l.rows.isEmpty)
        #expect(l.contentSize == Size(width: 390, height: 844))
        #expect(l.document == "e" && l.axis == .vertical && l.viewport == Size(width: 390, height: 844))
    }
}
