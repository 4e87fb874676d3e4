import Testing
@testable import Layout
import StackDocTestSupport

/// SPEC §2.5: hidden / entire / partial / offscreen with percentages, and transitions.
@Suite("Document layout: visibility and transitions (SPEC §2.5)", .offThePool)
struct DocumentVisibilityTests {
    typealias F = DocFixture

    /// Six rows of 50 in a 100 × 200 viewport: content 300, maxOffset 100.
    func sixRows(offset: Double) throws -> Document {
        try F.make(F.bare(viewport: Size(width: 100, height: 200), offset: offset),
                   (0..<6).map { F.leaf("r\($0)", .fixed(50)) })
    }

    func states(_ l: DocumentLayout) -> [Visibility] { l.rows.map(\.visibility) }

    @Test func partialPercentages() throws {
        let l = try sixRows(offset: 75).layout()   // viewport y 75…275
        #expect(states(l) == [.offscreen, .partial, .entire, .entire, .entire, .partial])
        #expect(l.at("r1").percent == 50)   // 75…100 of 50…100
        #expect(l.at("r5").percent == 50)   // 250…275 of 250…300
        #expect(l.at("r2").percent == 100)
        #expect(l.at("r0").percent == 0)

        let m = try sixRows(offset: 90).layout()
        #expect(m.at("r1").percent == 20)
        #expect(m.at("r5").percent == 80)
    }

    /// Issue 33 defect C: `justify spaceBetween` shares 446 pt over three gaps so that they sum
    /// to it exactly (148.671875, 148.65625, 148.671875, as Chromium): the last row ends on the
    /// viewport's bottom edge and is entire, not partial at 99.48 %.
    @Test func spaceBetweenGapsSumToTheFreeSpace() throws {
        var s = F.bare(viewport: Size(width: 100, height: 506))
        s.justify = .spaceBetween
        let doc = try F.make(s, [F.leaf("r1", .fixed(45)), F.leaf("r2", .fixed(3)), F.leaf("r3", .fixed(9)), F.leaf("r4", .fixed(3))])
        let l = doc.layout()
        #expect(l.at("r2").frame?.minY == 193.671875)
        #expect(l.at("r3").frame?.minY == 345.328125)
        #expect(l.at("r4").frame?.minY == 503)
        #expect(l.at("r4").visibility == .entire && l.at("r4").percent == 100)
        #expect(states(l) == [.entire, .entire, .entire, .entire])
    }

    /// Touching the viewport edge only is offscreen; frame edges on the viewport edge are inside.
    @Test func touchingEdgesAreOffscreen() throws {
        let top = try sixRows(offset: 100).layout()  // viewport y 100…300
        #expect(top.at("r1").visibility == .offscreen)  // 50…100 touches the top edge
        #expect(top.at("r2").visibility == .entire)     // 100…150 starts on the edge
        #expect(top.at("r5").visibility == .entire)     // 250…300 ends on the bottom edge

        let bottom = try sixRows(offset: 0).layout()    // viewport y 0…200
        #expect(bottom.at("r3").visibility == .entire)     // 150…200
        #expect(bottom.at("r4").visibility == .offscreen)  // 200…250 touches the bottom edge
        #expect(bottom.at("r4").percent == 0)
    }

