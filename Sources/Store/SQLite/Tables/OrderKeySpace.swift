import Foundation
import GRDB
import GRDBSQLite
import Layout
import StoreFormat

/// Keeps order keys at most `OrderKey.maxLength` bytes: the key of an inserted or moved row, and
/// — when the gap between its neighbours is used up — a re-keyed neighbourhood.
///
/// Repeated inserts at one place halve the same gap each time, so a plain midpoint grows the key
/// by one character every ~6 inserts. Instead, when the midpoint would be longer than the bound,
/// the rows of the smallest enclosing *prefix range* that is sparse enough are given new, evenly
/// spaced keys (list labeling, as in Bender et al., "Two simplified algorithms for maintaining
/// order in a list", on the 62-ary trie of keys):
///
/// - The range of prefix `P` holds every key of the stack that starts with `P`; its height is
///   `h = maxLength − |P|` (how many characters its keys may still add).
/// - It is sparse enough when it holds at most `(62 / 16)^h` rows, the new one included. Climbing
///   from the longest prefix of the midpoint towards its integer part finds the first such range.
/// - Its rows (in key order, the new row in its place) get keys `P` + d digits, evenly spaced,
///   with d just enough for every row plus one spare digit of gap.
///
/// After a re-key every sub-range holds 1/62 of the rows — a sixteenth of its own limit — so a
/// range is re-keyed again only after ~15/16 of its limit of inserts went into one of its
/// sub-ranges: each insert pays O(1) re-keyed rows per level, O(maxLength) in all (amortized),
/// and most inserts touch only their own row. Keys never depend on anything but the rows' order,
/// and the log records indexes, not keys, so re-keying changes nothing that is replayed.
enum OrderKeySpace {
    /// Density factor: a range of height h holds at most (62 / densityFactor)^h rows.
    static let densityFactor = 16.0

    /// The key for a row placed between the rows keyed `before` and `after` in stack `parent`,
    /// re-keying a neighbourhood first when the gap is used up. `moving` is the id of a row being
    /// moved (still stored under its old key, possibly in the neighbourhood): it is left out of
    /// the re-keying and parked on a temporary key until the caller stores it.
    static func key(between before: String?, _ after: String?, parent: String, moving: RowID?,
                    db: Database, docID: Int64) throws -> String {
        let midpoint = try OrderKey.between(before, after)
        let bytes = Array(midpoint.utf8)
        guard bytes.count > OrderKey.maxLength else { return midpoint }
        let integerLength = try OrderKey.integerLength(of: bytes)
        var length = min(bytes.count - 1, OrderKey.maxLength - 1)
        while length >= integerLength {
            let prefix = String(decoding: bytes[..<length], as: UTF8.self)
            let height = OrderKey.maxLength - length
            let limit = pow(62 / densityFactor, Double(height))
            let count = try Int.fetchOne(db.cachedStatement(sql: countSQL),
                                         arguments: [docID, parent, prefix, prefix + OrderKey.pastDigits]) ?? 0
            if Double(count + 1) <= limit {
                return try rekey(prefix: prefix, newKeyAt: midpoint, parent: parent, moving: moving, db: db, docID: docID)
            }
            length -= 1
        }
        throw StoreError.internal("the stack '\(parent)' has too many rows to key within \(OrderKey.maxLength) bytes")
    }

    private static let countSQL = "SELECT count(*) FROM row WHERE document = ? AND parent = ? AND order_key >= ? AND order_key < ?"

    /// Gives the rows of the prefix range (minus `moving`) and the new row evenly spaced keys
    /// under `prefix`, in their order; returns the new row's key.
    private static func rekey(prefix: String, newKeyAt midpoint: String, parent: String, moving: RowID?,
                              db: Database, docID: Int64) throws -> String {
        let upper = prefix + OrderKey.pastDigits
        let select = try db.cachedStatement(sql: """
            SELECT id, order_key FROM row WHERE document = ? AND parent = ? AND order_key >= ? AND order_key < ?
            ORDER BY order_key
            """)
        try select.setArguments([docID, parent, prefix, upper])
        let stmt = select.sqliteStatement
        var ids: [String] = []
        var newRowSlot = 0
        let midpointBytes = Array(midpoint.utf8)
        defer { sqlite3_reset(stmt) }
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: select.sql)
            }
            let id = String(cString: sqlite3_column_text(stmt, 0))
            if id == moving { continue }
            let key = UnsafeBufferPointer(start: sqlite3_column_text(stmt, 1), count: Int(sqlite3_column_bytes(stmt, 1)))
            if key.lexicographicallyPrecedes(midpointBytes) { newRowSlot += 1 }
            ids.append(id)
        }
        sqlite3_reset(stmt)
        let keys = try OrderKey.spread(ids.count + 1, under: prefix, height: OrderKey.maxLength - prefix.utf8.count)
        // Park the range (and the moving row) on temporary keys ('~' sorts after every digit and
        // no real key starts with it), so no new key collides with an old one.
        try db.cachedStatement(sql: """
            UPDATE row SET order_key = '~' || id WHERE document = ? AND parent = ? AND order_key >= ? AND order_key < ?
            """).execute(arguments: [docID, parent, prefix, upper])
        if let moving {
            try db.cachedStatement(sql: "UPDATE row SET order_key = '~' || id WHERE document = ? AND id = ?").execute(arguments: [docID, moving])
        }
        // One prepared statement stepped through the C API (GRDB's argument handling per row
        // was most of the cost of a re-key).
        let update = try db.cachedStatement(sql: "UPDATE row SET order_key = ? WHERE document = ? AND id = ?")
        let updateStmt = update.sqliteStatement
        for (i, id) in ids.enumerated() {
            sqlite3_reset(updateStmt)
            sqlite3_bind_text(updateStmt, 1, keys[i < newRowSlot ? i : i + 1], -1, sqliteTransient)
            sqlite3_bind_int64(updateStmt, 2, docID)
            sqlite3_bind_text(updateStmt, 3, id, -1, sqliteTransient)
            let rc = sqlite3_step(updateStmt)
            if rc != SQLITE_DONE {
                sqlite3_reset(updateStmt)
                throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: update.sql)
            }
        }
        sqlite3_reset(updateStmt)
        return keys[newRowSlot]
    }
}
