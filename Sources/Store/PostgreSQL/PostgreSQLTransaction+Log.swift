import Foundation
import Layout
import StoreFormat

/// The `log` table: appending entries and reading them back as `LogEntry` values and change
/// lists. Change lists are `bytea`: `ChangeBlob` bytes of today's format (the only one this
/// backend has ever written); no entry stores its inverse. A stored entry that does not decode
/// is damage.
extension PostgreSQLTransaction {
    /// The columns every read of whole entries selects, in `entry(_:_:_:)`'s order.
    static func entryColumns(forward: Bool = true) -> String {
        "seq, kind, payload, \(forward ? "forward" : "NULL::bytea"), grp, label, time, format, origin"
    }

    func lastSeq(_ doc: DocumentKey) throws -> Int {
        try int("SELECT coalesce(max(seq), 0) FROM log WHERE document = $1", [.int(doc.id)]) ?? 0
    }

    func appendLog(_ doc: DocumentKey, _ entry: NewLogEntry) throws {
        let forward = try entry.forward.map { PostgreSQLValue.bytes(try entry.forwardBlob ?? ChangeBlob.encode($0)) }
        try later("""
            INSERT INTO log (document, seq, kind, payload, forward, grp, label, time, format, origin)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
            """, [.int(doc.id), .int(Int64(entry.seq)), .text(entry.kind.rawValue), entry.payload.map { .text($0) },
                  forward, entry.group.map { .int(Int64($0)) },
                  entry.label.map { .text($0) }, .double(Date.now.timeIntervalSince1970), .int(Int64(LogFormat.version)), entry.origin.map { .text($0) }])
    }

    func deleteLog(_ doc: DocumentKey, from seq: Int) throws {
        try later("DELETE FROM log WHERE document = $1 AND seq >= $2", [.int(doc.id), .int(Int64(seq))])
    }

    func deleteLog(_ doc: DocumentKey, through seq: Int) throws -> Int {
        try query("DELETE FROM log WHERE document = $1 AND seq <= $2", [.int(doc.id), .int(Int64(seq))]).affected
    }

    func setPayload(_ doc: DocumentKey, seq: Int, _ payload: String) throws {
        try later("UPDATE log SET payload = $1 WHERE document = $2 AND seq = $3", [.text(payload), .int(doc.id), .int(Int64(seq))])
    }

    func deleteImportImages(_ doc: DocumentKey, through seq: Int) throws {
        // Except an image a kept snapshot refers to (the base of a history compacted right after its import).
        try later("""
            DELETE FROM import_image i WHERE document = $1 AND seq <= $2 AND NOT EXISTS
                (SELECT 1 FROM snapshot s WHERE s.document = i.document AND s.seq = i.seq AND s.image IS NULL)
            """, [.int(doc.id), .int(Int64(seq))])
    }

    func logEntries(_ doc: DocumentKey, from seq: Int, limit: Int?) throws -> [LogEntry] {
        let rows = try query("SELECT \(Self.entryColumns()) FROM log WHERE document = $1 AND seq >= $2 ORDER BY seq LIMIT $3",
                             [.int(doc.id), .int(Int64(seq)), limit.map { .int(Int64($0)) }])
        return try (0..<rows.count).map { try entry(rows, $0, doc) }
    }

    func forEachLogEntry(_ doc: DocumentKey, from first: Int, through last: Int, _ body: (LogEntry) throws -> Void) throws {
        // In pages, so that a replay of a long log holds one page of entries at a time.
        var next = first
        while next <= last {
            let rows = try query("SELECT \(Self.entryColumns()) FROM log WHERE document = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq LIMIT 256",
                                 [.int(doc.id), .int(Int64(next)), .int(Int64(last))])
            if rows.count == 0 { return }
            for r in 0..<rows.count {
                let entry = try entry(rows, r, doc)
                try body(entry)
                next = entry.seq + 1
            }
        }
    }

    func labelAndOrigin(_ doc: DocumentKey, seq: Int) throws -> (label: String?, origin: String?)? {
        let rows = try query("SELECT label, origin FROM log WHERE document = $1 AND seq = $2", [.int(doc.id), .int(Int64(seq))])
        return rows.count == 0 ? nil : (label: rows.string(0, 0), origin: rows.string(0, 1))
    }

    func markSeq(_ doc: DocumentKey, label: String) throws -> Int? {
        try int("SELECT seq FROM log WHERE document = $1 AND kind = 'mark' AND label = $2", [.int(doc.id), .text(label)])
    }

