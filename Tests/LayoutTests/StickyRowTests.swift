import Testing
@testable import Layout
import StackDocTestSupport

/// SPEC §2.7, issue 14 item 4: sticky rows (CSS `position: sticky`, `top`/`left` at the
/// unobscured rectangle's leading edge), their edge cases, and the live layout with them.
/// The numbers below are the CSS ones (the random cases are checked against Chromium in
/// DocumentStickyChromiumTests).
@Suite("Sticky rows", .offThePool)
struct StickyRowTests {
    typealias F = DocFixture

    func sticky(_ tree: RowTree) -> RowTree {
        var t = tree
        t.config.sticky = true
        return t
    }

    /// Two sections of 170 (a sticky header of 20 and three rows of 50), viewport 100 × 200.
    func sections(offset: Double = 0, insets: Edges = .zero) throws -> Document {
        var s = F.bare(viewport: Size(width: 100, height: 200), offset: offset)
        s.viewportInsets = insets
        func section(_ n: Int) -> RowTree {
            F.stack("s\(n)", .vertical, [sticky(F.leaf("h\(n)", .fixed(20)))] + (0..<3).map { F.leaf("s\(n)r\($0)", .fixed(50)) })
        }
        return try F.make(s, [section(1), section(2)])
    }

    @Test func aHeaderSticksToTheTopAndIsPushedOutByTheEndOfItsSection() throws {
        let at0 = try sections().layout()
        #expect(at0.displaced.isEmpty)
        let at100 = try sections(offset: 100).layout()
        #expect(at100.displaced["h1"] == StuckRow(dx: 0, dy: 100, stuck: true))
        #expect(at100.shownFrame(at: 1) == Rect(x: 0, y: 100, width: 100, height: 20))
        #expect(at100.at("h1").frame == Rect(x: 0, y: 0, width: 100, height: 20))   // the frame stays in flow
        #expect(at100.at("h1").visibility == .entire)
        // At 140 (the largest offset), the section ends at 170: h1 stops at 150 (pushed up).
        let at140 = try sections(offset: 140).layout()
        #expect(at140.displaced["h1"]?.dy == 140)
        var doc = try sections()
        try doc.apply([.updateRow(id: "s2r2", old: doc.config(of: "s2r2")!, new: RowConfig(size: .fixed(200)))])
        doc.settings.offset = 160
        let pushed = doc.layout()
        #expect(pushed.displaced["h1"]?.dy == 150)       // 170 − 20: pushed out
        doc.settings.offset = 180
        let next = doc.layout()
        #expect(next.displaced["h1"]?.dy == 150)
        #expect(next.displaced["h2"] == StuckRow(dx: 0, dy: 10, stuck: true))
        #expect(next.stuckTransitions(from: pushed) == [StuckTransition(row: "h2", stuck: true)])
        #expect(try sections().layout().stuckTransitions(from: at100) == [StuckTransition(row: "h1", stuck: false)])
    }

    /// Issue 32: `row(_:)` gives where a row is shown, as JSON names it: a stuck row's
    /// `shownFrame` differs from its frame (which stays in flow); a row shown at its frame has
    /// no `shownFrame`. The live layout answers the same.
    @Test func rowGivesAStuckRowsShownFrame() throws {
        let doc = try sections(offset: 100)
        let l = doc.layout()
        let h1 = try #require(l.row("h1"))
        #expect(h1.frame == Rect(x: 0, y: 0, width: 100, height: 20))
        #expect(h1.shownFrame == Rect(x: 0, y: 100, width: 100, height: 20))
        #expect(h1.stuck)
        #expect(h1.visibility == .entire)
        let inFlow = try #require(l.row("s1r2"))
        #expect(inFlow.frame == Rect(x: 0, y: 120, width: 100, height: 50))
        #expect(inFlow.shownFrame == nil && !inFlow.stuck)
        #expect(try sections().layout().row("h1")?.shownFrame == nil)      // at offset 0 it is in flow
        #expect(LiveLayout(doc).row("h1") == h1)
        #expect(LiveLayout(doc).row("s1r2") == inFlow)
    }

