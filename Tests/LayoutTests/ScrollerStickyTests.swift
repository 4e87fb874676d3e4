import Testing
@testable import Layout

/// SPEC §2.8: a sticky row inside a stack that scrolls on its own sticks to that stack's
/// scrollport deflated by its insets (its padding), as Chromium shows it (the fixture cases
/// carousel32 and randscroll7 of DocumentScrollerChromiumTests), and is stuck even where its
/// shift exactly undoes the stack's offset (it is then shown at its own frame).
@Suite("Sticky rows inside scrolling stacks", .offThePool)
struct ScrollerStickyTests {
    typealias F = DocFixture

    /// A 390 wide strip with insets 0 16 0 16 holding five cards of 120 (spacing 10), the first
    /// sticky, scrolled by `offset`.
    func strip(offset: Double) throws -> DocumentLayout {
        var car = F.stack("car", .horizontal, size: .fixed(100), spacing: 10, insets: Edges(top: 0, left: 16, bottom: 0, right: 16),
                          (1...5).map { F.leaf("c\($0)", .fixed(120)) })
        car.config.scrollOffset = offset
        car.rows[0].config.sticky = true
        return try F.make(F.bare(viewport: Size(width: 390, height: 300)), [F.leaf("title", .fixed(60)), car]).layout()
    }

    @Test func aStickyCardRestsAtTheStripsLeftInset() throws {
        let l = try strip(offset: 150)
        let i = try #require(l.rows.firstIndex { $0.id == "c1" })
        #expect(l.shownFrame(at: i) == R(16, 60, 120, 100))
        #expect(l.displaced["c1"]?.stuck == true)
        #expect(l.at("c1").visibility == .entire)
        // c2 (146 in flow) is shown at −4 and slides under the stuck card.
        let j = try #require(l.rows.firstIndex { $0.id == "c2" })
        #expect(l.shownFrame(at: j) == R(-4, 60, 120, 100))
    }

    @Test func atOffsetZeroTheCardIsNotStuck() throws {
        let l = try strip(offset: 0)
        #expect(l.displaced["c1"] == nil)
        let moved = try strip(offset: 150)
        #expect(moved.stuckTransitions(from: l).map(\.row) == ["c1"])
    }
}
