import GRDB
import GRDBSQLite
import Layout

/// Loads a document's rows from `row` (or an import's rows from `import_row`) into a
/// `Document`: one sequential scan in (parent, order_key) order through the raw C API (no
/// per-row record decoding), then the stacks are filled from the root down.
enum RowLoader {
    static func load(_ db: Database, name: String, settings: DocumentSettings, documentID: Int64,
                     importSeq: Int? = nil, path: String) throws -> Document {
        let columns = (["parent", "id"] + ColumnCoding.configColumns).joined(separator: ", ")
        let sql = importSeq == nil
            ? "SELECT \(columns) FROM row WHERE document = ? ORDER BY parent, order_key"
            : "SELECT \(columns) FROM import_row WHERE document = ? AND seq = ? ORDER BY parent, order_key"
        let statement = try db.makeStatement(sql: sql)
        let stmt = statement.sqliteStatement
        sqlite3_bind_int64(stmt, 1, documentID)
        if let importSeq { sqlite3_bind_int64(stmt, 2, Int64(importSeq)) }
        defer { sqlite3_reset(stmt) }

        var document = Document(name: name, settings: settings)
        let counts = importSeq == nil
            ? "SELECT count(*), count(*) FILTER (WHERE parent = '') FROM row WHERE document = ?"
            : "SELECT count(*), count(*) FILTER (WHERE parent = '') FROM import_row WHERE document = ? AND seq = ?"
        if let row = try GRDB.Row.fetchOne(db, sql: counts, arguments: importSeq == nil ? [documentID] : [documentID, importSeq]) {
            document.reserveCapacity(rows: row[0], rootRows: row[1])
        }
        // Rows of the root are inserted as they come; rows of nested stacks wait until their
        // stack row is in the document.
        var pending: [RowID: [(RowID, RowConfig)]] = [:]
        var stacks: [RowID] = []
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: rc),
                                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            let parent = ColumnCoding.string(stmt, 0) ?? ""
            guard let id = ColumnCoding.string(stmt, 1) else { throw StoreFailure.corrupt(path, "a row of '\(name)' has no id") }
            let config = try ColumnCoding.readConfig(stmt, at: 2)
            if parent.isEmpty {
                try document.appendRow(id, config: config, parent: nil)
                if config.stack != nil { stacks.append(id) }
            } else {
                pending[parent, default: []].append((id, config))
            }
        }
        while let stack = stacks.popLast() {
            guard let rows = pending.removeValue(forKey: stack) else { continue }
            for (id, config) in rows {
                try document.appendRow(id, config: config, parent: stack)
                if config.stack != nil { stacks.append(id) }
            }
        }
        if let (parent, rows) = pending.first {
            throw StoreFailure.corrupt(path, "row '\(rows[0].0)' of '\(name)' sits in '\(parent)', which is not a stack of the document")
        }
        return document
    }
}
