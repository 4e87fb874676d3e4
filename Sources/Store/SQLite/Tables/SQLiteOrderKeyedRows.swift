import GRDB
import GRDBSQLite
import Layout

/// The `row` table as `OrderKeySpace` re-keys it (`OrderKeyedRows`): cached statements stepped
/// through the C API (GRDB's argument handling per row was most of the cost of a re-key).
struct SQLiteOrderKeyedRows: OrderKeyedRows {
    let db: Database
    let docID: Int64

    private static let range = "document = ? AND parent = ? AND order_key >= ? AND order_key < ?"

    func count(in parent: String, from: String, below: String) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM row WHERE \(Self.range)"), arguments: [docID, parent, from, below]) ?? 0
    }

    func forEachRow(in parent: String, from: String, below: String, _ body: (String, UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let select = try db.cachedStatement(sql: "SELECT id, order_key FROM row WHERE \(Self.range) ORDER BY order_key")
        try select.setArguments([docID, parent, from, below])
        let stmt = select.sqliteStatement
        defer { sqlite3_reset(stmt) }
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: select.sql)
            }
            let id = String(cString: sqlite3_column_text(stmt, 0))
            try body(id, UnsafeBufferPointer(start: sqlite3_column_text(stmt, 1), count: Int(sqlite3_column_bytes(stmt, 1))))
        }
    }

    func park(in parent: String, from: String, below: String, moving: RowID?) throws {
        try db.cachedStatement(sql: "UPDATE row SET order_key = '~' || id WHERE \(Self.range)").execute(arguments: [docID, parent, from, below])
        if let moving {
            try db.cachedStatement(sql: "UPDATE row SET order_key = '~' || id WHERE document = ? AND id = ?").execute(arguments: [docID, moving])
        }
    }

    func setKeys(_ keys: [(id: String, key: String)]) throws {
        let update = try db.cachedStatement(sql: "UPDATE row SET order_key = ? WHERE document = ? AND id = ?")
        let updateStmt = update.sqliteStatement
        defer { sqlite3_reset(updateStmt) }
        for (id, key) in keys {
            sqlite3_reset(updateStmt)
            sqlite3_bind_text(updateStmt, 1, key, -1, sqliteTransient)
            sqlite3_bind_int64(updateStmt, 2, docID)
            sqlite3_bind_text(updateStmt, 3, id, -1, sqliteTransient)
            let rc = sqlite3_step(updateStmt)
            if rc != SQLITE_DONE {
                throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: update.sql)
            }
        }
    }
}
