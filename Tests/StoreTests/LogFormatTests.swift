import Foundation
import GRDB
import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 9 item 8: the log's on-disk format is written and read by `LogFormat` with explicit
/// keys; databases written before that (synthesized `Codable`) still open, undo, redo and verify.
@Suite(.offThePool) struct LogFormatStoreTests {
    static func fixture(_ name: String, _ ext: String) throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: ext))
    }


    /// The database the previous release wrote (fixture made by release-log-v1.sd before the
    /// format was explicit): migrates, shows the same document and history, verifies, undoes,
    /// redoes, takes new edits and verifies again.
    @Test func databaseOfThePreviousReleaseStillWorks() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "old.sqlite").path
        try FileManager.default.copyItem(atPath: try Self.fixture("release-log-v1", "db").path, toPath: path)
        let store = try DocumentStore(path: path)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        let doc = try store.open("d")
        let expected = try String(contentsOf: try Self.fixture("release-log-v1-d", "json"), encoding: .utf8)
        #expect(doc.document.exportJSON().trimmingCharacters(in: .newlines) == expected.trimmingCharacters(in: .newlines))
        #expect(try doc.verify() == [])
        let history = try doc.history()
        #expect(history.count == 29 && doc.cursor == 27)
        #expect(history[0].edits.first.map { if case .add(["header"], _, nil, nil) = $0 { true } else { false } } == true)
        #expect(try doc.log().count == 43)
        let before = doc.document
        try doc.undo(27)
        #expect(doc.document.rowCount == 0)
        try doc.redo(29)
        try doc.undo(2)
        #expect(doc.document == before)
        try doc.perform(.add(ids: ["new1"], spec: [.fixed(3)], position: .top, parent: nil))
        #expect(try doc.verify() == [])
        let reopened = try DocumentStore(path: path).open("d")
        #expect(reopened.document == doc.document)
        #expect(try reopened.verify() == [])
        #expect(try store.open("imp").verify() == [])
        #expect(try store.open("imp").importedDocument(at: 1).rowCount == 2)
    }

    /// A damaged payload is reported as one clear message naming the document, the entry and
    /// where in the payload the problem is — not a `DecodingError` dump.
    @Test(arguments: [
        ("{\"add\":{\"spec\":[]}}", "payload.add: missing 'ids'"),
        ("{\"wobble\":{}}", "payload: unknown edit 'wobble'"),
        ("{\"add\":{\"ids\":[\"a\"],\"spec\":[{\"fixed\":{\"_0\":\"ten\"}}]}}", "payload.add.spec[0].fixed._0: expected a number"),
        ("not json", "payload: not valid JSON"),
    ])
    func damagedPayloadGivesAClearError(payload: String, reason: String) throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try store.create("d")
        try doc.run(Ops.add("a", at: 0))
        try store.write { db in
            try db.execute(sql: "UPDATE log SET payload = ? WHERE seq = 2", arguments: [payload])
        }
        for attempt in [{ _ = try doc.log() }, { _ = try doc.history() }] as [() throws -> Void] {
            let error = try #require(throws: StoreError.self, performing: attempt)
            #expect(error.message.contains("document 'd': log entry 2 is damaged (\(reason))"), "\(error.message)")
        }
    }


    @Test func newerFormatIsRefusedClearly() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try store.create("d")
        try doc.run(Ops.add("a", at: 0))
        try store.write { db in try db.execute(sql: "UPDATE log SET format = 4 WHERE seq = 2") }
        let error = try #require(throws: StoreError.self) { try doc.undo() }
        #expect(error.message.contains("log entry 2 is damaged (format 4 is not one this StackDoc reads (3); use a newer stackdoc)"), "\(error.message)")
        #expect(doc.document.children(of: nil) == ["a"])
    }
}
