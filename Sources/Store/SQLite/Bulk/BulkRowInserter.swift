import Foundation
import GRDB
import GRDBSQLite
import Layout
import StoreFormat

/// Inserts rows given in document order (a stack row before its rows, each stack's rows in
/// order) as a document's current rows: `RowWriter.bulkBatch` rows per INSERT
/// statement, raw C API, each stack's order keys `OrderKey.sequence` handed out as its rows come
/// (so the rows can arrive while a file is still being read), or keys the caller gives. The
/// import's bulk path (`RowWriter.bulkInsert`, `DocumentStore.importDocument(reading:)`) and
/// that of a long run of rows inserted side by side by one write (`RowRunWriter`).
///
/// Three things keep a large insert cheap: a batch's statement names only the config columns some
/// row of the batch has a value for — a column left out stores NULL, as its value would (only
/// columns that are nullable with no default are ever left out, as the table says; most rows
/// set few of the optional fields, and every column named costs SQLite a copy and a bind per
/// row) — a large insert builds the id index once at the end (`DeferredIDIndex`), and each
/// statement is `INSERT OR ROLLBACK`.
///
/// Why `OR ROLLBACK`: a statement that writes several rows and may fail a constraint with the
/// default `ABORT` must be undone alone, so SQLite keeps a statement journal for it: a temporary
/// file holding the pages each statement changes. At 1M rows that was ≈ 186,000 writes (381 MB)
/// to it and ≈ 0.3 s of system time (RESULTS.md, 2026-11-28). No constraint of `row` can fail
/// here unless the file or this program is wrong (the keys are new, the ids checked before), and
/// every caller lets such a failure end its transaction anyway; `ROLLBACK` ends it at once, which
/// needs no statement journal. (GRDB's own rollback after it is a no-op.)
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
    /// The statements of full batches, by the config columns they name and the values they
    /// bind once (`EncodedRows.valuesShared`), with their binding.
    private var statements: [StatementKey: (statement: Statement, binding: EncodedRows.Binding)] = [:]
    private struct StatementKey: Hashable {
        var named: UInt64
        var shared: UInt64
    }
    /// Statements of full batches kept at most (each variant of shared values is one; past
    /// these, a batch binds every value of every row).
    private static let statementLimit = 32
    /// The rows added one by one and not yet written (`EncodedRows`).
    private var pending = EncodedRows(capacity: RowWriter.bulkBatch)
    /// The order keys of rows added without one.
    private var stackKeys = StackKeys()
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
    }

    /// Adds the next row in document order (its order key the next of its stack,
    /// `StackKeys`); a full batch is written at once.
    /// - Throws: the SQL error of a batch (a NaN binds as NULL and is refused); `cancelled`.
    mutating func add(_ id: RowID, parent: RowID?, config: RowConfig) throws {
        try add(id, parent: parent, key: stackKeys.key(in: parent), config: config)
    }

    /// Adds a row under an order key the caller chose (a run of rows inserted between two
    /// stored neighbours: `RowRunWriter`); a full batch is written at once.
    /// - Throws: as `add(_:parent:config:)`.
    mutating func add(_ id: RowID, parent: RowID?, key: some Collection<UInt8>, config: RowConfig) throws {
        pending.append(id, parent: parent, key: key, config: config)
        if pending.count == RowWriter.bulkBatch {
            try write(pending)
            pending.removeAll()
        }
    }

    /// Adds rows encoded already (an import's reading thread encodes them, keyed by its own
    /// `StackKeys`, so rows are given either all this way or all one by one), written at once.
    /// - Throws: as `add(_:parent:config:)`.
    mutating func add(_ rows: EncodedRows) throws {
        try write(pending)
        pending.removeAll()
        try write(rows)
    }

    /// Writes the rows of the last, partial batch, and builds the id index if it was dropped.
    mutating func finish() throws {
        try write(pending)
        pending.removeAll()
        try idIndex.restore(db)
    }

    /// Writes `rows`, `RowWriter.bulkBatch` a statement, each statement naming the columns its
    /// rows need; asks `cancellation` and the id index after each.
    private mutating func write(_ rows: EncodedRows) throws {
        var low = 0
        while low < rows.count {
            let range = low..<min(low + RowWriter.bulkBatch, rows.count)
            let (statement, binding) = try self.statement(rows: range.count, naming: alwaysWritten | rows.columnsSet(range),
                                                          sharing: rows.valuesShared(range))
            let s = statement.sqliteStatement
            try rows.bind(range, document: docID, binding: binding, to: s) { try step(s) }
            count += range.count
            low = range.upperBound
            try cancellation.check()
            try idIndex.rowsInserted(count, db)
        }
    }

    /// The INSERT of `rows` rows naming the config columns `written` says, binding once the
    /// values `shared` says (`EncodedRows.valuesShared`: those every row has alike, numbered
    /// parameters `?N` that each row's tuple repeats) and the rest row by row (kept for full
    /// batches). A plain batch binds 3 values a row instead of 17: binding is SQLite's
    /// second cost of an import after the inserts themselves.
    private mutating func statement(rows: Int, naming written: UInt64, sharing shared: UInt64) throws
        -> (statement: Statement, binding: EncodedRows.Binding) {
        let full = rows == RowWriter.bulkBatch
        var key = StatementKey(named: written, shared: shared)
        if full {
            if let known = statements[key] { return known }
            if statements.count >= Self.statementLimit {
                key.shared = 0
                if let known = statements[key] { return known }
            }
        }
        let columns = (0..<Self.configCount).filter { written == .max || written & (1 << UInt64($0)) != 0 }
        let names = Self.placeColumns + columns.map { ColumnCoding.configColumns[$0] }
        func isShared(_ value: Int) -> Bool {
            value == 0 ? key.shared & EncodedRows.parentBit != 0 : value >= 3 && key.shared & (1 << UInt64(value - 3)) != 0
        }
        // The values of each named column after the document: parent, order key, id, columns.
        let named = [0, 1, 2] + columns.map { 3 + $0 }
        let binding = EncodedRows.Binding(perRow: named.filter { !isShared($0) }, shared: named.filter(isShared))
        let document = rows * binding.perRow.count + 1
        var parameter: [Int: Int] = [:]  // value → the number of its shared parameter
        for (i, value) in binding.shared.enumerated() { parameter[value] = document + 1 + i }
        let tuples = (0..<rows).map { r in
            var perRow = r * binding.perRow.count
            let items = ["?\(document)"] + named.map { value -> String in
                if let shared = parameter[value] { return "?\(shared)" }
                perRow += 1
                return "?\(perRow)"
            }
            return "(" + items.joined(separator: ", ") + ")"
        }
        let made = (try db.makeStatement(sql: "INSERT OR ROLLBACK INTO row (\(names.joined(separator: ", "))) VALUES " + tuples.joined(separator: ", ")),
                    binding)
        if full { statements[key] = made }
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
