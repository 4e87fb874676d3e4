import Foundation
import GRDB
import GRDBSQLite
import Layout

/// Inserts rows given in document order (a stack row before its rows, each stack's rows in
/// order) as a document's current rows (`import_seq` 0): `RowWriter.bulkBatch` rows per INSERT
/// statement, raw C API, each stack's order keys `OrderKey.sequence` handed out as its rows come
/// (so the rows can arrive while a file is still being read). The import's bulk path
/// (`RowWriter.bulkInsert`, `DocumentStore.importDocument(reading:)`). A large insert builds the
/// id index once at the end instead of row by row (`DeferredIDIndex`).
struct BulkRowInserter {
    private static let columns = ["document", "parent", "order_key", "id"] + ColumnCoding.configColumns
    private let db: Database
    private let docID: Int64
    private let full: Statement
    private let cancellation: Cancellation
    private var pending = 0
    /// The rows of the batch not yet stepped, for a last, shorter statement.
    private var tail: [(id: RowID, parent: RowID?, key: [UInt8], config: RowConfig)] = []
    /// The next order key of each stack that has rows so far.
    private var nextKey: [RowID?: [UInt8]] = [:]
    /// Rows inserted (or bound) so far.
    private(set) var count = 0
    private var idIndex = DeferredIDIndex()

    /// An inserter of rows of document `docID`; `cancellation` is asked after each batch.
    init(_ db: Database, document docID: Int64, cancellation: Cancellation = .never) throws {
        self.db = db
        self.docID = docID
        self.cancellation = cancellation
        full = try Self.statement(db, rows: RowWriter.bulkBatch)
        tail.reserveCapacity(RowWriter.bulkBatch)
    }

    private static func statement(_ db: Database, rows n: Int) throws -> Statement {
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return try db.makeStatement(sql: "INSERT INTO row (\(columns.joined(separator: ", "))) VALUES "
                                    + Array(repeating: tuple, count: n).joined(separator: ", "))
    }

    /// Adds the next row in document order; a full batch is written at once.
    /// - Throws: the SQL error of a batch (a NaN binds as NULL and is refused); `cancelled`.
    mutating func add(_ id: RowID, parent: RowID?, config: RowConfig) throws {
        let key = nextKey[parent] ?? Array(OrderKey.first.utf8)
        nextKey[parent] = OrderKey.next(after: key)
        let s = full.sqliteStatement
        bind(s, pending, id, parent, key, config)
        tail.append((id, parent, key, config))
        pending += 1
        count += 1
        if pending == RowWriter.bulkBatch {
            try step(s)
            pending = 0
            tail.removeAll(keepingCapacity: true)
            try cancellation.check()
            try idIndex.rowsInserted(count, db)
        }
    }

    /// Writes the rows of the last, partial batch (and the id index, if it was dropped).
    mutating func finish() throws {
        sqlite3_clear_bindings(full.sqliteStatement)
        if !tail.isEmpty {
            let last = try Self.statement(db, rows: tail.count)
            for (slot, row) in tail.enumerated() { bind(last.sqliteStatement, slot, row.id, row.parent, row.key, row.config) }
            try step(last.sqliteStatement)
            pending = 0
            tail.removeAll()
        }
        try idIndex.restore(db)
    }

    private func bind(_ s: SQLiteStatement, _ slot: Int, _ id: RowID, _ parent: RowID?, _ key: [UInt8], _ config: RowConfig) {
        var i = Int32(slot * Self.columns.count + 1)
        var parentText = parent ?? "", idText = id
        sqlite3_bind_int64(s, i, docID); i += 1
        ColumnValue.bindText(&parentText, to: s, at: i); i += 1
        key.withUnsafeBufferPointer { k in
            _ = sqlite3_bind_text(s, i, UnsafeRawPointer(k.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(k.count), sqliteTransient)
        }
        i += 1
        ColumnValue.bindText(&idText, to: s, at: i); i += 1
        ColumnCoding.bind(config, to: s, at: i)
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
