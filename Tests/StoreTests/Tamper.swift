import Foundation
import GRDB
@testable import Store

/// Direct SQL on a database file, bypassing the store (to damage it on purpose).
enum Tamper {
    static func sql(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
    }

    /// The writer's mark in the file (`WriterMark`: `held` while a writer holds it or after one
    /// that did not close, 0 after a clean close).
    static func writerMark(_ path: String) throws -> Int32 {
        try DatabaseQueue(path: path).read { db in try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
    }

    /// Leaves the file as a writer that never closed it leaves it (its mark set:
    /// `ProcessTests.aKilledWritersFileIsCheckedWholeBeforeTheNextWrite` shows a SIGKILLed
    /// writer does), so that the next session checks the whole file before it writes.
    static func markHeldByAWriterThatDidNotClose(_ path: String) throws {
        try sql(path, "PRAGMA user_version = \(WriterMark.held)")
    }

    /// What undoes the tables' part of migrations after schema 18, for tests that fake an older
    /// file by forgetting the migrations after it (each is applied again on opening): 0019's
    /// column (`ADD COLUMN` cannot be applied twice).
    static let undoAfterSchema18 = "ALTER TABLE document DROP COLUMN viewport_safe_area;"

    /// Checkpoints the WAL into the file, then writes garbage over every third byte (from byte
    /// 20) of the first leaf page of `table`'s b-tree, a page that opening a document does not
    /// read (opening reads only the right-most path). Returns the page's number and its first
    /// byte before the damage (0x0A for an index leaf, 0x0D for a table leaf).
    @discardableResult
    static func scribbleOnFirstLeaf(of table: String, in path: String) throws -> (page: Int, kind: UInt8) {
        try sql(path, "PRAGMA wal_checkpoint(TRUNCATE)")
        let (leaf, pageSize) = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path LIMIT 1", arguments: [table])!,
             try Int.fetchOne(db, sql: "PRAGMA page_size")!)
        }
        guard var data = FileManager.default.contents(atPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
        let start = (leaf - 1) * pageSize
        let kind = data[start]
        for i in stride(from: start + 20, to: start + pageSize, by: 3) { data[i] = 0xA5 }
        try data.write(to: URL(fileURLWithPath: path))
        return (leaf, kind)
    }
}
