import Testing
@testable import Layout
import StackDocTestSupport

/// SPEC §2.6: clamping and `scroll to ROW top|middle|bottom|auto`.
@Suite("Document layout: scrolling (SPEC §2.6)", .offThePool)
struct DocumentScrollTests {
    typealias F = DocFixture

    /// Ten rows of 50 in a 100 × 200 viewport: content 500, maxOffset 300.
    func tenRows(offset: Double = 0, extra: [RowTree] = []) throws -> DocumentLayout {
        try F.make(F.bare(viewport: Size(width: 100, height: 200), offset: offset),
                   (0..<10).map { F.leaf("r\($0)", .fixed(50)) } + extra).layout()
    }

    @Test func clampWhenContentIsShorterThanTheViewport() throws {
        let doc = try F.make(F.bare(viewport: Size(width: 100, height: 200), offset: 50), [F.leaf("a", .fixed(50))])
        let l = doc.layout()
        #expect(l.maxOffset == 0)
        #expect(l.offset == 0)             // the stored 50 is clamped
        #expect(l.clamp(30) == 0)
        #expect(l.at("a").visibility == .entire)
    }

    @Test func clampToTheRange() throws {
        let l = try tenRows()
        #expect(l.maxOffset == 300)
        #expect(l.clamp(-5) == 0)
        #expect(l.clamp(120) == 120)
        #expect(l.clamp(1e9) == 300)
        #expect(l.clamp(.infinity) == 300)
        #expect(l.clamp(-.infinity) == 0)
        #expect(l.clamp(.nan) == 0)
        let far = try tenRows(offset: 1000)
        #expect(far.offset == 300)
        #expect(far.at("r9").visibility == .entire)   // visibility uses the clamped offset
        #expect(far.at("r3").visibility == .offscreen)
    }

    @Test func topBottomMiddle() throws {
        let l = try tenRows()
        #expect(try l.scrollOffset(to: "r3", .top) == 150)
        #expect(try l.scrollOffset(to: "r3", .bottom) == 0)      // 200 − 200
        #expect(try l.scrollOffset(to: "r5", .bottom) == 100)    // 300 − 200
        #expect(try l.scrollOffset(to: "r9", .bottom) == 300)
        #expect(try l.scrollOffset(to: "r9", .top) == 300)       // 450 clamped
        #expect(try l.scrollOffset(to: "r4", .middle) == 125)    // 225 − 100
        #expect(try l.scrollOffset(to: "r0", .middle) == 0)      // −75 clamped
        #expect(try l.scrollOffset(to: "r9", .middle) == 300)    // 375 clamped
    }

    @Test func autoLeavesAnEntirelyVisibleRowAlone() throws {
        let l = try tenRows(offset: 150)                          // viewport 150…350
        #expect(try l.scrollOffset(to: "r3", .auto) == 150)       // 150…200 on the top edge
        #expect(try l.scrollOffset(to: "r6", .auto) == 150)       // 300…350 on the bottom edge
        #expect(try l.scrollOffset(to: "r2", .auto) == 100)       // above: show its top
        #expect(try l.scrollOffset(to: "r7", .auto) == 200)       // below: show its bottom (400 − 200)
        #expect(try l.scrollOffset(to: "r0", .auto) == 0)
        #expect(try l.scrollOffset(to: "r9", .auto) == 300)
        let partly = try tenRows(offset: 120)                     // viewport 120…320
        #expect(try partly.scrollOffset(to: "r2", .auto) == 100)  // 100…150 partly above
        #expect(try partly.scrollOffset(to: "r6", .auto) == 150)  // 300…350 partly below
    }

    @Test func autoOnARowLongerThanTheViewportGoesToItsTop() throws {
        let s = F.bare(viewport: Size(width: 100, height: 200))
        var doc = try F.make(s, [F.leaf("a", .fixed(50)), F.leaf("big", .fixed(300)), F.leaf("c", .fixed(50))])
        #expect(try doc.layout().scrollOffset(to: "big", .auto) == 50)   // below
        doc.settings.offset = 100                                        // big's top above the viewport
        #expect(try doc.layout().scrollOffset(to: "big", .auto) == 50)
        doc.settings.offset = 200                                        // max; big 50…350 partly
        #expect(try doc.layout().scrollOffset(to: "big", .auto) == 50)
    }

