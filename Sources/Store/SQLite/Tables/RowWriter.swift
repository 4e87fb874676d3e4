import Foundation
import GRDB
import GRDBSQLite
import Layout
import StoreFormat

/// Writes rows and settings: one statement per primitive change (O(1) rows each), and a bulk
/// path (raw C API, one prepared statement) for importing whole documents. `row` holds a
/// document's current rows only (the rows an import entry brought in are its image,
/// `ImportImages`).
enum RowWriter {
    private static let insertSQL: String = {
        let columns = ["document", "parent", "order_key", "id"] + ColumnCoding.configColumns
        return "INSERT INTO row (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    }()
    private static let updateSQL = "UPDATE row SET " + ColumnCoding.configColumns.map { "\($0) = ?" }.joined(separator: ", ")
        + " WHERE document = ? AND id = ?"
    private static let settingsSQL = "UPDATE document SET " + ColumnCoding.settingsColumns.map { "\($0) = ?" }.joined(separator: ", ")
        + " WHERE id = ?"

    /// Writes one change that has just been applied to `document` (the in-memory state after it).
    static func write(_ change: Change, after document: Document, db: Database, id docID: Int64) throws {
        switch change {
        case let .insertRow(id, config, parent, index):
            let key = try orderKey(at: index, in: parent, of: document, moving: nil, db: db, docID: docID)
            try insert(id, config: config, parent: parent, key: key, db: db, docID: docID)
        case let .removeRow(id, _, _, _):
            var idText = id
            try run(db, "DELETE FROM row WHERE document = ? AND id = ?") { s in
                sqlite3_bind_int64(s, 1, docID)
                ColumnValue.bindText(&idText, to: s, at: 2)
            }
            try expectOneRow(db, id)
        case let .updateRow(id, _, new):
            // Bound raw, as `LogWriter.append` binds a log entry: no `Data` of the `fields` blob
            // stays in the cached statement (docs/store.md, "Why the raw C API for log entries").
            var idText = id
            let count = Int32(ColumnCoding.configColumns.count)
            try run(db, updateSQL) { s in
                ColumnCoding.bind(new, to: s, at: 1)
                sqlite3_bind_int64(s, count + 1, docID)
                ColumnValue.bindText(&idText, to: s, at: count + 2)
            }
            try expectOneRow(db, id)
        case let .moveRow(id, _, _, toParent, toIndex):
            let key = try orderKey(at: toIndex, in: toParent, of: document, moving: id, db: db, docID: docID)
            try db.cachedStatement(sql: "UPDATE row SET parent = ?, order_key = ? WHERE document = ? AND id = ?")
                .execute(arguments: [toParent ?? "", key, docID, id])
            try expectOneRow(db, id)
        case let .updateSettings(_, new):
            try writeSettings(new, db: db, id: docID)
        }
    }

    /// Inserts one row under order key `key` (one statement).
    static func insert(_ id: RowID, config: RowConfig, parent: RowID?, key: String, db: Database, docID: Int64) throws {
        var key = key, parentText = parent ?? "", idText = id
        try run(db, insertSQL) { s in
            sqlite3_bind_int64(s, 1, docID)
            ColumnValue.bindText(&parentText, to: s, at: 2)
            ColumnValue.bindText(&key, to: s, at: 3)
            ColumnValue.bindText(&idText, to: s, at: 4)
            ColumnCoding.bind(config, to: s, at: 5)
        }
    }

    static func writeSettings(_ settings: DocumentSettings, db: Database, id docID: Int64) throws {
        let values: [(any DatabaseValueConvertible)?] = ColumnCoding.values(settings) + [docID]
        try db.cachedStatement(sql: settingsSQL).execute(arguments: StatementArguments(values))
    }

    /// Runs one cached statement through the raw C API (`bind` binds its parameters): a row
    /// written through GRDB's `StatementArguments` cost ≈ 3× as much, which an undo of a 100k-row
    /// `clear` paid 100k times.
    static func run(_ db: Database, _ sql: String, bind: (SQLiteStatement) -> Void) throws {
        let s = try db.cachedStatement(sql: sql).sqliteStatement
        sqlite3_reset(s)
        bind(s)
        let rc = sqlite3_step(s)
        sqlite3_reset(s)
        sqlite3_clear_bindings(s)
        guard rc == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
        }
    }

    private static func expectOneRow(_ db: Database, _ id: RowID) throws {
        if db.changesCount != 1 { throw StoreError.internal("row '\(id)' is not stored") }
    }