    /// A frame of zero area is entire when inside the viewport (edges inclusive), else offscreen.
    /// Frames Chromium-checked [zeroArea].
    @Test func zeroAreaRows() throws {
        var s = F.bare(viewport: Size(width: 100, height: 200))
        s.defaults.autoHideLastSeparator = false
        let doc = try F.make(s, [
            F.leaf("z0", .fixed(0)),                 // y 0, height 0, on the top edge
            F.leaf("a", .fixed(100)),
            F.leaf("z1", .fixed(0)),                 // y 100, inside
            F.leaf("b", .fixed(100)),
            F.leaf("z2", .fixed(0)),                 // y 200, on the bottom edge
            F.leaf("c", .fixed(50)),
            F.leaf("z3", .fixed(0)),                 // y 250, below
            F.leaf("w", .fixed(10), content: .zero, align: .start),  // 0 wide at y 250
        ])
        let l = doc.layout()
        #expect(l.frame("z1") == R(0, 100, 100, 0))
        #expect(l.at("z0").visibility == .entire && l.at("z0").percent == 100)
        #expect(l.at("z1").visibility == .entire)
        #expect(l.at("z2").visibility == .entire)
        #expect(l.at("z3").visibility == .offscreen && l.at("z3").percent == 0)
        #expect(l.frame("w") == R(0, 250, 0, 10))
        #expect(l.at("w").visibility == .offscreen)
        // Scrolled to the end (offset 60, viewport 60…260): the zero-width row lies inside.
        var scrolled = doc
        scrolled.settings.offset = 60
        let m = scrolled.layout()
        #expect(m.offset == 60)
        #expect(m.at("w").visibility == .entire)
        #expect(m.at("z0").visibility == .offscreen)
    }

    /// Area-based percentage with overflow on the cross axis too (Chromium-checked [negmargin]).
    @Test func percentIsAnAreaRatio() throws {
        let l = try F.make(F.bare(viewport: Size(width: 100, height: 200)), [
            F.leaf("a", .fixed(180)),
            F.leaf("b", .fixed(50), margin: Edges(top: 0, left: -50, bottom: 0, right: 0)),
        ]).layout()
        // b = (−50, 180, 150, 50); visible 100 × 20 = 2000 of 7500.
        #expect(l.at("b").visibility == .partial)
        #expect(abs(l.at("b").percent - 2000.0 / 75.0) < 1e-9)
        #expect(l.at("a").visibility == .entire)
    }

    @Test func hiddenAncestorsHideEveryDescendant() throws {
        let doc = try F.make(F.bare(viewport: Size(width: 100, height: 200)), [
            F.stack("S", .vertical, [
                F.stack("T", .vertical, hidden: true, [
                    F.stack("U", .vertical, [F.leaf("deep", .fixed(10))]),
                ]),
                F.leaf("s1", .fixed(10)),
            ]),
        ])
        let l = doc.layout()
        for id in ["T", "U", "deep"] {
            #expect(l.at(id).visibility == .hidden, "\(id)")
            #expect(l.at(id).percent == 0, "\(id)")
            #expect(l.frame(id) == nil, "\(id)")
        }
        #expect(l.at("S").visibility == .entire)
        #expect(l.at("s1").visibility == .entire)
        #expect(l.frame("s1") == R(0, 0, 100, 10))
    }

    /// Frames Chromium-checked [horizVis].
    @Test func horizontalViewportRunsAlongX() throws {
        var s = DocumentSettings(axis: .horizontal, viewport: Size(width: 300, height: 200), offset: 50)
        s.defaults.insets = .zero
        let l = try F.make(s, [F.leaf("a", .fixed(100)), F.leaf("b", .fixed(100)), F.leaf("c", .fixed(200)),
                               F.leaf("d", .fixed(100))]).layout()
        // viewport x 50…350: a 0…100 half, b entire, c 200…400 three quarters, d 400… offscreen.
        #expect(states(l) == [.partial, .entire, .partial, .offscreen])
        #expect(l.at("a").percent == 50)
        #expect(l.at("c").percent == 75)
    }

