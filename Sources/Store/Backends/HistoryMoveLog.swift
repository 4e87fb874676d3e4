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

    /// `rowChanges`, with `opChanges` reading the changes of the `op`/`restore` entries in a
    /// range (forward for redo, inverse for undo) in log order: any backend's.
    /// The operations are taken in log order (`CursorWalk.ordered`: undo newest first), as the
    /// store and the replay apply them — not step by step, which differs for interleaved steps.
    static func rowChanges(undo: Bool, steps: [ClosedRange<Int>], opChanges: (ClosedRange<Int>) throws -> [CursorWalk.Op]) throws -> [Change] {
        var ops: [CursorWalk.Op] = []
        for range in steps { ops += try opChanges(range) }
        var out: [Change] = []
        for op in CursorWalk.ordered(ops, undo: undo) {
            for change in op.changes where change.isRowChange { out.append(change) }
        }
        return out
    }

    /// `applied` for an entry of `kind` whose `forward` holds `logged`: any backend's, with
    /// `opChanges(undo, range)` reading the changes of the `op`/`restore` entries in a range.
    static func applied(kind: String, payload: String?, logged: [Change],
                        opChanges: (_ undo: Bool, ClosedRange<Int>) throws -> [CursorWalk.Op]) throws -> [Change] {
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
