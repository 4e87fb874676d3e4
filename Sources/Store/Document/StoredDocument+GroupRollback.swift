import Layout
import StoreFormat

/// `rollback` of a group another origin wrote during (SPEC §3 "Groups belong to the session"):
/// its entries cannot be removed from under theirs, so it is planned as compensation.
extension StoredDocument {
    /// Reverts the operations of this session's open `group` (its `op` and `restore` entries;
    /// its view changes stay, as an undo keeps the view) on the document as it is, and logs a
    /// `commit` that rolls it back: `HistoryPayload.rollback`, the applied changes as its
    /// `forward` (none when it changed nothing), discarding the redo tail as a new step does. A
    /// cursor walk never takes it back (`checkCursorWalk`). Refused, changing nothing, when an entry of another origin after the group's
    /// `begin` changed what reverting needs (`Compensation.conflict`: the same field of the same
    /// row, a row the group added or removed…). Returns the changes applied.
    /// - Throws: `StackDocError` naming the conflicting log entry, its origin and what it
    ///   changed; a store error.
    func rollBackPastOthers(_ group: (seq: Int, label: String?), tx: any StoreWriting, journal: inout Journal) throws -> [Change] {
        let entries = try tx.logEntries(key, from: group.seq + 1, limit: nil)
        let mine = entries.filter { $0.group == group.seq && ($0.kind == .op || $0.kind == .restore) }.flatMap(\.changes)
        let theirs = entries.filter { $0.group != group.seq && !$0.changes.isEmpty }.map { (step: $0.seq, origin: $0.origin, changes: $0.changes) }
        if let conflict = Compensation.conflict(of: mine, with: theirs) {
            let label = group.label.map { " " + Validation.quoted($0) } ?? ""
            throw StackDocError("cannot roll back the group\(label) of \(Validation.quoted(groupKey)): log entry \(conflict.step)"
                                + " by \(conflict.origin.map(Validation.quoted) ?? "an unknown origin") changed \(conflict.what) after its begin;"
                                + " 'commit' keeps your operations as one step")
        }
        let planned = try Compensation.plan(mine.inverse, on: document)
        let logged = try applyForLog(planned, tx: tx, journal: &journal)
        let seq = lastSeq + 1
        let changed = !logged.changes.isEmpty
        try tx.appendLog(key, NewLogEntry(seq: seq, kind: .commit, payload: HistoryPayload.rollback, forward: changed ? logged.changes : nil,
                                          forwardBlob: changed ? logged.blob : nil, group: group.seq, label: group.label, origin: origin))
        setLastSeq(seq)
        if changed {
            // Planned on the document without the redo tail's steps: a redo would not fit (as a new step).
            try tx.deleteSteps(key, after: cursor)
            counters.stepCount = cursor
        }
        return logged.changes
    }
}