    @Test func horizontalScrollTargets() throws {
        let s = F.bare(axis: .horizontal, viewport: Size(width: 200, height: 100))
        let l = try F.make(s, (0..<5).map { F.leaf("c\($0)", .fixed(100)) }).layout()
        #expect(l.contentSize == Size(width: 500, height: 100))
        #expect(l.maxOffset == 300)
        #expect(try l.scrollOffset(to: "c2", .top) == 200)
        #expect(try l.scrollOffset(to: "c2", .middle) == 150)
        #expect(try l.scrollOffset(to: "c3", .bottom) == 200)
        #expect(try l.scrollOffset(to: "c3", .auto) == 200)
        #expect(try l.scrollOffset(to: "c1", .auto) == 0)
    }

    @Test func nestedRowsUseTheirAbsoluteFrames() throws {
        let s = F.bare(viewport: Size(width: 100, height: 200))
        let l = try F.make(s, [F.leaf("big", .fixed(200)),
                               F.stack("S", .vertical, [F.leaf("in0", .fixed(30)), F.leaf("in1", .fixed(70))])]
                              + (0..<10).map { F.leaf("r\($0)", .fixed(50)) }).layout()
        // in0 200…230, in1 230…300; content 800, maxOffset 600.
        #expect(l.frame("in1") == R(0, 230, 100, 70))
        #expect(try l.scrollOffset(to: "in0", .top) == 200)
        #expect(try l.scrollOffset(to: "in0", .middle) == 115)
        #expect(try l.scrollOffset(to: "in1", .bottom) == 100)
        #expect(try l.scrollOffset(to: "in1", .auto) == 100)
    }

    @Test func hiddenAndUnknownRowsAreErrors() throws {
        let l = try tenRows(extra: [
            F.leaf("gone", .fixed(10), hidden: true),
            F.stack("S", .vertical, hidden: true, [F.stack("T", .vertical, [F.leaf("inner", .fixed(10))])]),
        ])
        #expect { try l.scrollOffset(to: "gone", .top) } throws: { error in
            (error as? StackDocError)?.message == "cannot scroll to row 'gone': it is hidden"
        }
        #expect { try l.scrollOffset(to: "inner", .auto) } throws: { error in
            (error as? StackDocError)?.message == "cannot scroll to row 'inner': it is inside hidden row 'S'"
        }
        #expect { try l.scrollOffset(to: "nope", .top) } throws: { error in
            (error as? StackDocError)?.message == "no row 'nope'"
        }
    }
}

@Suite("Document layout: re-scrolling a layout", .offThePool)
struct DocumentRescrollTests {
    typealias F = DocFixture

    func doc(offset: Double) throws -> Document {
        try F.make(F.bare(viewport: Size(width: 100, height: 200), offset: offset), [
            F.leaf("a", .fixed(120)),
            F.stack("S", .vertical, [F.leaf("s1", .fixed(60)), F.leaf("gone", .fixed(10), hidden: true)]),
            F.leaf("b", .fixed(150)),
        ])
    }

    /// `atOffset` gives exactly what a fresh layout at that offset gives, clamping included.
    @Test(arguments: [0.0, 30, 100, 129.5, 130, 1000, -20])
    func atOffsetEqualsAFreshLayout(offset: Double) throws {
        let base = try doc(offset: 0).layout()
        let fresh = try doc(offset: offset).layout()
        let moved = base.atOffset(offset)
        #expect(moved == fresh)
        #expect(moved.row("s1") == fresh.row("s1"))
    }

    @Test func atOffsetReportsTransitions() throws {
        let base = try doc(offset: 0).layout()   // a, S, s1 entire; b 180…330 partial
        let moved = base.atOffset(130)            // maxOffset 130: a offscreen, S s1 partial, b entire
        #expect(moved.offset == 130)
        #expect(moved.transitions(from: base).map(\.row) == ["a", "S", "s1", "b"])
        #expect(moved.at("a").visibility == .offscreen)
        #expect(moved.at("b").visibility == .entire)
    }
}