    /// A row inside a stuck sticky stack is shown moved with it, but is not stuck itself.
    @Test func aRowInsideAStuckStackHasAShownFrameButIsNotStuck() throws {
        let s = F.bare(viewport: Size(width: 100, height: 200), offset: 50)
        let doc = try F.make(s, [sticky(F.stack("bar", .vertical, [F.leaf("t", .fixed(10))])), F.leaf("body", .fixed(500))])
        let t = try #require(doc.layout().row("t"))
        #expect(t.frame == Rect(x: 0, y: 0, width: 100, height: 10))
        #expect(t.shownFrame == Rect(x: 0, y: 50, width: 100, height: 10))
        #expect(!t.stuck)
        #expect(doc.layout().row("bar")?.stuck == true)
    }

    @Test func theLeadingEdgeIsTheUnobscuredTop() throws {
        let l = try sections(offset: 60, insets: Edges(top: 30, left: 0, bottom: 0, right: 0)).layout()
        #expect(l.displaced["h1"]?.dy == 90)          // 60 + 30
        // A row above the edge but not reaching it yet stays in flow.
        let below = try sections(offset: 0, insets: Edges(top: 30, left: 0, bottom: 0, right: 0)).layout()
        #expect(below.displaced["h1"]?.dy == 30)      // stuck below the bar even at offset 0
    }

    @Test func aStickyRowInAHorizontalStackSticksToTheLeftEdge() throws {
        // A vertical document whose row is a horizontal stack: its sticky row uses `left`, which
        // only moves it when it lies left of the unobscured left edge (the document does not
        // scroll horizontally).
        var s = F.bare(viewport: Size(width: 300, height: 200))
        s.viewportInsets = Edges(top: 0, left: 44, bottom: 0, right: 0)
        let row = F.stack("row", .horizontal, insets: Edges(top: 0, left: 10, bottom: 0, right: 0),
                          [sticky(F.leaf("badge", .fixed(20), content: Size(width: 0, height: 30))), F.leaf("text", .fixed(100))])
        let l = try F.make(s, [row]).layout()
        #expect(l.at("badge").frame?.x == 10)
        #expect(l.displaced["badge"] == StuckRow(dx: 34, dy: 0, stuck: true))
        #expect(l.displaced["text"] == nil)          // it is not inside the badge
        // Without the inset, nothing moves: the badge is right of the left edge.
        s.viewportInsets = .zero
        #expect(try F.make(s, [row]).layout().displaced.isEmpty)
    }

    @Test func aHorizontalDocumentScrollsStickyRowsAlongX() throws {
        var s = F.bare(axis: .horizontal, viewport: Size(width: 100, height: 50), offset: 70)
        s.defaults.insets = .zero
        let rows = [sticky(F.leaf("h", .fixed(30)))] + (0..<5).map { F.leaf("c\($0)", .fixed(40)) }
        let l = try F.make(s, rows).layout()
        #expect(l.displaced["h"] == StuckRow(dx: 70, dy: 0, stuck: true))   // the root's box allows it to the end
        #expect(l.hitTest(x: 75, y: 10) == "h")      // shown over c1 (positioned boxes paint above)
        #expect(l.hitTest(x: 105, y: 10) == "c1")
    }

    @Test func nestedStickyRowsMoveWithTheirStuckAncestor() throws {
        var s = F.bare(viewport: Size(width: 100, height: 100), offset: 50)
        s.defaults.insets = .zero
        let outer = sticky(F.stack("outer", .vertical, [F.leaf("inner", .fixed(10)), sticky(F.leaf("deep", .fixed(10)))]))
        let l = try F.make(s, [F.leaf("a", .fixed(40)), outer] + (0..<5).map { F.leaf("z\($0)", .fixed(40)) }).layout()
        #expect(l.displaced["outer"] == StuckRow(dx: 0, dy: 10, stuck: true))     // 40 → 50
        #expect(l.displaced["inner"] == StuckRow(dx: 0, dy: 10, stuck: false))    // moved with it
        #expect(l.displaced["deep"] == StuckRow(dx: 0, dy: 10, stuck: false))     // its box moved: nothing of its own
        #expect(l.at("inner").visibility == .entire)
    }