    @Test func transitionsInDocumentOrder() throws {
        let before = try sixRows(offset: 0).layout()
        let after = try sixRows(offset: 75).layout()
        #expect(after.transitions(from: before) == [
            VisibilityTransition(row: "r0", from: .entire, to: .offscreen),
            VisibilityTransition(row: "r1", from: .entire, to: .partial),
            VisibilityTransition(row: "r4", from: .offscreen, to: .entire),
            VisibilityTransition(row: "r5", from: .offscreen, to: .partial),
        ])
        #expect(before.transitions(from: after).map(\.row) == ["r0", "r1", "r4", "r5"])
        #expect(after.transitions(from: after).isEmpty)
    }

    @Test func percentageChangeAloneIsNoTransition() throws {
        let a = try sixRows(offset: 75).layout()
        let b = try sixRows(offset: 90).layout()
        #expect(a.at("r1").percent != b.at("r1").percent)
        #expect(b.transitions(from: a).isEmpty)
    }

    /// Rows are matched by id when the tree changed; a row in the new layout only arrived
    /// (`from` nil), a row in the old one only left (`to` nil), after the rows that stay.
    @Test func transitionsAcrossTreeChanges() throws {
        var doc = try sixRows(offset: 0)
        let before = doc.layout()
        try doc.insertRow("new", config: RowConfig(size: .fixed(50)), parent: nil, at: 0)
        var r3 = doc.config(of: "r3")!
        r3.hidden = true
        try doc.updateRow("r3", config: r3)
        let after = doc.layout()
        // new 0…50 pushes r0…r2 down (still entire), r3 is hidden, r4 200…250 touches the edge.
        #expect(after.transitions(from: before) == [VisibilityTransition(row: "new", from: nil, to: .entire),
                                                     VisibilityTransition(row: "r3", from: .entire, to: .hidden)])
        #expect(after.at("r2").visibility == .entire && after.at("r4").visibility == .offscreen)
        // The other way round: r3 hidden → entire; the new row leaves (reported last).
        #expect(before.transitions(from: after) == [VisibilityTransition(row: "r3", from: .hidden, to: .entire),
                                                     VisibilityTransition(row: "new", from: .entire, to: nil)])
    }
}

@Suite("Document layout: transitions across edits", .offThePool)
struct DocumentTransitionMatchingTests {
    typealias F = DocFixture

    func rows(_ ids: [String], hidden: Set<String> = []) throws -> DocumentLayout {
        try F.make(F.bare(viewport: Size(width: 100, height: 100)),
                   ids.map { F.leaf($0, .fixed(40), hidden: hidden.contains($0)) }).layout()
    }

    /// Rows inserted and removed in several places are matched by id, not by position; arrivals
    /// (offscreen ones too) are reported in the new order, departures after them in the old order.
    @Test func insertionsAndRemovalsAreMatchedById() throws {
        let before = try rows(["a", "b", "c", "d", "e"])          // a b entire, c partial, d e offscreen
        let after = try rows(["x", "a", "c", "y", "z", "e"])      // x a entire, c partial, y z e offscreen
        #expect(before.at("c").visibility == .partial && after.at("c").visibility == .partial)
        #expect(after.transitions(from: before) == [
            VisibilityTransition(row: "x", from: nil, to: .entire),
            VisibilityTransition(row: "y", from: nil, to: .offscreen),
            VisibilityTransition(row: "z", from: nil, to: .offscreen),
            VisibilityTransition(row: "b", from: .entire, to: nil),
            VisibilityTransition(row: "d", from: .offscreen, to: nil),
        ])
        let removed = try rows(["b", "c", "d", "e"])          // b c entire, d partial
        #expect(removed.transitions(from: before) == [
            VisibilityTransition(row: "c", from: .partial, to: .entire),
            VisibilityTransition(row: "d", from: .offscreen, to: .partial),
            VisibilityTransition(row: "a", from: .entire, to: nil),
        ])
        #expect(before.transitions(from: removed) == [
            VisibilityTransition(row: "a", from: nil, to: .entire),
            VisibilityTransition(row: "c", from: .entire, to: .partial),
            VisibilityTransition(row: "d", from: .partial, to: .offscreen),
        ])
        let moved = try rows(["e", "d", "c", "b", "a"])
        #expect(moved.transitions(from: before) == [
            VisibilityTransition(row: "e", from: .offscreen, to: .entire),
            VisibilityTransition(row: "d", from: .offscreen, to: .entire),
            VisibilityTransition(row: "b", from: .entire, to: .offscreen),
            VisibilityTransition(row: "a", from: .entire, to: .offscreen),
        ])
    }
}
