import Testing
@testable import Layout
import StackDocTestSupport

/// Issue 14: the row features of layout model II, each against CSS. Every expected frame here
/// was computed by headless Chromium through scripts/doc_chromium_frames.py on
/// scripts/oracle/row-feature-cases.json (case name in brackets).
@Suite("Document layout: row features of issue 14", .offThePool)
struct DocumentRowFeatureTests {
    typealias F = DocFixture

    /// [intrinsicStretch] The issue's example: a horizontal stack of stretched leaves is as tall
    /// as its tallest content (74) plus the leaves' and its own insets, not just the insets.
    @Test func stretchedLeavesMakeAHorizontalStackAsTallAsTheirContent() throws {
        let doc = try F.make(DocumentSettings(viewport: Size(width: 390, height: 600)), [
            F.stack("S", .horizontal, [
                F.leaf("a", content: Size(width: 130, height: 74)),
                F.leaf("b", content: Size(width: 100, height: 50)),
            ]),
        ])
        let l = doc.layout()
        #expect(l.frame("S") == R(0, 0, 390, 122))
        #expect(l.frame("a") == R(15, 12, 160, 98))
        #expect(l.frame("b") == R(175, 12, 130, 98))
    }

    /// [intrinsicShrink] The automatic minimum size follows the content: a `fit` leaf never
    /// shrinks below its content; a `fixed N` leaf shrinks down to min(N, content).
    @Test func shrinkStopsAtTheContent() throws {
        let doc = try F.make(F.bare(viewport: Size(width: 390, height: 600)), [
            F.stack("F", .vertical, size: .fixed(100), [
                F.leaf("f1", content: Size(width: 0, height: 80), shrink: 1),
                F.leaf("f2", content: Size(width: 0, height: 80), shrink: 1),
            ]),
            F.stack("X", .vertical, size: .fixed(100), [
                F.leaf("x1", .fixed(80), shrink: 1),
                F.leaf("x2", .fixed(80), content: Size(width: 0, height: 60), shrink: 1),
            ]),
            F.stack("H", .horizontal, align: .start, [
                F.stack("v", .vertical, [
                    F.leaf("v1", content: Size(width: 70, height: 10)),
                    F.leaf("v2", content: Size(width: 40, height: 10), align: .end),
                ]),
            ]),
        ])
        let l = doc.layout()
        #expect(l.frame("f1") == R(0, 0, 390, 80))
        #expect(l.frame("f2") == R(0, 80, 390, 80))
        #expect(l.frame("x1") == R(0, 100, 390, 40))
        #expect(l.frame("x2") == R(0, 140, 390, 60))
        // A fit-width vertical stack is as wide as its widest content.
        #expect(l.frame("v") == R(0, 200, 70, 20))
        #expect(l.frame("v1") == R(0, 200, 70, 10))
        #expect(l.frame("v2") == R(30, 210, 40, 10))
    }

