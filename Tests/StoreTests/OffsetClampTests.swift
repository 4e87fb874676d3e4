import Foundation
import GRDB
import Layout
@testable import Store
import StoreFormat
import Testing
import StackDocTestSupport

/// Issue 9, item 9: the stored offset is the offset the layout shows (SPEC §2.6). An operation
/// that leaves the offset past the end stores and logs the clamped value.
@Suite(.offThePool) struct OffsetClampTests {
    private func scrolledToTheEnd(_ store: DocumentStore, rows: Int = 10) throws -> StoredDocument {
        var settings = DocumentSettings()
        settings.viewport = Size(width: 320, height: 100)
        let doc = try store.create("d", settings: settings)
        try doc.perform(.add(ids: (0..<rows).map { "r\($0)" }, spec: [.fixed(50)], position: nil, parent: nil))
        try doc.perform(.scroll(.offset(10_000)))
        #expect(doc.document.settings.offset == doc.document.layout().maxOffset)
        #expect(doc.document.settings.offset > 0)
        return doc
    }

    /// The layout's own offset, and the check that memory, the reopened document and the replay
    /// all hold exactly it.
    private func expectClampedEverywhere(_ doc: StoredDocument, _ store: DocumentStore,
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let layout = doc.document.layout()
        #expect(doc.document.settings.offset == layout.offset, sourceLocation: sourceLocation)
        #expect(doc.document.settings.offset == doc.liveLayout().offset, sourceLocation: sourceLocation)
        #expect(try store.open("d").document.settings.offset == layout.offset, sourceLocation: sourceLocation)
        #expect(try doc.replayed().settings.offset == layout.offset, sourceLocation: sourceLocation)
        #expect(try doc.verify(replan: true) == [], sourceLocation: sourceLocation)
    }

    @Test func shrinkingContentStoresAndLogsTheClampedOffset() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try scrolledToTheEnd(store)
        let before = doc.document.settings.offset
        let changes = try doc.perform(.remove(ids: ["r5", "r6", "r7", "r8", "r9"]))
        let clamped = doc.document.settings.offset
        #expect(clamped < before && clamped == doc.document.layout().maxOffset)
        guard case let .updateSettings(old, new)? = changes.last else {
            Issue.record("the clamp is the operation's last change: \(changes)")
            return
        }
        #expect(old.offset == before && new.offset == clamped)
        #expect(try doc.log().last?.changes == changes)
        try expectClampedEverywhere(doc, store)
        // A later edit at the bottom does not scroll back to the old offset.
        try doc.perform(.add(ids: ["z"], spec: [.fixed(50)], position: nil, parent: nil))
        #expect(doc.document.settings.offset == clamped)
        // Undo of the removal keeps the view (the clamped offset).
        try doc.undo(2)
        #expect(doc.document.settings.offset == clamped)
        try expectClampedEverywhere(doc, store)
    }

    @Test func growingTheViewportClamps() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try scrolledToTheEnd(store)
        try doc.perform(.viewport(Size(width: 320, height: 400)))
        #expect(doc.document.settings.offset == doc.document.layout().maxOffset)
        try doc.perform(.viewport(Size(width: 320, height: 2000)))
        #expect(doc.document.settings.offset == 0)
        try expectClampedEverywhere(doc, store)
    }

    @Test func undoAndRedoClamp() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try scrolledToTheEnd(store)
        try doc.perform(.add(ids: ["x", "y"], spec: [.fixed(200)], position: nil, parent: nil))
        try doc.perform(.scroll(.offset(10_000)))
        let end = doc.document.settings.offset
        let move = try doc.undo()
        #expect(doc.document.settings.offset < end)
        #expect(doc.document.settings.offset == doc.document.layout().maxOffset)
        // The clamp is logged with the undo (which refers to the step it moved for the rows).
        let settingsChanges = move.changes.filter { if case .updateSettings = $0 { return true } else { return false } }
        let logged = try doc.log().last?.changes
        #expect(!settingsChanges.isEmpty && logged == settingsChanges)
        try doc.redo()
        #expect(doc.document.settings.offset < end)  // redo keeps the view
        try doc.undo(2)
        #expect(doc.document.settings.offset == 0)
        try expectClampedEverywhere(doc, store)
        // The same after reopening: the store's clamps and the replay's agree.
        let reopened = try store.open("d")
        try reopened.redo(2)
        #expect(reopened.document.settings.offset == 0)
        #expect(try reopened.verify(replan: true) == [])
    }

    /// `verify(replan:)` reports a logged operation that leaves the offset past the end (a log
    /// written without the clamp); plain `verify` accepts it, as databases written before the
    /// rule hold such entries.
    @Test func verifyWithReplanReportsAnUnclampedOffset() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "clamp.sqlite").path
        let doc = try scrolledToTheEnd(try DocumentStore(path: path))
        let before = doc.document.settings.offset
        try doc.perform(.remove(ids: ["r5", "r6", "r7", "r8", "r9"]))
        let seq = try #require(try doc.log().last?.seq)
        // The entry without its last change (the clamp).
        let forward = try #require(try DatabaseQueue(path: path).read { db in
            try Data.fetchOne(db, sql: "SELECT forward FROM log WHERE seq = ?", arguments: [seq])
        })
        let unclamped = try ChangeBlob.encode(Array(try forward.withUnsafeBytes { try ChangeBlob.decode($0) }.dropLast()))
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE log SET forward = ? WHERE seq = ?; UPDATE document SET offset = ?", arguments: [Data(unclamped), seq, before])
        }
        let reopened = try DocumentStore(path: path).open("d")
        #expect(reopened.document.settings.offset == before)
        #expect(try reopened.verify() == [])
        let problems = try reopened.verify(replan: true)
        #expect(problems.count == 1 && problems.first?.contains("past the end") == true, "\(problems)")
    }

    /// Decision: a saved document whose offset is past the end is stored with the clamped
    /// offset (and its import entry logs that), so `export` writes what the layout shows.
    @Test func importStoresTheClampedOffset() throws {
        let store = try DocumentStore(path: ":memory:")
        var document = Document(name: "d", settings: DocumentSettings())
        document.settings.viewport = Size(width: 320, height: 100)
        document.settings.offset = 5000
        try document.apply([.insertRow(id: "a", config: RowConfig(size: .fixed(150)), parent: nil, index: 0)])
        let maxOffset = document.layout().maxOffset
        #expect(maxOffset > 0 && maxOffset < 5000)
        let doc = try store.importDocument(document)
        #expect(doc.document.settings.offset == maxOffset)
        #expect(try doc.importedDocument(at: 1).settings.offset == maxOffset)
        try expectClampedEverywhere(doc, store)
    }
}
