import Foundation
import GRDB
import Layout

/// The `log` table: appending entries and reading them back as `LogEntry` values and change
/// lists. A stored entry that does not decode is damage (`decoding`).
extension SQLiteTransaction {
    func lastSeq(_ doc: DocumentKey) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT max(seq) FROM log WHERE document = ?", arguments: [doc.id]) ?? 0
    }

    func appendLog(_ doc: DocumentKey, _ entry: NewLogEntry) throws {
        try LogWriter.append(db, document: doc.id, seq: entry.seq, kind: entry.kind, payload: entry.payload, forward: entry.forward,
                             forwardBlob: entry.forwardBlob, group: entry.group, label: entry.label, origin: entry.origin)
    }

    func deleteLog(_ doc: DocumentKey, from seq: Int) throws {
        try db.execute(sql: "DELETE FROM log WHERE document = ? AND seq >= ?", arguments: [doc.id, seq])
    }

    func deleteLog(_ doc: DocumentKey, through seq: Int) throws -> Int {
        try db.execute(sql: "DELETE FROM log WHERE document = ? AND seq <= ?", arguments: [doc.id, seq])
        return db.changesCount
    }

    func setPayload(_ doc: DocumentKey, seq: Int, _ payload: String) throws {
        try db.execute(sql: "UPDATE log SET payload = ? WHERE document = ? AND seq = ?", arguments: [payload, doc.id, seq])
    }

    func deleteImportImages(_ doc: DocumentKey, through seq: Int) throws {
        try Snapshots.dropImportImages(db, documentID: doc.id, through: seq)
    }

    func logEntries(_ doc: DocumentKey, from seq: Int, limit: Int?) throws -> [LogEntry] {
        try GRDB.Row.fetchAll(db, sql: """
            SELECT seq, kind, payload, forward, grp, label, time, format, origin FROM log
            WHERE document = ? AND seq >= ? ORDER BY seq LIMIT ?
            """, arguments: [doc.id, seq, limit ?? -1]).map { try self.entry($0, doc) }
    }

    func forEachLogEntry(_ doc: DocumentKey, from first: Int, through last: Int, _ body: (LogEntry) throws -> Void) throws {
        let cursor = try GRDB.Row.fetchCursor(db, sql: """
            SELECT seq, kind, payload, forward, grp, label, time, format, origin FROM log WHERE document = ? AND seq >= ? AND seq <= ? ORDER BY seq
            """, arguments: [doc.id, first, last])
        while let row = try cursor.next() { try body(try entry(row, doc)) }
    }

    func labelAndOrigin(_ doc: DocumentKey, seq: Int) throws -> (label: String?, origin: String?)? {
        try GRDB.Row.fetchOne(db.cachedStatement(sql: "SELECT label, origin FROM log WHERE document = ? AND seq = ?"), arguments: [doc.id, seq])
            .map { (label: try $0.decode(forColumn: "label"), origin: try $0.decode(forColumn: "origin")) }
    }

    func markSeq(_ doc: DocumentKey, label: String) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT seq FROM log WHERE document = ? AND kind = 'mark' AND label = ?"), arguments: [doc.id, label])
    }

    func markEntries(_ doc: DocumentKey, label: String?) throws -> [LogEntry] {
        let rows = try label.map {
            try GRDB.Row.fetchAll(db.cachedStatement(sql: """
                SELECT seq, kind, payload, NULL AS forward, grp, label, time, format, origin FROM log
                WHERE document = ? AND kind = 'mark' AND label = ?
                """), arguments: [doc.id, $0])
        } ?? GRDB.Row.fetchAll(db.cachedStatement(sql: """
            SELECT seq, kind, payload, NULL AS forward, grp, label, time, format, origin FROM log
            WHERE document = ? AND kind = 'mark' ORDER BY seq
            """), arguments: [doc.id])
        return try rows.map { try self.entry($0, doc) }
    }

    func restoreTargets(_ doc: DocumentKey, after seq: Int) throws -> [(seq: Int, target: Int)] {
        try GRDB.Row.fetchAll(db, sql: "SELECT seq, payload FROM log WHERE document = ? AND kind = 'restore' AND seq > ?", arguments: [doc.id, seq]).map { row in
            let seq: Int = try row.decode(forColumn: "seq")
            return try decoding(doc, seq) { () throws -> (seq: Int, target: Int)? in
                // A compensating step's restore entry names steps, not a target.
                let payload: String? = try row.decode(forColumn: "payload")
                guard try HistoryPayload.revert(payload) == nil else { return nil }
                return (seq, try HistoryPayload.restoreTarget(payload))
            }
        }.compactMap { $0 }
    }

    func importSettings(_ doc: DocumentKey, seq: Int) throws -> DocumentSettings? {
        guard let entry = try GRDB.Row.fetchOne(db, sql: "SELECT payload, format FROM log WHERE document = ? AND seq = ? AND kind = 'import'",
                                                arguments: [doc.id, seq]) else { return nil }
        return try decoding(doc, seq) {
            try LogFormat.decodeSettings(try entry.decode(forColumn: "payload"), format: try LogFormat.current(try entry.decode(forColumn: "format")))
        }
    }

    func groupChangedDocument(_ doc: DocumentKey, groupSeq: Int) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT 1 FROM log WHERE document = ? AND grp = ? AND kind IN ('op', 'restore') AND forward != ? LIMIT 1
            """, arguments: [doc.id, groupSeq, Data(ChangeBlob.empty)]) ?? false
    }

    func firstRollback(_ doc: DocumentKey, after seq: Int) throws -> Int? {
        try Int.fetchOne(db, sql: """
            SELECT seq FROM log WHERE document = ? AND seq > ? AND kind = 'commit' AND forward IS NOT NULL ORDER BY seq LIMIT 1
            """, arguments: [doc.id, seq])
    }

    func inverses(_ doc: DocumentKey, group groupSeq: Int) throws -> [[Change]] {
        try GRDB.Row.fetchAll(db, sql: """
            SELECT seq, forward, format FROM log WHERE document = ? AND grp = ? AND kind IN ('op', 'view', 'restore') ORDER BY seq DESC
            """, arguments: [doc.id, groupSeq]).map { entry in
            try decoding(doc, try? entry.decode(Int.self, forColumn: "seq")) { () throws -> [Change] in
                let format: Int = try entry.decode(forColumn: "format")
                guard let inverse = try LogFormat.changes(in: entry, column: "forward", format: format, inverse: true) else {
                    throw StackDocError("forward is missing")
                }
                return inverse
            }
        }
    }

    func appliedChanges(_ doc: DocumentKey, after: Int, through: Int) throws -> [(seq: Int, changes: [Change])] {
        let rows = try GRDB.Row.fetchCursor(db.cachedStatement(sql: """
            SELECT seq, kind, payload, forward, format FROM log WHERE document = ? AND seq > ? AND seq <= ? AND forward IS NOT NULL ORDER BY seq
            """), arguments: [doc.id, after, through])
        var result: [(Int, [Change])] = []
        let decoded = HistoryMoveLog.Decoded()
        while let row = try rows.next() {
            let seq: Int = try row.decode(forColumn: "seq")
            let changes = try decoding(doc, seq) { try HistoryMoveLog.applied(db, documentID: doc.id, row: row, decoded: decoded) }
            if !changes.isEmpty { result.append((seq, changes)) }
        }
        return result
    }

    func tailChanges(_ doc: DocumentKey, after: Int, through: Int) throws -> (entries: Int, changes: [[Change]]) {
        try Snapshots.tailChanges(db, documentID: doc.id, after: after, through: through)
    }

    func stepEntries(_ doc: DocumentKey, in range: ClosedRange<Int>) throws -> [StepEntry] {
        try GRDB.Row.fetchAll(db.cachedStatement(sql: """
            SELECT seq, kind, payload, format FROM log WHERE document = ? AND seq BETWEEN ? AND ? AND kind IN ('op', 'restore')
            AND (seq = ? OR grp = ?) ORDER BY seq
            """), arguments: [doc.id, range.lowerBound, range.upperBound, range.lowerBound, range.lowerBound]).map { op in
            try decoding(doc, try? op.decode(Int.self, forColumn: "seq")) {
                if try op.decode(String.self, forColumn: "kind") == LogEntry.Kind.restore.rawValue {
                    let payload: String? = try op.decode(forColumn: "payload")
                    if let revert = try HistoryPayload.revert(payload) { return .revert(StepRevert(undo: revert.undo, steps: revert.steps)) }
                    return .restore(target: try HistoryPayload.restoreTarget(payload))
                }
                return .edit(try LogFormat.decodeEdit(try op.decode(forColumn: "payload"), format: try LogFormat.current(try op.decode(forColumn: "format"))))
            }
        }
    }

    func operationChanges(_ doc: DocumentKey, in range: ClosedRange<Int>, inverse: Bool) throws -> [CursorWalk.Op] {
        try decoding(doc, range.lowerBound) {
            try HistoryMoveLog.opChanges(db, documentID: doc.id, range: range, inverse: inverse)
        }
    }
}

extension SQLiteTransaction {
    /// Runs `body`, which decodes log entry `seq` of `doc`: any failure means the entry is
    /// damaged. The error names the document and the entry and says how to save the work; it is
    /// the file's damage (`noteDamage`: the store writes nothing more).
    func decoding<T>(_ doc: DocumentKey, _ seq: Int?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError where StoreError.corruption(in: error, path: path) != nil {
            throw error
        } catch {
            throw noteDamage(StoreError.damagedLogEntry(path, document: doc.name, seq: seq ?? 0, error))
        }
    }

    /// The entry of `row`, a row of `doc`'s log.
    func entry(_ row: GRDB.Row, _ doc: DocumentKey) throws -> LogEntry {
        try decoding(doc, try? row.decode(Int.self, forColumn: "seq")) { try LogDecoding.decode(row) }
    }
}

/// Turns `log` rows into `LogEntry` values (`LogEntryDecoding`).
enum LogDecoding {
    static func decode(_ row: GRDB.Row) throws -> LogEntry {
        let format = try LogFormat.current(try row.decode(forColumn: "format"))
        return try decode(row, payload: try row.decode(forColumn: "payload"), forward: try LogFormat.changes(in: row, column: "forward", format: format))
    }

    /// The entry of `row` with its payload and changes as given, in today's format (migration
    /// 0020 gives those of an older entry converted).
    static func decode(_ row: GRDB.Row, payload: String?, forward: [Change]?) throws -> LogEntry {
        try LogEntryDecoding.decode(StoredLogRow(
            seq: try row.decode(forColumn: "seq"), kind: try row.decode(forColumn: "kind"), payload: payload,
            group: try row.decode(forColumn: "grp"), label: try row.decode(forColumn: "label"), time: try row.decode(forColumn: "time"),
            format: LogFormat.version, origin: try row.decode(forColumn: "origin"),
            changes: { $0 == "forward" ? forward : nil }))
    }
}
