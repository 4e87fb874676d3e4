import Foundation
import GRDB
@testable import Store
import StoreFormat

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
    /// file by forgetting the migrations after it (each is applied again on opening): 0020's
    /// `row` table and 0019's column (`ADD COLUMN` cannot be applied twice).
    static var undoAfterSchema18: String { undoAfterSchema19 + "\n" + undoSafeArea }

    /// 0019's column alone.
    static let undoSafeArea = "ALTER TABLE document DROP COLUMN viewport_safe_area;"

    /// Rewrites the log entries of the file at `path` that `condition` picks (SQL over `log`) as
    /// format 2 wrote them (`forward` as JSON text) and turns the file back into schema 19
    /// (`undoAfterSchema19`, no record of 0020), so that the next open converts them: how
    /// tests build the logs of the releases that wrote format 2.
    static func logAsFormat2(_ path: String, where condition: String = "1") throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            for row in try GRDB.Row.fetchAll(db, sql: "SELECT document, seq, forward FROM log WHERE format = 3 AND (\(condition))") {
                let text = try (row["forward"] as Data?).map { blob in
                    try LogFormat.encode(try blob.withUnsafeBytes { try ChangeBlob.decode($0) })
                }
                try db.execute(sql: "UPDATE log SET forward = ?, format = 2 WHERE document = ? AND seq = ?",
                               arguments: [text, row["document"] as Int64, row["seq"] as Int])
            }
            try db.execute(sql: undoAfterSchema19)
            // The migrations after 0020 go too (undoAfterSchema19 dropped their tables): a file of schema 19.
            for m in Schema.migrations where m.version >= 20 {
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [m.name])
            }
        }
    }

    /// What undoes the tables of the migrations after schema 19 (0021's `open_group`, 0020's
    /// `row`): `row` as schema 19 had it, with `import_seq` (every
    /// row current, 0) and the id index over the current rows, in that schema's words (the
    /// tables an open compares with are `Schema.objects(ofVersion:)`'s).
    static var undoAfterSchema19: String {
        let objects = try! Schema.objects(ofVersion: 19)
        func sql(_ name: String) -> String {
            let definition = objects[name]!
            return String(definition[definition.range(of: ": ")!.upperBound...])
        }
        // 0021's table (`open_group`; a test's file has no open group to move back) first.
        return """
            DROP TABLE IF EXISTS open_group;
            \(sql("row").replacingOccurrences(of: "CREATE TABLE \"row\"", with: "CREATE TABLE row_v19"));
            INSERT INTO row_v19 (document, parent, order_key, id, size, fields) SELECT document, parent, order_key, id, size, fields FROM row;
            DROP TABLE row;
            ALTER TABLE row_v19 RENAME TO row;
            \(sql("row_by_id"));
            """
    }

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
