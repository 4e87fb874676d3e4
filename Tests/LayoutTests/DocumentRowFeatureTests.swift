import Testing
@testable import Layout

/// Issue 14: the row features of layout model II, each against CSS. Every expected frame here
/// was computed by headless Chromium through scripts/doc_chromium_frames.py on
/// scripts/oracle/row-feature-cases.json (case name in brackets).
@Suite("Document layout: row features of issue 14")
struct DocumentRowFeatureTests {
    typealias F = DocFixture

    /// [intrinsicStretch] The example: a horizontal stack of stretched leaves is as tall
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
}
