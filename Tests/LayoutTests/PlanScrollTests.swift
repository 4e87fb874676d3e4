import Testing
@testable import Layout
import StackDocTestSupport

@Suite("Edit planning: scroll", .offThePool)
struct PlanScrollTests {
    /// Viewport 100×100; rows a, b, c of 100 points each (76 + default insets 12 + 12): content
    /// 300, so offsets run 0…200.
    func scrollSample() throws -> Document {
        var doc = Document(name: "d")
        try perform(.viewport(Size(width: 100, height: 100)), on: &doc)
        try perform(.add(ids: ["a", "b", "c"], spec: [.fixed(76)], position: nil, parent: nil), on: &doc)
        return doc
    }

    @Test func offsetsAreClamped() throws {
        var doc = try scrollSample()
        try perform(.scroll(.offset(50)), on: &doc)
        #expect(doc.settings.offset == 50)
        try perform(.scroll(.offset(1000)), on: &doc)
        #expect(doc.settings.offset == 200)
        try perform(.scroll(.offset(-5)), on: &doc)
        #expect(doc.settings.offset == 0)
        #expect(try doc.plan(.scroll(.offset(-1))).isEmpty)
        #expect(try doc.plan(.scroll(.offset(1e308))) == [.updateSettings(old: doc.settings, new: { var s = doc.settings; s.offset = 200; return s }())])
    }

    @Test func scrollBy() throws {
        var doc = try scrollSample()
        try perform(.scroll(.by(30)), on: &doc)
        try perform(.scroll(.by(30)), on: &doc)
        #expect(doc.settings.offset == 60)
        try perform(.scroll(.by(-100)), on: &doc)
        #expect(doc.settings.offset == 0)
        try perform(.scroll(.by(1e308)), on: &doc)
        #expect(doc.settings.offset == 200)
    }

    @Test func scrollToRows() throws {
        var doc = try scrollSample()
        try perform(.scroll(.to("c", .top)), on: &doc)
        #expect(doc.settings.offset == 200)
        try perform(.scroll(.to("b", .middle)), on: &doc)
        #expect(doc.settings.offset == 100)
        try perform(.scroll(.to("a", .auto)), on: &doc)
        #expect(doc.settings.offset == 0)
        try perform(.scroll(.to("b", .bottom)), on: &doc)
        #expect(doc.settings.offset == 100)
        #expect(try doc.plan(.scroll(.to("b", .auto))).isEmpty)
        try perform(.hide(ids: ["c"]), on: &doc)
        #expect(errorMessage { _ = try doc.plan(.scroll(.to("c", .top))) } == "cannot scroll to row 'c': it is hidden")
    }

    @Test func staleOffsetIsClampedByLayoutAndNextScroll() throws {
        var doc = try scrollSample()
        try perform(.scroll(.offset(200)), on: &doc)
        try perform(.remove(ids: ["c"]), on: &doc)
        #expect(doc.settings.offset == 200)  // edits do not rewrite the offset …
        #expect(doc.layout().offset == 100)  // … the layout clamps it
        try perform(.scroll(.by(0)), on: &doc)
        #expect(doc.settings.offset == 100)
    }
}
