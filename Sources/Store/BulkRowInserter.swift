import Foundation
import GRDB
import GRDBSQLite
import Layout

/// Inserts rows given in document order (a stack row before its rows, each stack's rows in
/// order) as a document's current rows (`import_seq` 0): `RowWriter.bulkBatch` rows per INSERT
/// statement, raw C API, each stack's order keys `OrderKey.sequence` handed out as its rows come
/// (so the rows can arrive while a file is still being read), or keys the caller gives. The
/// import's bulk path (`RowWriter.bulkInsert`, `DocumentStore.importDocument(reading:)`) and
/// that of a long run of rows inserted side by side by one write (`RowRunWriter`).
///
/// Two things keep a large insert cheap: a batch's statement names only the config columns some
/// row of the batch has a value for — a column left out stores NULL, as its value would (only
/// columns that are nullable with no default are ever left out, as the table says; most rows
/// set few of the optional fields, and every column named costs SQLite a copy and a bind per
/// row) — and a large insert builds the id index once at the end (`DeferredIDIndex`).
struct BulkRowInserter {
    /// The columns before the config's: where the row is and its id.
    private static let placeColumns = ["document", "parent", "order_key", "id"]
    private static let configCount = ColumnCoding.configColumns.count
    private let db: Database
    private let docID: Int64
    private let cancellation: Cancellation
    /// The config columns every statement names (bit k: `ColumnCoding.configColumns[k]`): those
    /// that are NOT NULL or have a default.
    private let alwaysWritten: UInt64
    /// The statements of full batches, by the config columns they name, with those columns.
    private var statements: [UInt64: (statement: Statement, columns: [Int])] = [:]
    /// The rows of the batch not yet written: their places and ids, and their config values
    /// (`configCount` a row, in column order).
    private var ids: [RowID] = []
    private var parents: [String] = []
    private var keys: [[UInt8]] = []
    private var values: [ColumnValue] = []
    /// The config columns the batch names: `alwaysWritten` and those a row has a value for.
    private var written: UInt64
    /// The next order key of each stack that has rows so far.
    private var nextKey: [RowID?: [UInt8]] = [:]
    private var idIndex: DeferredIDIndex
    /// Rows added so far.
    private(set) var count = 0

    /// An inserter of rows of document `docID`; `cancellation` is asked after each batch.
    /// `idIndex`: the id index as the caller left it (dropped already for a known big run).
    init(_ db: Database, document docID: Int64, cancellation: Cancellation = .never, idIndex: DeferredIDIndex = DeferredIDIndex()) throws {
        self.db = db
        self.idIndex = idIndex
        self.docID = docID
        self.cancellation = cancellation
        var omittable = Set<String>()
        for column in try GRDB.Row.fetchAll(db, sql: "PRAGMA table_info(row)")
        where (column["notnull"] as Int) == 0 && (column["dflt_value"] as DatabaseValue).isNull {
            omittable.insert(column["name"])
        }
        var always: UInt64 = 0
        for (k, name) in ColumnCoding.configColumns.enumerated() where !omittable.contains(name) {
            always |= 1 << UInt64(k)
        }
        // (More config columns than bits: every statement names them all.)
        alwaysWritten = Self.configCount > 64 ? .max : always
        written = alwaysWritten
        let batch = RowWriter.bulkBatch
        ids.reserveCapacity(batch)
        parents.reserveCapacity(batch)
        keys.reserveCapacity(batch)
        values.reserveCapacity(batch * Self.configCount)
    }

    /// Adds the next row in document order; a full batch is written at once.
    /// - Throws: the SQL error of a batch (a NaN binds as NULL and is refused); `cancelled`.
    mutating func add(_ id: RowID, parent: RowID?, config: RowConfig) throws {
        let key = nextKey[parent] ?? Array(OrderKey.first.utf8)
        nextKey[parent] = OrderKey.next(after: key)
        try add(id, parent: parent, key: key, config: config)
    }

    /// Adds a row under an order key the caller chose (a run of rows inserted between two
    /// stored neighbours: `RowRunWriter`); a full batch is written at once.
    /// - Throws: as `add(_:parent:config:)`.
    mutating func add(_ id: RowID, parent: RowID?, key: [UInt8], config: RowConfig) throws {
        ids.append(id)
        parents.append(parent ?? "")
        keys.append(key)
        let first = values.count
        ColumnCoding.appendValues(config, to: &values)
        if written != .max {
            for k in 0..<Self.configCount where written & (1 << UInt64(k)) == 0 && !values[first + k].isNull {
                written |= 1 << UInt64(k)
            }
        }
        count += 1
        if ids.count == RowWriter.bulkBatch {
            try flush()
            try cancellation.check()
            try idIndex.rowsInserted(count, db)
        }
    }

    /// Writes the rows of the last, partial batch, and builds the id index if it was dropped.
    mutating func finish() throws {
        try flush()
        try idIndex.restore(db)
    }

    /// Writes the pending rows with one statement naming the columns they need.
    private mutating func flush() throws {
        let n = ids.count
        guard n > 0 else { return }
        let (statement, columns) = try self.statement(rows: n)
        let s = statement.sqliteStatement
        var i: Int32 = 1
        for r in 0..<n {
            var parent = parents[r], id = ids[r]
            sqlite3_bind_int64(s, i, docID)
            ColumnValue.bindText(&parent, to: s, at: i + 1)
            keys[r].withUnsafeBufferPointer { k in
                _ = sqlite3_bind_text(s, i + 2, UnsafeRawPointer(k.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(k.count),
                                      sqliteTransient)
            }
            ColumnValue.bindText(&id, to: s, at: i + 3)
            i += 4
            let first = r * Self.configCount
            for k in columns {
                values[first + k].bind(to: s, at: i)
                i += 1
            }
        }
        try step(s)
        ids.removeAll(keepingCapacity: true)
        parents.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        written = alwaysWritten
    }

    /// The INSERT of `rows` rows naming the config columns `written` says (kept for full batches).
    private mutating func statement(rows: Int) throws -> (statement: Statement, columns: [Int]) {
        let full = rows == RowWriter.bulkBatch
        if full, let known = statements[written] { return known }
        let columns = (0..<Self.configCount).filter { written == .max || written & (1 << UInt64($0)) != 0 }
        let names = Self.placeColumns + columns.map { ColumnCoding.configColumns[$0] }
        let tuple = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        let made = (try db.makeStatement(sql: "INSERT INTO row (\(names.joined(separator: ", "))) VALUES "
                                         + Array(repeating: tuple, count: rows).joined(separator: ", ")), columns)
        if full { statements[written] = made }
        return made
    }

    private func step(_ s: SQLiteStatement) throws {
        let rc = sqlite3_step(s)
        sqlite3_reset(s)
        guard rc == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                sql: sqlite3_sql(s).map { String(cString: $0) })
        }
    }
}
