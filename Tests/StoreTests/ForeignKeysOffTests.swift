import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 15 item 8: a removal run of at least `RowRunWriter.foreignKeysOffMinimum` rows is
/// deleted with SQLite's foreign key enforcement off (`ForeignKeysOff`: one pass instead of a
/// seek per row), and one that is every row of the table with one `DELETE` without WHERE. What
/// must hold: only the run's rows go (another document's rows, with the same ids, stay; a table
/// of the run's size holding other rows is not truncated), the stored rows equal the document
/// and a replay, and enforcement is on again after the write — also after one that fails.
@Suite(.offThePool) struct ForeignKeysOffTests {
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

    /// A run that is every row of the table (at least `DeferredIDIndex.firstRun` rows) is
    /// deleted by one `DELETE` without WHERE (truncated): the table ends empty, the document,
    /// its replay and its undo agree, and the id index is still there for the undo's rows.
    @Test func aRunOfEveryRowOfTheTableIsTruncated() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try RowRunTests.sample(dir.appending(path: "t.sqlite").path, count: DeferredIDIndex.firstRun + 100, inner: 0)
        for (name, step) in [("clear", { (d: StoredDocument) in try d.perform(.clear(parent: nil)) }),
                             ("undo", { try $0.undo().changes }), ("redo", { try $0.redo().changes }),
                             ("undo again", { try $0.undo().changes })] as [(String, (StoredDocument) throws -> [Change])] {
            try ParallelRunTests.expectExact(doc, name, step)
            #expect(try Self.enforced(doc), "\(name): foreign keys enforced after")
        }
        let (rows, index) = try doc.store.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM row")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = ?", arguments: [DeferredIDIndex.name])!)
        }
        #expect(rows == doc.document.rowCount && index == 1)
    }

    /// A table holding as many rows as the run, but not the run's rows (one of them missing,
    /// a row of another stack instead): not truncated — the range DELETE finds the run short
    /// and the write fails, changing nothing.
    @Test func aTableOfTheRunsSizeButOtherRowsIsNotTruncated() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try RowRunTests.sample(dir.appending(path: "o.sqlite").path, count: DeferredIDIndex.firstRun + 100, inner: 0)
        try doc.store.write { db in
            try db.execute(sql: "DELETE FROM row WHERE id = 'r100'")
            try db.execute(sql: """
                INSERT INTO row (document, parent, order_key, id, size, fields)
                SELECT document, 's', order_key, 'x', size, fields
                FROM row WHERE id = 'r1'
                """)
        }
        let before = try ParallelRunTests.State(doc)
        #expect(throws: (any Error).self) { try doc.perform(.clear(parent: nil)) }
        #expect(try ParallelRunTests.State(doc) == before)
        #expect(try Self.enforced(doc))
    }

    /// A long removal run whose DELETE finds a row missing fails, changes nothing, and leaves
    /// enforcement on.
    @Test func aFailingRunLeavesEnforcementOn() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try RowRunTests.sample(dir.appending(path: "f.sqlite").path, count: 900, inner: 0)
        try doc.store.write { db in try db.execute(sql: "DELETE FROM row WHERE id = 'r100'") }
        let before = try ParallelRunTests.State(doc)
        #expect(throws: (any Error).self) { try doc.perform(.clear(parent: nil)) }
        #expect(try ParallelRunTests.State(doc) == before)
        #expect(try Self.enforced(doc))
    }
}