    /// [minMax] `min`/`max` with grow, shrink and the automatic minimum size; min > max (min
    /// wins, as CSS resolves it); `min-cross`/`max-cross` with stretch; a `max` on a stack.
    @Test func minAndMaxSizes() throws {
        let doc = try F.make(F.bare(viewport: Size(width: 390, height: 600)), [
            F.stack("G", .vertical, size: .fixed(300), [
                F.leaf("g1", content: Size(width: 0, height: 50), grow: 1).with { $0.maxMain = 80 },
                F.leaf("g2", content: Size(width: 0, height: 50), grow: 1),
            ]),
            F.leaf("mm", .fixed(100)).with { $0.minMain = 60; $0.maxMain = 40 },
            F.stack("K", .vertical, size: .fixed(100), [
                F.leaf("k1", .fixed(80), shrink: 1).with { $0.minMain = 70 },
                F.leaf("k2", .fixed(80), shrink: 1),
            ]),
            F.stack("E", .vertical, size: .fixed(30), [
                F.leaf("e1", content: Size(width: 0, height: 100), shrink: 1).with { $0.maxMain = 50 },
            ]),
            F.stack("C", .horizontal, [
                F.leaf("c1", content: Size(width: 100, height: 40)).with { $0.minCross = 60 },
                F.leaf("c2", content: Size(width: 50, height: 20)).with { $0.maxCross = 10 },
                F.leaf("c3", content: Size(width: 50, height: 20), align: .start).with { $0.minCross = 30; $0.maxCross = 25 },
            ]),
            F.stack("N", .vertical, insets: Edges(top: 5, left: 0, bottom: 5, right: 0), [
                F.leaf("n1", .fixed(30)), F.leaf("n2", .fixed(30)),
            ]).with { $0.maxMain = 50 },
            F.leaf("W", .fixed(10)).with { $0.maxCross = 200; $0.minCross = 250 },
        ])
        let l = doc.layout()
        let expected: [(RowID, Rect)] = [
            ("G", R(0, 0, 390, 300)), ("g1", R(0, 0, 390, 80)), ("g2", R(0, 80, 390, 220)),
            ("mm", R(0, 300, 390, 60)),
            ("K", R(0, 360, 390, 100)), ("k1", R(0, 360, 390, 70)), ("k2", R(0, 430, 390, 30)),
            ("E", R(0, 460, 390, 30)), ("e1", R(0, 460, 390, 50)),
            ("C", R(0, 490, 390, 60)), ("c1", R(0, 490, 100, 60)), ("c2", R(100, 490, 50, 10)), ("c3", R(150, 490, 50, 30)),
            ("N", R(0, 550, 390, 50)), ("n1", R(0, 555, 390, 30)), ("n2", R(0, 585, 390, 30)),
            ("W", R(0, 600, 250, 10)),
        ]
        for (id, frame) in expected { #expect(l.frame(id) == frame, "\(id)") }
        #expect(l.contentSize == Size(width: 390, height: 610))
    }

    /// [minMaxHorizontal] The same limits in a horizontal parent are widths (main) and heights
    /// (cross).
    @Test func minAndMaxInAHorizontalParent() throws {
        let doc = try F.make(F.bare(axis: .horizontal, viewport: Size(width: 300, height: 200)), [
            F.leaf("h1", content: Size(width: 50, height: 0)).with { $0.minMain = 120; $0.maxCross = 150 },
            F.leaf("h2", .fixed(200), content: Size(width: 0, height: 40), align: .center).with { $0.maxMain = 90; $0.minCross = 50 },
            F.stack("h3", .vertical, [F.leaf("h31", content: Size(width: 80, height: 10))]).with { $0.maxMain = 60 },
        ])
        let l = doc.layout()
        #expect(l.frame("h1") == R(0, 0, 120, 150))
        #expect(l.frame("h2") == R(120, 75, 90, 50))
        #expect(l.frame("h3") == R(210, 0, 60, 200))
        #expect(l.frame("h31") == R(210, 0, 60, 10))
        #expect(l.contentSize == Size(width: 300, height: 200))
    }
}

/// The optional fields of issue 14 in the saved format: path-named messages, round trips, and
/// documents without them unchanged.
@Suite("Saved format: the row fields of issue 14", .offThePool)
struct RowFeatureFormatTests {
    @Test func badValuesAreNamedByPath() {
        let json = #"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","min":-1},{"id":"b","stack":{"rows":[{"id":"c","maxCross":"x"}]}},{"id":"e","max":2e9,"minCross":true}]}"#
        let (document, problems) = Document.importJSON(Array(json.utf8))
        #expect(document == nil)
        #expect(problems == [
            "rows[0].min: must be ≥ 0, got -1",
            "rows[1].stack.rows[0].maxCross: expected a number, got a string",
            "rows[2].max: must be ≤ 1000000000, got 2000000000",
            "rows[2].minCross: expected a number, got a boolean",
        ])
    }

    @Test func limitsRoundTripAndNullIsNone() throws {
        let json = #"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","min":10,"max":null,"minCross":0.5,"maxCross":300}]}"#
        let doc = try Document(json: json)
        let c = try #require(doc.config(of: "a"))
        #expect(c.minMain == 10 && c.maxMain == nil && c.minCross == 0.5 && c.maxCross == 300)
        let exported = doc.exportJSON(pretty: false)
        #expect(exported.contains(#""separator":{},"min":10,"minCross":0.5,"maxCross":300,"stack":null"#))
        #expect(try Document(json: exported) == doc)
    }

    @Test func rowsWithoutTheFieldsExportAsBefore() throws {
        let doc = try Document(json: #"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","size":{"fixed":3}}]}"#)
        let exported = doc.exportJSON(pretty: false)
        #expect(!exported.contains("min") && !exported.contains("max"))
        #expect(exported.contains(#""separator":{},"stack":null}"#))
    }
}

/// Colours (issue 14 item 6): stored and exported, no effect on layout.
@Suite("Row colours", .offThePool)
struct RowColourTests {
    @Test func coloursDoNotChangeTheLayout() throws {
        let json = #"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","size":{"fixed":40}},{"id":"s","stack":{"axis":"horizontal","rows":[{"id":"b","content":{"width":30,"height":20}}]}}]}"#
        let plain = try Document(json: json)
        var coloured = plain
        for id in ["a", "s", "b"] {
            var c = try #require(coloured.config(of: id))
            c.background = "#F2F2F7"
            c.highlight = "#D1D1D6"
            try coloured.apply([.updateRow(id: id, old: try #require(plain.config(of: id)), new: c)])
        }
        #expect(coloured != plain)
        #expect(coloured.layout() == plain.layout())
    }

    @Test func coloursAreValidatedStoredUpperCaseAndRoundTrip() throws {
        let bad = #"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","background":"red"},{"id":"b","highlight":7}]}"#
        #expect(Document.importJSON(Array(bad.utf8)).problems == [
            "rows[0].background: expected a colour #RRGGBB, got 'red'",
            "rows[1].highlight: expected a string, got a number",
        ])
        let doc = try Document(json: ##"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","background":"#f2f2f7","highlight":null}]}"##)
        #expect(doc.config(of: "a")?.background == "#F2F2F7" && doc.config(of: "a")?.highlight == nil)
        let exported = doc.exportJSON(pretty: false)
        #expect(exported.contains(##""separator":{},"background":"#F2F2F7","stack":null"##))
        #expect(try Document(json: exported) == doc)
        let spec = try RowConfig().applying([.background("#abcdef"), .highlight("#000000"), .highlight(nil)])
        #expect(spec.background == "#ABCDEF" && spec.highlight == nil)
        #expect(throws: StackDocError.self) { try RowConfig().applying([.highlight("#12345")]) }
    }
}