    /// A key between the stored keys of the row's neighbours (the row already sits at `index`
    /// of `parent` in `document`). Two index lookups; other rows are touched only when the gap
    /// is used up and `OrderKeySpace` re-keys a neighbourhood to keep keys short.
    private static func orderKey(at index: Int, in parent: RowID?, of document: Document, moving: RowID?,
                                 db: Database, docID: Int64) throws -> String {
        let before = try document.child(at: index - 1, of: parent).map { try storedKey($0, db: db, docID: docID) }
        let after = try document.child(at: index + 1, of: parent).map { try storedKey($0, db: db, docID: docID) }
        return try OrderKeySpace.key(between: before, after, parent: parent ?? "", moving: moving, rows: SQLiteOrderKeyedRows(db: db, docID: docID))
    }

    /// The stored order key of current row `id` (one index lookup).
    static func storedKey(_ id: RowID, db: Database, docID: Int64) throws -> String {
        let s = try db.cachedStatement(sql: "SELECT order_key FROM row WHERE document = ? AND id = ?").sqliteStatement
        sqlite3_reset(s)
        defer { sqlite3_reset(s); sqlite3_clear_bindings(s) }
        var idText = id
        sqlite3_bind_int64(s, 1, docID)
        ColumnValue.bindText(&idText, to: s, at: 2)
        let rc = sqlite3_step(s)
        guard rc == SQLITE_ROW, let key = ColumnCoding.string(s, 0) else {
            if rc != SQLITE_ROW, rc != SQLITE_DONE {
                throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            throw StoreError.internal("row '\(id)' has no stored order key")
        }
        return key
    }

    /// Rows per INSERT statement of `bulkInsert`: one statement per row spent ≈ a fifth of the
    /// insert in starting and ending the statement.
    static let bulkBatch = 32

    /// Inserts every row of `rows` as the document's current rows, with
    /// evenly spaced order keys per stack (`BulkRowInserter`). (The import entry's own copy is
    /// one image: `ImportImages`.) `cancellation` is asked after each batch.
    static func bulkInsert(_ db: Database, document docID: Int64, rows: Document, cancellation: Cancellation = .never) throws {
        var inserter = try BulkRowInserter(db, document: docID, cancellation: cancellation)
        try rows.forEachRow { id, parent, _, config in try inserter.add(id, parent: parent, config: config) }
        try inserter.finish()
    }
}

/// Appends entries to the operation log, in today's format (`LogFormat.version`): `forward` as a
/// `ChangeBlob`, no stored inverse (the column stays NULL: it is `forward`'s inverse).
enum LogWriter {
    /// The one INSERT of a log entry.
    private static let appendSQL =
        "INSERT INTO log (document, seq, kind, payload, forward, grp, label, time, format, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    /// `payload` is already in `LogFormat`; `format` is recorded with the entry; `origin` names
    /// who wrote it (schema 6).
    ///
    /// The entry is bound through the raw C API (SQLite copies text and blobs): no Swift value of
    /// it stays behind in the cached statement, and no `Data` is made. Through GRDB's
    /// `StatementArguments` the statement kept the last blob as a `Data` inside an enum; the CI
    /// fuzz run's LeakSanitizer reported one such `Data` as leaked (our reading of that report,
    /// not a proven cause: docs/store.md, "Why the raw C API for log entries").
    ///
    /// `forwardBlob` is `ChangeBlob.encode(forward)` when the caller made it already
    /// (`StoredDocument.applyForLog`, `LoggedChanges`); used only by a format that writes blobs.
    static func append(_ db: Database, document: Int64, seq: Int, kind: LogEntry.Kind, payload: String?,
                       forward: [Change]?, forwardBlob: [UInt8]? = nil, group: Int?, label: String?, origin: String? = nil) throws {
        let now = Date.now.timeIntervalSince1970
        assert(forwardBlob == nil || forwardBlob == forward.flatMap { try? ChangeBlob.encode($0) },
               "an early blob differs from the blob of the changes it is logged with")
        let blob = try forwardBlob ?? forward.map(ChangeBlob.encode)
        func text(_ value: String?, _ index: Int32, _ s: SQLiteStatement) {
            guard var value else { return }  // unbound parameters are NULL
            ColumnValue.bindText(&value, to: s, at: index)
        }
        try RowWriter.run(db, appendSQL) { s in
            sqlite3_bind_int64(s, 1, document)
            sqlite3_bind_int64(s, 2, Int64(seq))
            text(kind.rawValue, 3, s)
            text(payload, 4, s)
            blob?.withUnsafeBytes { raw in _ = sqlite3_bind_blob(s, 5, raw.baseAddress, Int32(raw.count), sqliteTransient) }
            if let group { sqlite3_bind_int64(s, 6, Int64(group)) }
            text(label, 7, s)
            sqlite3_bind_double(s, 8, now)
            sqlite3_bind_int64(s, 9, Int64(LogFormat.version))
            text(origin, 10, s)
        }
    }
}