    @Test func hiddenStickyRowsAndEmptyDocumentsHaveNothingStuck() throws {
        var s = F.bare(viewport: Size(width: 100, height: 100), offset: 50)
        s.defaults.insets = .zero
        var h = sticky(F.leaf("h", .fixed(10)))
        h.config.hidden = true
        let l = try F.make(s, [h] + (0..<5).map { F.leaf("z\($0)", .fixed(40)) }).layout()
        #expect(l.displaced.isEmpty)
        #expect(try F.make(s, []).layout().displaced.isEmpty)
        // A sticky row taller than the viewport sticks all the same, until its box ends.
        let tall = try F.make(s, [sticky(F.leaf("t", .fixed(300)))]).layout()
        #expect(tall.displaced.isEmpty)               // its box (the root) ends where it ends
    }

    @Test func theLiveLayoutKeepsStickyDocumentsWholeAndScrollsWithoutRelayout() throws {
        var doc = try sections()
        var live = LiveLayout(doc)
        #expect(!live.isIncremental)
        let edits: [Edit] = [.scroll(.offset(100)), .scroll(.offset(140)), .obscured(.insets(viewport: nil, insets: Edges(top: 20, left: 0, bottom: 0, right: 0))),
                             .set(id: "h2", spec: [.sticky(false)]), .scroll(.offset(0)), .set(id: "h1", spec: [.sticky(false)]),
                             .scroll(.offset(120)), .set(id: "h2", spec: [.sticky(true)]), .scroll(.offset(150))]
        for e in edits {
            let changes = try doc.plan(e, live: live)
            let before = doc.layout()
            try doc.apply(changes)
            let report = live.apply(changes, to: doc)
            let after = doc.layout()
            #expect(live.layout() == after, "\(e)")
            #expect(report.transitions == after.transitions(from: before), "\(e)")
            #expect(report.stuckTransitions == after.stuckTransitions(from: before), "\(e)")
            if case .scroll = e { #expect(!report.fullRelayout, "a scroll lays nothing out: \(e)") }
        }
        // No sticky row left shown after h2 was unstuck and h1 too? h2 is sticky again: whole.
        #expect(!live.isIncremental)
        try doc.apply(try doc.plan(.set(id: "h2", spec: [.sticky(false)])))
        live = LiveLayout(doc)
        #expect(live.isIncremental)                  // back in the incremental regime without sticky rows
    }
}

/// SPEC §5 (issue 14 items 4, 5, 7): `sticky`, `viewportInsets` and `keyboard` are optional
/// fields of `stackdoc/1`: older files import unchanged, documents without them export as before.
@Suite("Sticky rows and obscured edges in the saved format", .offThePool)
struct StickyFormatTests {
    @Test func optionalFieldsRoundTripAndAreLeftOutWhenUnset() throws {
        var s = DocumentSettings(viewport: Size(width: 390, height: 844))
        s.viewportInsets = Edges(top: 47, left: 0, bottom: 34, right: 0)
        s.keyboard = 336
        var doc = Document(name: "d", settings: s)
        try doc.insertRow("h", config: RowConfig(size: .fixed(20), sticky: true), parent: nil, at: 0)
        try doc.insertRow("s", config: RowConfig(stack: StackSettings()), parent: nil, at: 1)
        try doc.insertRow("n", config: RowConfig(sticky: true), parent: "s", at: 0)
        for pretty in [true, false] {
            let text = doc.exportJSON(pretty: pretty)
            #expect(text.contains("\"sticky\""))
            #expect(text.contains("\"viewportInsets\"") && text.contains("\"keyboard\""))
            let back = try Document(json: text)
            #expect(back.exportJSON(pretty: pretty) == text)
            #expect(back.config(of: "h")?.sticky == true && back.config(of: "n")?.sticky == true)
            #expect(back.settings.viewportInsets == s.viewportInsets && back.settings.keyboard == 336)
        }
        let plain = Document(name: "p")
        #expect(!plain.exportJSON().contains("sticky") && !plain.exportJSON().contains("keyboard")
                && !plain.exportJSON().contains("viewportInsets"))
    }

    @Test func badValuesAreNamedByPath() {
        func problems(_ text: String) -> [String] { Document.importJSON(Array(text.utf8)).problems }
        #expect(problems(#"{"format":"stackdoc/1","name":"d","keyboard":-3}"#) == ["keyboard: must be ≥ 0, got -3"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","viewportInsets":{"top":"x"}}"#).first?.hasPrefix("viewportInsets.top:") == true)
        #expect(problems(#"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","sticky":1}]}"#)
            == ["rows[0].sticky: expected true or false, got a number"])
    }
}
