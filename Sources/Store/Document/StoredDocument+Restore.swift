import Foundation

import Layout
import StoreFormat

/// What `restore` did.
public struct RestoreResult: Hashable, Sendable {
    /// The log entry whose state was restored.
    public var target: Int
    /// The new undo step (nil inside a group, or when the document already equalled the target).
    public var step: HistoryStep?
    /// The primitive changes applied.
    public var changes: [Change]
}

/// `restore REF` (issue 15): one new undo step that makes the document equal to an earlier
/// point. The history before it — the redo tail included, until the new step discards it as
/// every new step does — stays in the log; `undo` takes the restore back.
extension StoredDocument {
    /// Makes the document's rows and settings equal to those at `ref` (the view — viewport and
    /// offset — stays, as undo and redo keep it; the offset is clamped). Logged as a `restore`
    /// entry holding the target and the changes; one undo step (none when nothing differs, or
    /// the open group's).
    /// - Throws: `StackDocError` (an unknown reference, a stale or dropped document), or a store error when the database cannot be read or written.
    @discardableResult
    public func restore(to ref: HistoryRef) throws -> RestoreResult {
        let (target, past) = try reading { tx -> (Int, Document) in
            try checkCurrent(tx)
            let seq = try resolve(ref, tx)
            return (seq, try state(at: seq, tx))
        }
        let planned = try document.planRestore(to: past)
        let label = "restore \(ref)"
        var markName: String?
        if case .mark(let name) = ref { markName = name }
        return try transaction { tx, journal in
            let entry = try applyForLog(planned, tx: tx, journal: &journal)
            let logged = entry.changes
            let seq = lastSeq + 1
            try tx.appendLog(key, NewLogEntry(seq: seq, kind: .restore, payload: try HistoryPayload.restore(target: target, mark: markName),
                                              forward: logged, forwardBlob: entry.blob, group: openGroup?.seq, label: label, origin: origin))
            setLastSeq(seq)
            var step: HistoryStep?
            if openGroup == nil, !logged.isEmpty {
                try addStep(tx, first: seq, last: seq, label: label)
                step = try loadStep(tx, cursor, changes: nil).step
            }
            return RestoreResult(target: target, step: step, changes: logged)
        }
    }
}
