import Foundation
import GRDB
import Layout
import StoreFormat

/// Log entries of formats 1 and 2 (`LogFormat`), converted to format 3 by migration 0020 — the
/// one place that reads them.
///
/// - Format 2 → 3: `forward`'s JSON text becomes its `ChangeBlob`; the payload stays byte for
///   byte (an `undo`/`redo` of format 2 already names the steps it moved).
/// - Format 1 → 3: the same, and the stored `inverse` goes (it must be `forward`'s inverse, as
///   every reader now computes it; an entry whose stored inverse is another is refused, the
///   upgrade rolls back). An `undo N`/`redo N` of format 1 copied every change it applied; which
///   steps it moved follows from the history before it, so the document's log is replayed with
///   today's `Replayer` and the entry is written as today's store writes it: payload
///   `{"count":N,"steps":[…]}` (`HistoryMoveLog.payload`), `forward` the settings changes and the
///   offset clamp it applied (`Replayer.lastMove`). Every other payload is kept byte for byte.
enum LegacyLog {
    /// Converts every entry of `document` of format 1 or 2 (nothing when there is none).
    static func convert(_ db: Database, _ document: UpgradedDocument) throws {
        let args: StatementArguments = [document.id]
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM log WHERE document = ? AND format < 3 LIMIT 1", arguments: args) ?? false else { return }
        let replays = try Bool.fetchOne(db, sql: "SELECT 1 FROM log WHERE document = ? AND format = 1 AND kind IN ('undo', 'redo') LIMIT 1",
                                        arguments: args) ?? false
        var replayer = replays ? try document.converting("the log") { try start(db, document) } : nil
        // The new values are written after the scan (no update under an open cursor of the table).
        var updates: [(seq: Int, payload: String?, forward: Data?)] = []
        let rows = try GRDB.Row.fetchCursor(db, sql: """
            SELECT seq, kind, payload, forward, inverse, grp, label, time, format, origin FROM log
            WHERE document = ? \(replays ? "" : "AND format < 3") ORDER BY seq
            """, arguments: args)
        while let row = try rows.next() {
            let seq: Int = try row.decode(forColumn: "seq")
            try document.converting("log entry \(seq)") {
                let format: Int = try row.decode(forColumn: "format")
                guard (1...LogFormat.version).contains(format) else { throw StackDocError("format \(format) is not one this StackDoc reads") }
                let kind: String = try row.decode(forColumn: "kind")
                var payload: String? = try row.decode(forColumn: "payload")
                var forward = try changes(row, "forward", format: format)
                let copiedMove = format == 1 && (kind == LogEntry.Kind.undo.rawValue || kind == LogEntry.Kind.redo.rawValue)
                if format == 1, !copiedMove, let stored = try changes(row, "inverse", format: format), stored != (forward ?? []).inverse {
                    throw StackDocError("its stored inverse is not the inverse of its changes")
                }
                if replayer != nil {
                    let entry: LogEntry
                    if copiedMove {
                        guard let text = payload, let count = Int(text) else { throw StackDocError("payload: expected a count") }
                        entry = LogEntry(seq: seq, kind: LogEntry.Kind(rawValue: kind)!, edit: nil, settings: nil, count: count, label: nil,
                                         group: nil, changes: [], inverse: [], time: Date())
                    } else {
                        entry = try LogDecoding.decode(row, payload: payload, forward: forward)
                    }
                    try replayer!.replay(entry) { seq in try importedRows(db, document, seq: seq) }
                    if copiedMove, let move = replayer!.lastMove {
                        payload = try HistoryMoveLog.payload(count: entry.count ?? 0, steps: move.steps)
                        forward = move.settingsChanges
                    }
                }
                guard format < 3 else { return }
                updates.append((seq, payload, try forward.map { Data(try ChangeBlob.encode($0)) }))
            }
        }
        let update = try db.makeStatement(sql: "UPDATE log SET payload = ?, forward = ?, inverse = NULL, format = ? WHERE document = ? AND seq = ?")
        for u in updates { try update.execute(arguments: [u.payload, u.forward, LogFormat.version, document.id, u.seq]) }
    }

    /// The changes a column of an entry of `format` holds: JSON text (formats 1 and 2) or a
    /// `ChangeBlob` (format 3); nil when NULL.
    static func changes(_ row: GRDB.Row, _ column: String, format: Int) throws -> [Change]? {
        let value: DatabaseValue = row[column]
        switch value.storage {
        case .null: return nil
        case let .string(text) where format <= 2: return try LogFormat.decodeChanges(text, format: format, column: column)
        case let .blob(data) where format >= 3:
            do { return try data.withUnsafeBytes { try ChangeBlob.decode($0) } } catch let error as LogFormatError { throw StackDocError("\(column): \(error)") }
        default: throw StackDocError("\(column): not a list of changes of format \(format)")
        }
    }

    /// A replay of `document` from its start: the empty document, or the snapshot a compacted
    /// history starts from.
    private static func start(_ db: Database, _ document: UpgradedDocument) throws -> Replayer {
        guard document.historyBase > 0 else { return Replayer(name: document.name) }
        guard let data = try Data.fetchOne(db, sql: "SELECT image FROM snapshot_image WHERE document = ? AND seq = ? ORDER BY version LIMIT 1",
                                           arguments: [document.id, document.historyBase]) else {
            throw StackDocError("the snapshot its compacted history starts from (after log entry \(document.historyBase)) is missing")
        }
        return Replayer(base: try SnapshotImage.decodeAnyFormat([UInt8](data), name: document.name).document)
    }

    /// The rows import entry `seq` brought in (its image: `OneDiskVersion` wrote the images first).
    private static func importedRows(_ db: Database, _ document: UpgradedDocument, seq: Int) throws -> Document {
        guard let data = try Data.fetchOne(db, sql: "SELECT image FROM import_image WHERE document = ? AND seq = ?", arguments: [document.id, seq]) else {
            throw StackDocError("the rows of import entry \(seq) are missing")
        }
        return try SnapshotImage.decodeAnyFormat([UInt8](data), name: document.name).document
    }
}
