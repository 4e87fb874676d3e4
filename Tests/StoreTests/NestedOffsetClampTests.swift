import Foundation
import Layout
@testable import Store
import Testing

/// SPEC §2.8: the stored offset of a stack that scrolls on its own is the offset the layout shows,
/// as SPEC §2.6 keeps the root's. An operation, undo or redo that leaves it past the stack's
/// content stores and logs the clamped value (view state: undo does not bring the old one back).
@Suite(.offThePool) struct NestedOffsetClampTests {
    /// A 300 pt wide strip `car` of `cards` cards of 100 pt, scrolled to its end.
    private func stripAtItsEnd(_ store: DocumentStore, cards: Int = 6) throws -> StoredDocument {
        var settings = DocumentSettings()
        settings.viewport = Size(width: 300, height: 400)
        settings.defaults.insets = .zero
        let doc = try store.create("d", settings: settings)
        try doc.perform(.add(ids: ["car"], spec: [.stack(.horizontal), .scrolls(true), .fixed(100)], position: nil, parent: nil))
        try doc.perform(.add(ids: (0..<cards).map { "c\($0)" }, spec: [.fixed(100)], position: nil, parent: "car"))
        try doc.perform(.scroll(.stack("car", 10_000)))
        #expect(stored(doc) == Double(cards * 100 - 300))
        return doc
    }

    private func stored(_ doc: StoredDocument) -> Double? { doc.document.config(of: "car")?.scrollOffset }

    private func shown(_ doc: StoredDocument) -> Double? {
        doc.document.layout().nestedScrolls.first { $0.id == "car" }?.offset
    }

    /// Memory, the reopened document, the replay and `verify` all hold the offset the layout shows.
    private func expectClampedEverywhere(_ doc: StoredDocument, _ store: DocumentStore,
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let offset = shown(doc)
        #expect(stored(doc) == offset, sourceLocation: sourceLocation)
        #expect(try store.open("d").document.config(of: "car")?.scrollOffset == offset, sourceLocation: sourceLocation)
        #expect(try doc.replayed().config(of: "car")?.scrollOffset == offset, sourceLocation: sourceLocation)
        #expect(try doc.verify(replan: true) == [], sourceLocation: sourceLocation)
    }

    @Test func removingCardsStoresAndLogsTheClampedOffset() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try stripAtItsEnd(store)
        let changes = try doc.perform(.remove(ids: ["c4", "c5"]))
        #expect(stored(doc) == 100)
        guard case let .updateRow(id, old, new)? = changes.last else {
            Issue.record("the clamp is the operation's last change: \(changes)")
            return
        }
        #expect(id == "car" && old.scrollOffset == 300 && new.scrollOffset == 100)
        #expect(try doc.log().last?.changes == changes)
        try expectClampedEverywhere(doc, store)
        // Undo brings the cards back, not the offset (view state).
        try doc.undo()
        #expect(doc.document.childCount(of: "car") == 6)
        #expect(stored(doc) == 100)
        try expectClampedEverywhere(doc, store)
    }

    @Test func undoAndRedoClamp() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try stripAtItsEnd(store, cards: 4)
        try doc.perform(.add(ids: ["x", "y"], spec: [.fixed(100)], position: nil, parent: "car"))
        try doc.perform(.scroll(.stack("car", 10_000)))
        #expect(stored(doc) == 300)
        let move = try doc.undo()
        #expect(stored(doc) == 100)
        #expect(move.changes.contains { if case .updateRow("car", _, _) = $0 { return true } else { return false } })
        try expectClampedEverywhere(doc, store)
        // A root scroll past the end in the same document: both clamps, the nested one first.
        try doc.perform(.scroll(.stack("car", 10_000)))
        try doc.perform(.add(ids: ["tail"], spec: [.fixed(500)], position: nil, parent: nil))
        try doc.perform(.scroll(.offset(10_000)))
        let changes = try doc.perform(.remove(ids: ["tail", "c3"]))
        #expect(stored(doc) == 0 && doc.document.settings.offset == 0)
        #expect(changes.suffix(2).map(Replayer.isClamp) == [true, true])
        if case .updateSettings? = changes.last {} else { Issue.record("the root's clamp comes last: \(changes)") }
        try expectClampedEverywhere(doc, store)
        try doc.undo()
        try doc.redo()
        try expectClampedEverywhere(doc, store)
    }
}
