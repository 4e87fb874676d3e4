import GRDB
import Layout
import StoreFormat

/// The SQLite readers of `HistoryMoveLog` (Backends/HistoryMoveLog.swift): the changes of a range of
/// `op`/`restore` entries read from the `log` table, and every change one logged entry applied.
extension HistoryMoveLog {
    /// The row changes that moving `steps` applies: each step's `op`/`restore` entries, their
    /// changes forward (redo), or taken back newest first (undo), settings changes left out.
    static func rowChanges(_ db: Database, documentID: Int64, undo: Bool, steps: [ClosedRange<Int>], decoded: Decoded? = nil) throws -> [Change] {
        try rowChanges(undo: undo, steps: steps) { try opChanges(db, documentID: documentID, range: $0, inverse: undo, decoded: decoded) }
    }

    /// The changes of the `op`/`restore` entries of the step of log entries `range` (its first
    /// entry and the entries of the group it begins: not another session's between them), in
    /// log order: each entry's forward changes, or (`inverse`) the changes that take it back
    /// (the inverse of `forward`), each with its seq.
    static func opChanges(_ db: Database, documentID: Int64, range: ClosedRange<Int>, inverse: Bool, decoded: Decoded? = nil) throws -> [CursorWalk.Op] {
        let rows = try GRDB.Row.fetchCursor(db.cachedStatement(sql: """
            SELECT seq, forward, format FROM log
            WHERE document = ? AND seq BETWEEN ? AND ? AND kind IN ('op', 'restore') AND (seq = ? OR grp = ?) ORDER BY seq
            """), arguments: [documentID, range.lowerBound, range.upperBound, range.lowerBound, range.lowerBound])
        var out: [CursorWalk.Op] = []
        while let row = try rows.next() {
            let format: Int = try row.decode(forColumn: "format")
            let seq: Int = try row.decode(forColumn: "seq")
            let key = decoded?.key(seq, inverse: inverse)
            if let key, let known = decoded?.changes[key] {
                out.append((seq, known))
            } else {
                guard let changes = try LogFormat.changes(in: row, column: "forward", format: format, inverse: inverse) else {
                    throw StackDocError("forward is missing")
                }
                out.append((seq, changes))
            }
            if let key, decoded?.changes[key] == nil { decoded?.changes[key] = out.last?.changes }
        }
        return out
    }

    /// Every change a log entry applied (empty for entries that change nothing): `forward`, plus
    /// for an `undo`/`redo` the row changes of the steps it moved, first. `row` holds
    /// the entry's `kind`, `payload`, `forward` and `format`.
    static func applied(_ db: Database, documentID: Int64, row: GRDB.Row, decoded: Decoded? = nil) throws -> [Change] {
        let format: Int = try row.decode(forColumn: "format")
        return try applied(kind: try row.decode(forColumn: "kind"), payload: try row.decode(forColumn: "payload"),
                           logged: try LogFormat.changes(in: row, column: "forward", format: format) ?? []) { undo, range in
            try opChanges(db, documentID: documentID, range: range, inverse: undo, decoded: decoded)
        }
    }
}
