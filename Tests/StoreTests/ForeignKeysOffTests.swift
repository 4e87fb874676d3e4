import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 15 item 8: a removal run of at least `RowRunWriter.foreignKeysOffMinimum` rows is
/// deleted with SQLite's foreign key enforcement off (`ForeignKeysOff`: one pass instead of a
/// seek per row). What must hold: only the run's rows go (another document's rows, with the same
/// ids, stay), the stored rows equal the document and a replay, and enforcement is on again after
/// the write — also after one whose DELETE fails.
@Suite struct ForeignKeysOffTests {
    static func enforced(_ doc: StoredDocument) throws -> Bool {
        try doc.store.read { db in try Int.fetchOne(db, sql: "PRAGMA foreign_keys") } == 1
    }

    @Test func longRemovalRunsDeleteOnlyTheirRowsAndEnforcementComesBack() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "fk.sqlite").path
        // 600 rows in `s` (a run written after memory, on one thread), 2,501 at the root (a run
        // on two threads).
        let doc = try RowRunTests.sample(path, count: StoredDocument.parallelRunMinimum + 452, inner: 600)
        var e = Document(name: "e")
        for i in 0..<700 { try e.appendRow("r\(i)", config: RowConfig(size: .fixed(4)), parent: nil) }
        let other = try DocumentStore(path: path).importDocument(e)
        let otherRows = try RowRunTests.storedRows(other).0.exportJSON()
        #expect(RowRunWriter.foreignKeysOffMinimum <= 600)
        let steps: [(String, (StoredDocument) throws -> [Change])] = [
            ("clear of s", { try $0.perform(.clear(parent: "s")) }),
            ("clear of the root", { try $0.perform(.clear(parent: nil)) }),
            ("undo", { try $0.undo().changes }),
            ("undo", { try $0.undo().changes }),
            ("redo of 2", { try $0.redo(2).changes }),
        ]
        for (name, step) in steps {
            try ParallelRunTests.expectExact(doc, name, step)
            #expect(try Self.enforced(doc), "\(name): foreign keys enforced after")
            #expect(try RowRunTests.storedRows(other).0.exportJSON() == otherRows, "\(name): the other document's rows")
        }
        #expect(try other.verify() == [])
        // Enforcement really is back: a log entry of no document is refused.
        #expect(throws: (any Error).self) {
            try doc.store.write { db in
                try db.execute(sql: "INSERT INTO log (document, seq, kind, time) VALUES (9999, 1, 'op', 0)")
            }
        }
    }

    /// A long removal run whose DELETE finds a row missing fails, changes nothing, and leaves
    /// enforcement on.
    @Test func aFailingRunLeavesEnforcementOn() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try RowRunTests.sample(dir.appending(path: "f.sqlite").path, count: 900, inner: 0)
        try doc.store.write { db in try db.execute(sql: "DELETE FROM row WHERE id = 'r100' AND import_seq = 0") }
        let before = try ParallelRunTests.State(doc)
        #expect(throws: (any Error).self) { try doc.perform(.clear(parent: nil)) }
        #expect(try ParallelRunTests.State(doc) == before)
        #expect(try Self.enforced(doc))
    }
}
