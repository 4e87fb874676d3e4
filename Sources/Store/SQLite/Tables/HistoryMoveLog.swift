import Foundation
import GRDB
import Layout
import StoreFormat

/// An `undo`/`redo` entry refers to the steps it moved instead of copying their changes, and no
/// entry stores `inverse` (it is `forward.inverse`) — log formats 2 and 3. This is the
/// one place that writes such an entry's payload and turns any logged entry back into the
/// changes it applied — the readers of the log that do not replay it step by step (opening from
/// a snapshot, time travel, diff, restore) all come here.
///
/// An `undo`/`redo` entry:
/// - `payload` `{"count":N,"steps":[[F,L],…]}`: the log entries `F…L` of each undo step it
///   moved, in the order it moved them (undo: newest first; redo: oldest first);
/// - `forward`: the changes it applied that are not the moved steps' row changes — the settings
///   changes of the moved steps as applied (the view kept, `Replayer.keepingView`) and the offset
///   clamps (the root's, and those of stacks that scroll on their own: row changes, last) — so a
///   reader needs no layout and no view arithmetic;
/// - the row changes are those of the moved steps' `op`/`restore` entries: their `forward`
///   (redo), or its inverse, newest entry first (undo).
///
/// Row changes and settings changes touch disjoint parts of a document, so applying the rows and
/// then the logged settings changes gives the same document as the store's interleaved order.
/// (Entries of format 1 copied all of it into `forward`/`inverse`; migration 0020 rewrote them so,
/// `LegacyLog`.)
enum HistoryMoveLog {
    /// The decoded changes of `op`/`restore` entries, by seq and direction, for one pass over the
    /// log: the tail after a snapshot may undo and redo the same big step many times, and each
    /// reference would otherwise decode its changes again.
    final class Decoded {
        var changes: [Int: [Change]] = [:]
        func key(_ seq: Int, inverse: Bool) -> Int { seq * 2 + (inverse ? 1 : 0) }
    }

    /// The payload of an `undo`/`redo` entry.
    static func payload(count: Int, steps: [ClosedRange<Int>]) throws -> String {
        try LogValue.object([
            "count": .int(count),
            "steps": .array(steps.map { .array([.int($0.lowerBound), .int($0.upperBound)]) }),
        ]).text()
    }

    /// The count of an `undo`/`redo` payload and the steps it moved.
    static func parse(_ payload: String?) throws -> (count: Int, steps: [ClosedRange<Int>]) {
        guard let payload else { throw LogFormatError("payload is missing") }
        guard case let .object(fields) = try LogValue.parse(payload) else { throw LogFormatError("payload: expected an object") }
        guard case let .int(count)? = fields["count"] else { throw LogFormatError("payload.count: expected an integer") }
        guard case let .array(items)? = fields["steps"] else { throw LogFormatError("payload.steps: expected an array") }
        let steps = try items.enumerated().map { i, item -> ClosedRange<Int> in
            guard case let .array(pair) = item, pair.count == 2, case let .int(first) = pair[0], case let .int(last) = pair[1],
                  first >= 1, first <= last else {
                throw LogFormatError("payload.steps[\(i)]: expected [first, last] log entries")
            }
            return first...last
        }
        return (count, steps)
    }

    /// The row changes that moving `steps` applies: each step's `op`/`restore` entries, their
    /// changes forward (redo), or taken back newest first (undo), settings changes left out.
    static func rowChanges(_ db: Database, documentID: Int64, undo: Bool, steps: [ClosedRange<Int>], decoded: Decoded? = nil) throws -> [Change] {
        try rowChanges(undo: undo, steps: steps) { try opChanges(db, documentID: documentID, range: $0, inverse: undo, decoded: decoded) }
    }

    /// `rowChanges`, with `opChanges` reading the changes of the `op`/`restore` entries in a
    /// range (forward for redo, inverse for undo) in log order: any backend's.
    static func rowChanges(undo: Bool, steps: [ClosedRange<Int>], opChanges: (ClosedRange<Int>) throws -> [[Change]]) throws -> [Change] {
        var out: [Change] = []
        for range in steps {
            var ops = try opChanges(range)
            if undo { ops.reverse() }
            for op in ops {
                for change in op where change.isRowChange { out.append(change) }
            }
        }
        return out
    }

    /// The changes of the `op`/`restore` entries of the step of log entries `range` (its first
    /// entry and the entries of the group it begins: not another session's between them), in
    /// log order: each entry's forward
    /// changes, or (`inverse`) the changes that take it back (the inverse of `forward`).
    static func opChanges(_ db: Database, documentID: Int64, range: ClosedRange<Int>, inverse: Bool, decoded: Decoded? = nil) throws -> [[Change]] {
        let rows = try GRDB.Row.fetchCursor(db.cachedStatement(sql: """
            SELECT seq, forward, format FROM log
            WHERE document = ? AND seq BETWEEN ? AND ? AND kind IN ('op', 'restore') AND (seq = ? OR grp = ?) ORDER BY seq
            """), arguments: [documentID, range.lowerBound, range.upperBound, range.lowerBound, range.lowerBound])
        var out: [[Change]] = []
        while let row = try rows.next() {
            let format: Int = try row.decode(forColumn: "format")
            let key = decoded?.key(try row.decode(forColumn: "seq"), inverse: inverse)
            if let key, let known = decoded?.changes[key] {
                out.append(known)
            } else {
                guard let changes = try LogFormat.changes(in: row, column: "forward", format: format, inverse: inverse) else {
                    throw StackDocError("forward is missing")
                }
                out.append(changes)
            }
            if let key, decoded?.changes[key] == nil { decoded?.changes[key] = out.last }
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

    /// `applied` for an entry of `kind` whose `forward` holds `logged`: any backend's, with
    /// `opChanges(undo, range)` reading the changes of the `op`/`restore` entries in a range.
    static func applied(kind: String, payload: String?, logged: [Change],
                        opChanges: (_ undo: Bool, ClosedRange<Int>) throws -> [[Change]]) throws -> [Change] {
        guard kind == LogEntry.Kind.undo.rawValue || kind == LogEntry.Kind.redo.rawValue else { return logged }
        let (_, steps) = try parse(payload)
        let undo = kind == LogEntry.Kind.undo.rawValue
        return try rowChanges(undo: undo, steps: steps) { try opChanges(undo, $0) } + logged
    }
}

extension Change {
    /// True for the changes of rows (insert, remove, update, move); false for settings.
    var isRowChange: Bool {
        if case .updateSettings = self { return false }
        return true
    }
}
