import Foundation
import Layout
import OrderStatistics
import PropertyBased
import Store
import StackDocTestSupport
import Testing

/// Properties of random operation sequences (random edits, undo/redo, begin/commit/rollback).
@Suite(.longRunning) struct PropertyTests {
    /// Runs `length` random actions from `seed` on a new document; closes an open group.
    func randomHistory(_ store: DocumentStore, seed: UInt64, length: Int) throws -> StoredDocument {
        let doc = try store.create("p")
        var rng = SplitMix64(seed: seed)
        for _ in 0..<length { try RandomOps.action(for: doc, rng: &rng).run(on: doc) }
        if doc.openGroup != nil { try doc.commit() }
        return doc
    }

    @Test func undoEverythingGivesTheEmptyDocument() async {
        await propertyCheck(count: 60, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...80)) { seed, length in
            let doc = try randomHistory(try DocumentStore(path: ":memory:"), seed: seed, length: length)
            if doc.cursor > 0 { try doc.undo(doc.cursor) }
            var expected = DocumentSettings()
            expected.viewport = doc.document.settings.viewport  // view state is not undone
            expected.offset = doc.document.settings.offset
            expected.viewportInsets = doc.document.settings.viewportInsets
            expected.safeArea = doc.document.settings.safeArea
            expected.keyboard = doc.document.settings.keyboard
            #expect(doc.document.rowCount == 0)
            #expect(doc.document.settings == expected)
            #expect(try doc.verify(replan: true) == [])
        }
    }

    @Test func undoThenRedoGivesTheSameState() async {
        await propertyCheck(count: 60, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...80), Gen.int(in: 1...10)) { seed, length, k in
            let doc = try randomHistory(try DocumentStore(path: ":memory:"), seed: seed, length: length)
            let k = min(k, doc.cursor)
            guard k > 0 else { return }
            let before = doc.document
            let undone = try doc.undo(k)
            #expect(undone.steps.count == k)
            try doc.redo(k)
            // The same state, but for the view: undo may have clamped the offset (SPEC §2.6), and
            // redo keeps it.
            var expected = before
            expected.settings.offset = doc.document.settings.offset
            #expect(snapshot(doc.document) == snapshot(expected))
            #expect(doc.document.settings.offset <= before.settings.offset)
            #expect(try doc.verify(replan: true) == [])
        }
    }

    @Test func replayGivesTheStoredState() async {
        await propertyCheck(count: 60, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...120)) { seed, length in
            try checkReplay(try DocumentStore(path: ":memory:"), seed: seed, length: length)
        }
    }

    /// Random histories on a PostgreSQL store: the replay, a reopened handle (another
    /// connection) and verify agree with the document, as on SQLite.
    @Test(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)))
    func replayGivesTheStoredStateOnPostgreSQL() async {
        await propertyCheck(count: 10, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...120)) { seed, length in
            let url = try TestStores.url(.postgresql)
            try checkReplay(try DocumentStore(url: url), seed: seed, length: length)
            let doc = try DocumentStore(url: url).open("p")
            #expect(try doc.verify(replan: true) == [])
        }
    }

    func checkReplay(_ store: DocumentStore, seed: UInt64, length: Int) throws {
        let doc = try randomHistory(store, seed: seed, length: length)
        #expect(snapshot(try doc.replayed()) == snapshot(doc.document))
        #expect(snapshot(try store.open("p").document) == snapshot(doc.document))
        #expect(try doc.verify(replan: true) == [])
    }

    @Test func stateAfterReopenIsStateBeforeClose() async {
        await propertyCheck(count: 25, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...60)) { seed, length in
            let dir = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let path = dir.appending(path: "p.sqlite").path
            let (state, history, log, status): ([String], [HistoryStep], [LogEntry], DocumentStatus)
            do {
                let doc = try randomHistory(try DocumentStore(path: path, options: StoreOptions(durability: .normal)), seed: seed, length: length)
                (state, history, log, status) = (snapshot(doc.document), try doc.history(), try doc.log(), try doc.status())
            }
            let doc = try DocumentStore(path: path).open("p")
            #expect(snapshot(doc.document) == state)
            #expect(try doc.history() == history)
            #expect(try doc.log() == log)
            #expect(try doc.status() == status)
        }
    }
}
