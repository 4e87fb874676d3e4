import Foundation
import GRDB

/// The mark a writing session leaves in the file while it holds it: SQLite's `user_version`
/// header field (4 bytes of page 1 that SQLite itself never reads; StackDoc uses it for nothing
/// else). The first write of a session sets it, inside its own transaction; the session clears it
/// when it closes cleanly (`DocumentStore.deinit`, the last connection of this process to the
/// file). A file found marked was last held by a writer that did not close — killed, crashed, a
/// power loss — or is held by one right now: its next session checks the whole file
/// (`PRAGMA quick_check`) before it writes. A file found unmarked was last closed by a writer
/// that had found it sound and wrote nothing but its own transactions since, and is written
/// without reading it whole (docs/store.md, "The check before the first write").
enum WriterMark {
    /// The value while a writer holds the file (0: closed cleanly, or never written by a
    /// StackDoc that marks).
    static let held: Int32 = 1

    /// True when the file was closed cleanly by its last writer (no mark).
    static func isClear(_ db: Database) throws -> Bool {
        try Int32.fetchOne(db, sql: "PRAGMA user_version") == 0
    }

    /// Inside a write transaction: marks the file held (no write when it is already marked).
    static func hold(_ db: Database) throws {
        if try isClear(db) { try db.execute(sql: "PRAGMA user_version = \(held)") }
    }

    /// At a clean close of a session that wrote: clears the mark in a transaction of its own,
    /// unless another connection of this process (`OpenDatabases`) still has the file open. Waits
    /// at most 100 ms for another process's write lock; when it cannot clear the mark, the mark
    /// stays and the next session checks the whole file, which is safe.
    static func release(_ queue: DatabaseQueue, file: OpenDatabases.FileID) {
        guard OpenDatabases.count(of: file) == 1 else { return }
        try? queue.inDatabase { db in
            try db.execute(sql: "PRAGMA busy_timeout = 100")
            try db.inTransaction(.immediate) {
                try db.execute(sql: "PRAGMA user_version = 0")
                return .commit
            }
        }
    }
}
