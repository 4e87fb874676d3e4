import Foundation
import Layout
import StackDocScript
import Testing

/// The feed's layout, replayed from its op log `Logs/feed.sd` (written by `log export` in a
/// `stackdoc` session): a header, a horizontal carousel, a promo added and a story hidden in one
/// undo step (undone and redone), a taller last story, scrolled to its bottom.
@Suite struct FeedLayoutTests {
    /// The committed op log.
    static func feedLog() throws -> Script {
        let path = try #require(Bundle.module.path(forResource: "feed", ofType: "sd", inDirectory: "Logs"))
        return try Script(contentsOf: path)
    }

    @Test func theReplayedFeedHasTheExpectedFramesAndVisibility() throws {
        let run = try Session(database: ":memory:").run(Self.feedLog())
        let layout = try #require(run.layout)

        #expect(layout.offset == 184)
        #expect(layout.contentSize == Size(width: 390, height: 784))
        // Scrolled to the bottom of story3: the top of the feed has left the viewport.
        #expect(layout.row("header")?.visibility == .offscreen)
        #expect(layout.row("c3")?.frame == Rect(x: 375, y: 96, width: 180, height: 24))
        #expect(layout.row("promo")?.visibility == .partial)
        #expect(layout.row("promo")?.percent == 50)
        #expect(layout.row("story1")?.frame == Rect(x: 0, y: 236, width: 390, height: 224))
        #expect(layout.row("story2")?.visibility == .hidden)
        #expect(layout.row("story2")?.frame == nil)
        #expect(layout.row("story3")?.frame == Rect(x: 0, y: 460, width: 390, height: 324))
        #expect(layout.row("story3")?.visibility == .entire)
    }

    @Test func theScrollReportsWhatEnteredAndLeftTheViewport() throws {
        let run = try Session(database: ":memory:").run(Self.feedLog())
        let scroll = try #require(run.steps.last)
        #expect(scroll.line.text == "scroll to story3 bottom")
        #expect(scroll.result.events.contains(VisibilityTransition(row: "story3", from: .partial, to: .entire)))
        #expect(scroll.result.events.contains(VisibilityTransition(row: "header", from: .entire, to: .offscreen)))
    }

    @Test func commandsAfterTheReplayWorkOnTheSameDocument() throws {
        let session = try Session(database: ":memory:")
        _ = try session.run(Self.feedLog())
        try session.run(line: "remove promo")  // 104 points shorter: story1 moves up
        #expect(try session.currentLayout().row("story1")?.frame?.y == 132)
        try session.run(line: "undo")
        #expect(try session.currentLayout().row("story1")?.frame?.y == 236)
    }
}
