import Foundation
import GRDB
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
        let plan = try store.read { db in
            try checkCurrent(db)
            return try compactionPlan(at: try ref.map { try resolve($0, db) - 1 } ?? lastSeq, db)
        }
        let previous = historyBase
        if plan.base == previous {
            return CompactionResult(base: previous, previousBase: previous, droppedEntries: 0, droppedSteps: 0, droppedMarks: [], droppedSnapshots: 0,
                                    keptEntries: lastSeq - previous)
        }
        return try transaction { db, _ in
            let P = plan.base
            let snapshots = try Snapshots.list(db, documentID: id)
            if !snapshots.contains(where: { $0.seq == P }) {
                let version = snapshots.filter { $0.seq > P }.map(\.version).min().map { $0 - 1 } ?? version
                try db.execute(sql: "DELETE FROM snapshot WHERE document = ? AND version = ?", arguments: [id, version])
                try Snapshots.write(db, documentID: id, uid: uid, version: version, seq: P, document: plan.state, keep: .max)
            }
            try db.execute(sql: "DELETE FROM snapshot WHERE document = ? AND seq < ?", arguments: [id, P])
            let droppedSnapshots = db.changesCount
            let marks = try String.fetchAll(db, sql: "SELECT label FROM log WHERE document = ? AND kind = 'mark' AND seq <= ? ORDER BY seq", arguments: [id, P])
            try db.execute(sql: "DELETE FROM log WHERE document = ? AND seq <= ?", arguments: [id, P])
            let droppedEntries = db.changesCount
            try db.execute(sql: "DELETE FROM row WHERE document = ? AND import_seq BETWEEN 1 AND ?", arguments: [id, P])
            try Snapshots.dropImportImages(db, documentID: id, through: P)
            try db.execute(sql: "DELETE FROM step WHERE document = ?", arguments: [id])
            for (i, step) in plan.steps.enumerated() {
                try db.execute(sql: "INSERT INTO step (document, n, first_seq, last_seq, label) VALUES (?, ?, ?, ?, ?)",
                               arguments: [id, i + 1, step.first, step.last, step.label])
            }
            for (seq, payload) in plan.marks {
                try db.execute(sql: "UPDATE log SET payload = ? WHERE document = ? AND seq = ?", arguments: [payload, id, seq])
            }
            try db.execute(sql: "UPDATE document SET history_base = ? WHERE id = ?", arguments: [P, id])
            let droppedSteps = stepCount - plan.steps.count
            setSteps(cursor: plan.cursor, count: plan.steps.count)
            historyBase = P
            if snapshotSeq < P { (snapshotSeq, snapshotBytes) = (P, try Int.fetchOne(db, sql: "SELECT bytes FROM snapshot_image WHERE +document = ? AND +seq = ?", arguments: [id, P]) ?? 0) }
            return CompactionResult(base: P, previousBase: previous, droppedEntries: droppedEntries, droppedSteps: max(0, droppedSteps),
                                    droppedMarks: marks, droppedSnapshots: droppedSnapshots, keptEntries: lastSeq - P)
        }
    }

    /// What compacting before entry `P` writes: the state at `P`, the undo steps and cursor
    /// of the kept history replayed from it, and the marks' new payloads — or the reason it is
    /// refused.
    private func compactionPlan(at P: Int, _ db: Database) throws
        -> (base: Int, state: Document, steps: [(first: Int, last: Int, label: String?)], cursor: Int, marks: [(Int, String)]) {
        let refuse = { (why: String) in StackDocError("cannot compact the history of \(Validation.quoted(self.name)) before log entry \(P + 1): \(why)") }
        if P <= historyBase { return (historyBase, document, [], cursor, []) }
        for row in try GRDB.Row.fetchAll(db, sql: "SELECT seq, payload FROM log WHERE document = ? AND kind = 'restore' AND seq > ?", arguments: [id, P]) {
            let seq: Int = try row.decode(forColumn: "seq")
            let target = try decodingLogEntry(seq) { try HistoryPayload.restoreTarget(try row.decode(forColumn: "payload")) }
            if target < P { throw refuse("the restore at log entry \(seq) goes back to entry \(target) (compact before \(target + 1) or earlier)") }
        }
        let state = try state(at: P, db)
        var replayer = Replayer(base: state)
        var marks: [(Int, String)] = []
        let cursor = try GRDB.Row.fetchCursor(db, sql: """
            SELECT seq, kind, payload, forward, NULL AS inverse, grp, label, time, format, origin FROM log WHERE document = ? AND seq > ? ORDER BY seq
            """, arguments: [id, P])
        while let row = try cursor.next() {
            let entry = try LogDecoding.entry(row, of: self)
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
        if replayer.group?.seq != openGroup?.seq {
            throw refuse("it is inside a group")
        }
        let problems = try Verification.compare(stored: document, replayed: replayer.document, cancellation: store.cancellation)
        if !problems.isEmpty { throw refuse("the later history replayed from it does not give the document (\(problems[0]))") }
        return (P, state, replayer.steps.map { ($0.first, $0.last, $0.label) }, replayer.cursor, marks)
    }

    /// The document the kept history starts from when it was compacted (the snapshot of entry
    /// `historyBase`), nil when the history is whole.
    /// - Throws: `StackDocError` on a stale or dropped handle, or a store error when the
    ///   snapshot is damaged or the database cannot be read.
    public func compactedBase() throws -> Document? {
        guard historyBase > 0 else { return nil }
        return try store.read { db in
            try checkCurrent(db)
            return try baseSnapshot(db)
        }
    }
}
