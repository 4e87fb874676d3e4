import Testing
@testable import Layout
import StackDocTestSupport

/// Hit testing (deepest row containing a point, half-open frames), find by type and the id lookup.
@Suite("Document layout: hit test, find by type, row lookup", .offThePool)
struct DocumentQueryTests {
    typealias F = DocFixture

    /// Frames Chromium-checked [hitNested].
    func nested() throws -> DocumentLayout {
        var s = F.bare(viewport: Size(width: 100, height: 200))
        s.padding = Edges(all: 5)
        return try F.make(s, [
            F.leaf("a", .fixed(20), type: "label"),
            F.stack("S", .horizontal, size: .fixed(40), spacing: 10, insets: Edges(all: 2), [
                F.leaf("s1", .fixed(30), type: "label"),
                F.stack("T", .vertical, size: .fixed(30), [F.leaf("t1", .fixed(10), type: "button"), F.leaf("t2", .fixed(10))]),
                F.leaf("gone", .fixed(5), hidden: true, type: "label"),
            ]),
            F.leaf("b", .fixed(20)),
        ]).layout()
        // a (5,5,90,20); S (5,25,90,44); s1 (7,27,30,40); T (47,27,30,40); t1 (47,27,30,10);
        // t2 (47,37,30,10); b (5,69,90,20).
    }

    @Test func framesUsedByTheHitTests() throws {
        let l = try nested()
        #expect(l.frame("S") == R(5, 25, 90, 44))
        #expect(l.frame("T") == R(47, 27, 30, 40))
        #expect(l.frame("t2") == R(47, 37, 30, 10))
    }

    @Test func deepestRowWins() throws {
        let l = try nested()
        #expect(l.hitTest(x: 50, y: 30) == "t1")
        #expect(l.hitTest(x: 50, y: 40) == "t2")
        #expect(l.hitTest(x: 50, y: 60) == "T")     // below t2, inside T
        #expect(l.hitTest(x: 40, y: 30) == "S")     // in the spacing between s1 and T
        #expect(l.hitTest(x: 10, y: 30) == "s1")
        #expect(l.hitTest(x: 10, y: 10) == "a")
    }

    @Test func edgesAreHalfOpen() throws {
        let l = try nested()
        #expect(l.hitTest(x: 5, y: 5) == "a")       // top-left corner is inside
        #expect(l.hitTest(x: 95, y: 10) == nil)     // right edge is outside (padding)
        #expect(l.hitTest(x: 10, y: 25) == "S")     // a's bottom edge = S's top edge → S
        #expect(l.hitTest(x: 50, y: 37) == "t2")    // shared edge of t1 and t2 → the later row
        #expect(l.hitTest(x: 10, y: 89) == nil)     // b's bottom edge
    }

    @Test func outsideAndPaddingHitNothing() throws {
        let l = try nested()
        #expect(l.hitTest(x: 2, y: 2) == nil)
        #expect(l.hitTest(x: -1, y: 30) == nil)
        #expect(l.hitTest(x: 50, y: 500) == nil)
        #expect(l.hitTest(x: .nan, y: 30) == nil)
    }

    @Test func hiddenRowsAreNeverHit() throws {
        let l = try F.make(F.bare(viewport: Size(width: 100, height: 200)), [
            F.stack("S", .vertical, hidden: true, [F.leaf("x", .fixed(50))]),
            F.leaf("a", .fixed(10)),
        ]).layout()
        #expect(l.hitTest(x: 10, y: 5) == "a")
        #expect(l.hitTest(x: 10, y: 30) == nil)
    }

    @Test func findByTypeInDocumentOrder() throws {
        let doc = try F.make([
            F.leaf("a", type: "label"),
            F.stack("S", .vertical, [F.leaf("s1", type: "label"), F.leaf("s2", type: "button"),
                                     F.leaf("s3", hidden: true, type: "label")]),
            F.leaf("b", type: "label"),
        ])
        #expect(doc.rows(ofType: "label") == ["a", "s1", "s3", "b"])
        #expect(doc.rows(ofType: "button") == ["s2"])
        #expect(doc.rows(ofType: "view") == ["S"])
        #expect(doc.rows(ofType: "nothing").isEmpty)
    }

    @Test func rowLookupByID() throws {
        var l = try nested()
        #expect(l.position(of: "t1") == 4)
        #expect(l.row("t2")?.parent == "T")
        #expect(l.row("missing") == nil)
        #expect(l.at("t1").type == "button")
        // The index follows edits of `rows`.
        l.rows.removeFirst()
        #expect(l.position(of: "t1") == 3)
        #expect(l.row("a") == nil)
        #expect(l.hitTest(x: 50, y: 30) == "t1")
    }

    @Test func layoutEqualityIgnoresTheLookupCache() throws {
        let a = try nested()
        let b = try nested()
        _ = a.position(of: "t1")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }
}