    func markEntries(_ doc: DocumentKey, label: String?) throws -> [LogEntry] {
        let columns = Self.entryColumns(forward: false)
        let rows = try label.map {
            try query("SELECT \(columns) FROM log WHERE document = $1 AND kind = 'mark' AND label = $2", [.int(doc.id), .text($0)])
        } ?? query("SELECT \(columns) FROM log WHERE document = $1 AND kind = 'mark' ORDER BY seq", [.int(doc.id)])
        return try (0..<rows.count).map { try entry(rows, $0, doc) }
    }

    func restoreTargets(_ doc: DocumentKey, after seq: Int) throws -> [(seq: Int, target: Int)] {
        let rows = try query("SELECT seq, payload FROM log WHERE document = $1 AND kind = 'restore' AND seq > $2 ORDER BY seq",
                             [.int(doc.id), .int(Int64(seq))])
        return try (0..<rows.count).compactMap { r in
            let seq = Int(rows.int(r, 0) ?? 0)
            return try decoding(doc, seq) { () throws -> (seq: Int, target: Int)? in
                // A compensating step's restore entry names steps, not a target.
                guard try HistoryPayload.revert(rows.string(r, 1)) == nil else { return nil }
                return (seq, try HistoryPayload.restoreTarget(rows.string(r, 1)))
            }
        }
    }

    func importSettings(_ doc: DocumentKey, seq: Int) throws -> DocumentSettings? {
        let rows = try query("SELECT payload, format FROM log WHERE document = $1 AND seq = $2 AND kind = 'import'", [.int(doc.id), .int(Int64(seq))])
        guard rows.count > 0 else { return nil }
        return try decoding(doc, seq) { try LogFormat.decodeSettings(rows.string(0, 0), format: Int(rows.int(0, 1) ?? 0)) }
    }

    func groupChangedDocument(_ doc: DocumentKey, groupSeq: Int) throws -> Bool {
        try int("""
            SELECT 1 FROM log WHERE document = $1 AND grp = $2 AND kind IN ('op', 'restore') AND forward <> $3 AND forward <> '[]'::bytea LIMIT 1
            """, [.int(doc.id), .int(Int64(groupSeq)), .bytes(ChangeBlob.empty)]) != nil
    }

    func firstRollback(_ doc: DocumentKey, after seq: Int) throws -> Int? {
        try int("""
            SELECT seq FROM log WHERE document = $1 AND seq > $2 AND kind = 'commit' AND forward IS NOT NULL ORDER BY seq LIMIT 1
            """, [.int(doc.id), .int(Int64(seq))])
    }

    func inverses(_ doc: DocumentKey, group groupSeq: Int) throws -> [[Change]] {
        let rows = try query("""
            SELECT seq, forward, format FROM log WHERE document = $1 AND grp = $2 AND kind IN ('op', 'view', 'restore') ORDER BY seq DESC
            """, [.int(doc.id), .int(Int64(groupSeq))])
        return try (0..<rows.count).map { r in
            let format = Int(rows.int(r, 2) ?? 0)
            return try decoding(doc, Int(rows.int(r, 0) ?? 0)) {
                guard let inverse = try Self.changes(rows, r, 1, format: format, inverse: true) else { throw StackDocError("forward is missing") }
                return inverse
            }
        }
    }

    func appliedChanges(_ doc: DocumentKey, after: Int, through: Int) throws -> [(seq: Int, changes: [Change])] {
        let rows = try query("""
            SELECT seq, kind, payload, forward, format FROM log WHERE document = $1 AND seq > $2 AND seq <= $3 AND forward IS NOT NULL ORDER BY seq
            """, [.int(doc.id), .int(Int64(after)), .int(Int64(through))])
        var result: [(Int, [Change])] = []
        let decoded = HistoryMoveLog.Decoded()
        for r in 0..<rows.count {
            let seq = Int(rows.int(r, 0) ?? 0)
            let changes = try decoding(doc, seq) { try applied(rows, r, doc, decoded: decoded) }
            if !changes.isEmpty { result.append((seq, changes)) }
        }
        return result
    }

    func stepEntries(_ doc: DocumentKey, in range: ClosedRange<Int>) throws -> [StepEntry] {
        let rows = try query("""
            SELECT seq, kind, payload, format FROM log WHERE document = $1 AND seq BETWEEN $2 AND $3 AND kind IN ('op', 'restore')
            AND (seq = $2 OR grp = $2) ORDER BY seq
            """, [.int(doc.id), .int(Int64(range.lowerBound)), .int(Int64(range.upperBound))])
        return try (0..<rows.count).map { r in
            try decoding(doc, Int(rows.int(r, 0) ?? 0)) {
                if rows.string(r, 1) == LogEntry.Kind.restore.rawValue {
                    if let revert = try HistoryPayload.revert(rows.string(r, 2)) { return .revert(StepRevert(undo: revert.undo, steps: revert.steps)) }
                    return .restore(target: try HistoryPayload.restoreTarget(rows.string(r, 2)))
                }
                return .edit(try LogFormat.decodeEdit(rows.string(r, 2), format: Int(rows.int(r, 3) ?? 0)))
            }
        }
    }

