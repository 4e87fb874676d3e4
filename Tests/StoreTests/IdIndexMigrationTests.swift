import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// Migration 0017 (the id index led by the id): a schema-16 file, whose `row_by_id` is
/// `(document, id)`, opens with the index `(id, document)`, and everything that finds rows by id
/// or counts a document's rows works on it as before: edits, undo of a long run (which drops and
/// builds the index again), `documents()`, `verify`.
@Suite(.offThePool) struct IdIndexMigrationTests {
    /// The columns of `row_by_id`, in order.
    static func indexColumns(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info('row_by_id') ORDER BY seqno")
        }
    }

    @Test func aSchema16FileGetsTheIdFirstIndex() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "old.sqlite").path
        do {
            let store = try DocumentStore(path: path)
            let a = try store.create("a")
            try a.perform(.add(ids: (0..<5_000).map { "r\($0)" }, spec: [.fixed(20)], position: nil, parent: nil))
            let b = try store.create("b")
            try b.perform(.add(ids: ["r1", "r2", "x"], spec: [.fixed(5)], position: nil, parent: nil))
        }
        #expect(try Self.indexColumns(path) == ["id", "document"])
        // What schema 16 had: the index led by the document, no record of 0017 or later.
        let later = Schema.migrations.filter { $0.version >= 17 }.map { "'\($0.name)'" }.joined(separator: ", ")
        try Tamper.sql(path, """
            \(Tamper.undoAfterSchema18)
            DROP INDEX row_by_id;
            CREATE UNIQUE INDEX row_by_id ON row(document, id) WHERE import_seq = 0;
            DELETE FROM grdb_migrations WHERE identifier IN (\(later));
            """)
        #expect(try Self.indexColumns(path) == ["document", "id"])

        let store = try DocumentStore(path: path)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        #expect(try Self.indexColumns(path) == ["id", "document"])
        #expect(try store.documents().map { "\($0.name) \($0.rowCount)" } == ["a 5000", "b 3"])
        let a = try store.open("a")
        // Found by id in the right document (b has rows r1 and r2 too).
        try a.perform(.set(id: "r1", spec: [.fixed(7)]))
        try a.perform(.remove(ids: ["r2"]))
        // A long run: the clear drops the index, its undo builds it again.
        try a.perform(.clear(parent: nil))
        #expect(try store.documents().map(\.rowCount) == [0, 3])
        try a.undo()
        #expect(a.document.rowCount == 4_999)
        #expect(try Self.indexColumns(path) == ["id", "document"])
        #expect(try a.verify(replan: true) == [])
        let b = try store.open("b")
        try b.perform(.set(id: "r2", spec: [.fixed(9)]))
        #expect(try b.verify() == [])
        let reopened = try DocumentStore(path: path)
        #expect(try reopened.open("a").document == a.document)
        #expect(try reopened.open("b").document == b.document)
        #expect(try reopened.documents().map(\.rowCount) == [4_999, 3])
    }

    /// Ids are unique per document, not across documents, under the new index as under the old.
    @Test func theSameIdInTwoDocumentsIsFineATwinInOneIsRefused() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try DocumentStore(path: dir.appending(path: "d.sqlite").path)
        let a = try store.create("a"), b = try store.create("b")
        try a.perform(.add(ids: ["same"], spec: [], position: nil, parent: nil))
        try b.perform(.add(ids: ["same"], spec: [], position: nil, parent: nil))
        #expect(throws: (any Error).self) {
            try store.write { db in
                try db.execute(sql: "INSERT INTO row (document, parent, order_key, id) SELECT document, '', 'zz', id FROM row WHERE id = 'same' LIMIT 1")
            }
        }
        #expect(try a.verify() == [] && b.verify() == [])
    }
}
