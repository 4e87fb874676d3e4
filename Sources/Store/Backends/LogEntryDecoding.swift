import Foundation
import Layout
import StoreFormat

/// A log row's columns as a backend read them, before decoding (`LogEntryDecoding`); the change
/// list is read by `changes` (its column `forward`; nil when NULL), so that a backend decodes it
/// where its engine holds it.
struct StoredLogRow {
    var seq: Int
    var kind: String
    var payload: String?
    var group: Int?
    var label: String?
    var time: Double
    var format: Int
    var origin: String?
    var changes: (_ column: String) throws -> [Change]?
}

/// Turns a stored log row into a `LogEntry`: the one reading of a log entry's columns, for
/// every backend.
enum LogEntryDecoding {
    static func decode(_ row: StoredLogRow) throws -> LogEntry {
        guard let kind = LogEntry.Kind(rawValue: row.kind) else { throw StackDocError("unknown kind \(Validation.quoted(row.kind))") }
        let payload = row.payload, format = try LogFormat.current(row.format)
        var entry = LogEntry(seq: row.seq, kind: kind, edit: nil, settings: nil, count: nil, label: row.label,
                             group: row.group, changes: [], inverse: [], time: Date(timeIntervalSince1970: row.time))
        entry.origin = row.origin
        switch kind {
        case .op, .view:
            entry.edit = try LogFormat.decodeEdit(payload, format: format)
        case .newDocument, .importDocument:
            entry.settings = try LogFormat.decodeSettings(payload, format: format)
        case .undo, .redo:
            (entry.count, entry.moved) = try HistoryMoveLog.parse(payload)
        case .begin:
            break
        case .commit:
            entry.rollsBack = payload == HistoryPayload.rollback
        case .mark:
            (entry.markCursor, entry.markStep) = try HistoryPayload.mark(payload)
        case .restore:
            if let revert = try HistoryPayload.revert(payload) {
                entry.reverts = StepRevert(undo: revert.undo, steps: revert.steps)
            } else {
                entry.target = try HistoryPayload.restoreTarget(payload)
            }
        }
        if let f = try row.changes("forward") { entry.changes = f }
        entry.inverse = entry.changes.inverse  // no entry stores its inverse: it is forward's
        return entry
    }
}