    func operationChanges(_ doc: DocumentKey, in range: ClosedRange<Int>, inverse: Bool) throws -> [CursorWalk.Op] {
        try decoding(doc, range.lowerBound) { try opChanges(doc, range: range, inverse: inverse) }
    }

    // MARK: Decoding

    /// The changes of the `op`/`restore` entries of the step of log entries `range` (its first
    /// entry and its group's: not another session's between them), in log order: forward, or
    /// (`inverse`) forward's inverse (`HistoryMoveLog.opChanges`), each with its seq.
    func opChanges(_ doc: DocumentKey, range: ClosedRange<Int>, inverse: Bool, decoded: HistoryMoveLog.Decoded? = nil) throws -> [CursorWalk.Op] {
        let rows = try query("""
            SELECT seq, forward, format FROM log
            WHERE document = $1 AND seq BETWEEN $2 AND $3 AND kind IN ('op', 'restore') AND (seq = $2 OR grp = $2) ORDER BY seq
            """, [.int(doc.id), .int(Int64(range.lowerBound)), .int(Int64(range.upperBound))])
        return try (0..<rows.count).map { r in
            let format = Int(rows.int(r, 2) ?? 0)
            let seq = Int(rows.int(r, 0) ?? 0)
            let key = decoded?.key(seq, inverse: inverse)
            if let key, let known = decoded?.changes[key] { return (seq, known) }
            guard let changes = try Self.changes(rows, r, 1, format: format, inverse: inverse) else { throw StackDocError("forward is missing") }
            if let key { decoded?.changes[key] = changes }
            return (seq, changes)
        }
    }

    /// Every change the entry at row `r` applied (`HistoryMoveLog.applied`); `rows` holds
    /// seq, kind, payload, forward, format.
    func applied(_ rows: PostgreSQLRows, _ r: Int, _ doc: DocumentKey, decoded: HistoryMoveLog.Decoded) throws -> [Change] {
        let format = Int(rows.int(r, 4) ?? 0)
        return try HistoryMoveLog.applied(kind: rows.string(r, 1) ?? "", payload: rows.string(r, 2),
                                          logged: try Self.changes(rows, r, 3, format: format) ?? []) { undo, range in
            try opChanges(doc, range: range, inverse: undo, decoded: decoded)
        }
    }

    /// The change list in column `column` of row `r` (nil when NULL): `ChangeBlob` bytes of an
    /// entry of today's `format`; with `inverse`, the changes that take it back.
    static func changes(_ rows: PostgreSQLRows, _ r: Int, _ column: Int, format: Int, inverse: Bool = false) throws -> [Change]? {
        _ = try LogFormat.current(format)
        return try rows.withBytes(r, column) { raw -> [Change] in
            try ChangeBlob.decode(raw, inverse: inverse, halves: OnTwoThreads())
        }
    }

    /// Runs `body`, which decodes log entry `seq` of `doc`: any failure means the entry is
    /// damaged (`StoreError.damagedLogEntry`, the database's damage).
    func decoding<T>(_ doc: DocumentKey, _ seq: Int?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError where StoreError.corruption(in: error, path: path) != nil {
            throw error
        } catch let error as PostgreSQLError {
            throw error
        } catch {
            throw noteDamage(StoreError.damagedLogEntry(path, document: doc.name, seq: seq ?? 0, error))
        }
    }

    /// The entry at row `r` of `rows` (columns: `entryColumns`).
    func entry(_ rows: PostgreSQLRows, _ r: Int, _ doc: DocumentKey) throws -> LogEntry {
        let seq = Int(rows.int(r, 0) ?? 0), format = Int(rows.int(r, 7) ?? 0)
        return try decoding(doc, seq) {
            try LogEntryDecoding.decode(StoredLogRow(
                seq: seq, kind: rows.string(r, 1) ?? "", payload: rows.string(r, 2), group: rows.int(r, 4).map(Int.init),
                label: rows.string(r, 5), time: rows.double(r, 6) ?? 0, format: format, origin: rows.string(r, 8),
                changes: { $0 == "forward" ? try Self.changes(rows, r, 3, format: format) : nil }))
        }
    }
}
