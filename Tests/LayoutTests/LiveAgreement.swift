@testable import Layout
import Testing

/// Plans and applies `edits` to `doc` one by one, through the live layout and through the full
/// layout, and expects them to agree: the same changes planned, the same layout, the same
/// visibility transitions. With `incrementally`, also that no edit needed a full relayout.
func expectLiveLayoutFollows(_ edits: [Edit], on doc: inout Document, incrementally: Bool = false) throws {
    var live = LiveLayout(doc)
    for e in edits {
        let changes = try doc.plan(e, live: live)
        #expect(changes == (try doc.plan(e)), "\(e)")
        let before = doc.layout()
        try doc.apply(changes)
        let report = live.apply(changes, to: doc)
        if incrementally { #expect(!report.fullRelayout, "\(e)") }
        #expect(live.layout() == doc.layout(), "\(e)")
        #expect(report.transitions == doc.layout().transitions(from: before), "\(e)")
    }
}
