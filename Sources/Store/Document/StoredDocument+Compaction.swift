import Foundation

import Layout
import StoreFormat

/// What `history compact` did (`StoredDocument.compactHistory(before:)`).
public struct CompactionResult: Hashable, Sendable {
    /// The last log entry dropped (the one before the point): the history now starts after
    /// it, from its snapshot.
    public var base: Int
    /// The entry the history started after before (0: it was whole).
    public var previousBase: Int
    /// Log entries dropped.
    public var droppedEntries: Int
    /// Undo steps dropped (undo cannot go past the base any more).
    public var droppedSteps: Int
    /// The marks whose entries were dropped, oldest first.
    public var droppedMarks: [String]
    /// Snapshots deleted (those of entries before the base).
    public var droppedSnapshots: Int
    /// Log entries kept (after the base).
    public var keptEntries: Int
}

/// Bounded history (issue 15 item 7): `history compact [before REF]` drops the log entries up
/// to a point for long-lived documents. The document and everything after the point stay
/// exact: the state at the point is kept as a snapshot (the base) and the kept entries replay
/// from it; undo cannot go past it; references to dropped entries are refused.
extension StoredDocument {
    /// Drops the log entries before `ref`'s entry (nil: every entry), the
    /// undo steps they made, the marks among them, the snapshots before them and the rows or
    /// image of an import among them (not an image the base snapshot refers to). The state right before `ref`'s entry is written as a snapshot —
    /// the base — which `open`, time travel, `verify` and `log export` start from; `ref`'s
    /// entry and every later one stay; the undo steps among them are renumbered from 1 (and the
    /// marks among them say so). The document does not change.
    ///
    /// Refused, changing nothing, inside a group, for a point inside a group, for a point
    /// before an entry a later `restore` targets, and for a point later undos or redos reach
    /// behind (the kept history must replay from the base alone: it is replayed once to check).
    /// - Parameter ref: The point; the entries before its entry are dropped (nil: all of them).
    /// - Throws: `StackDocError` (an unknown or compacted reference, a refused point, an open
    ///   group, a stale or dropped document), or a store error when the database cannot be
    ///   read or written.
    @discardableResult
    public func compactHistory(before ref: HistoryRef? = nil) throws -> CompactionResult {
        if let open = openGroup {
            throw StackDocError("cannot compact the history while a group is open (begin\(open.label.map { " " + Validation.quoted($0) } ?? "")): commit or rollback first")
        }
        if let other = othersOpenGroups.first {
            throw StackDocError("cannot compact the history while \(Validation.quoted(other))'s group is open: it must commit or rollback first")
        }
        let plan = try reading { tx in
            try checkCurrent(tx)
            return try compactionPlan(at: try ref.map { try resolve($0, tx) - 1 } ?? lastSeq, tx)
        }
        let previous = historyBase
        if plan.base == previous {
            return CompactionResult(base: previous, previousBase: previous, droppedEntries: 0, droppedSteps: 0, droppedMarks: [], droppedSnapshots: 0,
                                    keptEntries: lastSeq - previous)
        }
        return try transaction { tx, _ in
            let P = plan.base
            let snapshots = try tx.snapshots(key)
            if !snapshots.contains(where: { $0.seq == P }) {
                let version = snapshots.filter { $0.seq > P }.map(\.version).min().map { $0 - 1 } ?? version
                try tx.deleteSnapshot(key, version: version)
                _ = try tx.writeSnapshot(key, version: version, seq: P, document: plan.state, keep: .max, rows: nil)
            }
            let droppedSnapshots = try tx.deleteSnapshots(key, before: P)
            let marks = try tx.markEntries(key, label: nil).filter { $0.seq <= P }.compactMap(\.label)
            let droppedEntries = try tx.deleteLog(key, through: P)
            try tx.deleteImportImages(key, through: P)
            try tx.deleteSteps(key, after: 0)
            for (i, step) in plan.steps.enumerated() {
                try tx.insertStep(key, i + 1, StoredStep(first: step.first, last: step.last, label: step.label))
            }
            for (seq, payload) in plan.marks {
                try tx.setPayload(key, seq: seq, payload)
            }
            try tx.setHistoryBase(key, P)
            let droppedSteps = stepCount - plan.steps.count
            setSteps(cursor: plan.cursor, count: plan.steps.count)
            historyBase = P
            if snapshotSeq < P { (snapshotSeq, snapshotBytes) = (P, try tx.snapshotBytes(key, seq: P) ?? 0) }
            return CompactionResult(base: P, previousBase: previous, droppedEntries: droppedEntries, droppedSteps: max(0, droppedSteps),
                                    droppedMarks: marks, droppedSnapshots: droppedSnapshots, keptEntries: lastSeq - P)
        }
    }

    /// What compacting before entry `P` writes: the state at `P`, the undo steps and cursor
    /// of the kept history replayed from it, and the marks' new payloads — or the reason it is
    /// refused.
    private func compactionPlan(at P: Int, _ tx: any StoreReading) throws
        -> (base: Int, state: Document, steps: [(first: Int, last: Int, label: String?)], cursor: Int, marks: [(Int, String)]) {
        let refuse = { (why: String) in StackDocError("cannot compact the history of \(Validation.quoted(self.name)) before log entry \(P + 1): \(why)") }
        if P <= historyBase { return (historyBase, document, [], cursor, []) }
        for (seq, target) in try tx.restoreTargets(key, after: P) where target < P {
            throw refuse("the restore at log entry \(seq) goes back to entry \(target) (compact before \(target + 1) or earlier)")
        }
        let state = try state(at: P, tx)
        var replayer = Replayer(base: state)
        var marks: [(Int, String)] = []
        try tx.forEachLogEntry(key, from: P + 1, through: Int.max) { entry in
            do {
                try replayer.replay(entry) { _ in throw StackDocError("an import") }
            } catch {
                throw refuse("the later history does not replay without the earlier entries (\(error))")
            }
            if entry.kind == .mark {
                let step = replayer.cursor > 0 ? replayer.steps[replayer.cursor - 1].first : 0
                marks.append((entry.seq, try HistoryPayload.mark(cursor: replayer.cursor, step: step)))
            }
        }
        if replayer.groups.mapValues(\.seq) != counters.groups.mapValues(\.seq) {
            throw refuse("it is inside a group")
        }
        let problems = try Verification.compare(stored: document, replayed: replayer.document, cancellation: store.cancellation)
        if !problems.isEmpty { throw refuse("the later history replayed from it does not give the document (\(problems[0]))") }
        return (P, state, replayer.steps.map { ($0.first, $0.last, $0.label) }, replayer.cursor, marks)
    }

    /// The document the kept history starts from when it was compacted (the snapshot of entry
    /// `historyBase`), nil when the history is whole.
    /// - Throws: `StoreError` on a stale or dropped handle, or when the
    ///   snapshot is damaged or the database cannot be read.
    public func compactedBase() throws -> Document? {
        guard historyBase > 0 else { return nil }
        return try reading { tx in
            try checkCurrent(tx)
            return try baseSnapshot(tx)
        }
    }
}
