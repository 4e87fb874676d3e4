import GRDB

/// SQLite's `secure_delete` set to `FAST` on the write's own connection for one long removal
/// run (`RowRunWriter`), and set back after.
///
/// Why: the SQLite this package links (Debian's and others) is built with `SQLITE_SECURE_DELETE`,
/// so by default every page a `DELETE` frees is overwritten with zeros — written to the WAL at
/// commit and then to the file by the checkpoint. A `clear` of 100k rows (or its redo) frees
/// ≈ 2,000 pages of `row` and its indexes: ≈ 8 MB written twice, ≈ 75 ms of a 0.5 s process,
/// on the critical path after both threads are done. `FAST` still zeroes deleted content on the
/// pages the delete writes anyway, but leaves freed pages as they were (SQLite reuses them).
///
/// Why that protects nothing less: the rows a write removes are in its log entry (and stay
/// there, for undo, until `history compact` drops the entry); the zeroed copies on freed pages
/// were never their only trace. Everything else — compaction, dropping a document, single
/// removals — keeps the connection's setting. Nothing stored changes: the rows, the log and
/// every page in use are the same bytes; only the content of free pages differs.
enum SecureDeleteFast {
    /// Runs `body` with `secure_delete = FAST` on `db`'s connection, then restores the setting it
    /// found (also when `body` throws).
    static func during<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        let before = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? 0
        guard before == 1 else { return try body() }  // off, or FAST already: nothing to change
        try set("FAST", db)
        let result: T
        do {
            result = try body()
        } catch {
            try? set("\(before)", db)
            throw error
        }
        try set("\(before)", db)
        return result
    }

    private static func set(_ value: String, _ db: Database) throws {
        try db.execute(sql: "PRAGMA secure_delete = \(value)")
    }
}
