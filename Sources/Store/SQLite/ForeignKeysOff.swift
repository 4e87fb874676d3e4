import CStackDocSystem
import GRDB

/// SQLite's foreign key enforcement turned off on the write's own connection for the statements
/// of one long run inside a transaction (a removal run's deletes, a bulk insert run's INSERTs:
/// `RowRunWriter`), with `SQLITE_DBCONFIG_ENABLE_FKEY` (`PRAGMA foreign_keys` is a no-op there).
///
/// Why: with enforcement on, SQLite compiles a `DELETE` from a table that has a foreign key in
/// two passes (the keys of the matching rows into a temporary b-tree, then a seek and a delete
/// for each) and never truncates; off, a range `DELETE` deletes as its cursor walks the range and
/// a `DELETE` without WHERE clears the table's pages. 100k rows of `row`: ≈ 0.3 s of CPU
/// against a few milliseconds (docs/store.md, "Writing a write's rows: runs").
///
/// Only for statements that cannot break a foreign key: deleting rows of a table that no other
/// table refers to (`row`: its `document` column refers to `document`; nothing refers to `row`).
/// Changing the setting makes SQLite expire the connection's prepared statements, which
/// re-prepare on their next use: this is for big runs only, never per edit.
enum ForeignKeysOff {
    /// Runs `body` with enforcement off on `db`'s connection and turns it back on after (also when
    /// `body` throws).
    static func during<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try set(false, db)
        let result: T
        do {
            result = try body()
        } catch {
            try? set(true, db)
            throw error
        }
        try set(true, db)
        return result
    }

    private static func set(_ on: Bool, _ db: Database) throws {
        let now = stackdoc_sqlite_enforce_foreign_keys(db.sqliteConnection, on ? 1 : 0)
        guard now == (on ? 1 : 0) else {
            throw StoreError.internal("SQLite did not turn foreign key enforcement \(on ? "on" : "off") (\(now))")
        }
    }
}
