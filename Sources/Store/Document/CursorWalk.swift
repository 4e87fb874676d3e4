import Layout

/// The one rule of a cursor walk (`undo N`, `redo N`, `--all`, `to MARK`; SPEC §3 "Cursor walks
/// across interleaved steps"). Steps are numbered in the order they were made, but a group's
/// step is made at its `commit`: another origin's steps made while it was open come before it
/// on the cursor although some of the group's operations come before theirs in the log. So a
/// walk applies the operations of the steps it moves in *log* order — undo: newest log entry
/// first, each taken back; redo: oldest first — never step by step. That is exact (each change
/// is taken back on the state it left) when the moved operations are the last applied ones in
/// the log (undo) or the first undone ones (redo); `blocker` finds the step that makes a walk
/// inexact, and the store refuses such a walk. Pure: the store, the replay and every reader of
/// an `undo`/`redo` entry (time travel, snapshots: `HistoryMoveLog`) order with it.
enum CursorWalk {
    /// One operation of a step: its log entry and the changes it applied (or takes back).
    typealias Op = (seq: Int, changes: [Change])

    /// The operations of the moved steps in the order a walk applies them: undo newest log
    /// entry first, redo oldest first. For steps that do not interleave (every document one
    /// origin edits) this is their step order.
    static func ordered(_ ops: [Op], undo: Bool) -> [Op] {
        ops.sorted { undo ? $0.seq > $1.seq : $0.seq < $1.seq }
    }

    /// The first of `others` (in the order given) that makes moving operations `moved` inexact:
    /// undo — a step left applied with an operation after the first one moved; redo — a step
    /// left undone with an operation before the last one moved. nil: the walk is exact.
    static func blocker(undo: Bool, moved: [Int], others: [(n: Int, seqs: [Int])]) -> Int? {
        guard let low = moved.min(), let high = moved.max() else { return nil }
        return others.first { undo ? $0.seqs.contains { $0 > low } : $0.seqs.contains { $0 < high } }?.n
    }
}
