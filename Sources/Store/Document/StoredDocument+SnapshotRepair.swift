import Foundation

import Layout

/// A stored snapshot that `verify` found wrong: unreadable (checksum, uid, version, entry),
/// different from the log's replay at its entry, or of an entry past the log. Snapshots are a
/// cache (docs/store.md "Snapshots"): every read skips a damaged one, and
/// `StoredDocument.rebuildSnapshots()` writes it again from the log.
public struct DamagedSnapshot: Hashable, Sendable {
    /// The document's version the snapshot is of.
    public var version: Int
    /// The log entry it is the document after.
    public var seq: Int
    /// What is wrong with it, one message per difference (each names the snapshot).
    public var problems: [String]
    /// Its entry is past the log's last one: there is no state to rebuild it from.
    public var pastTheLog: Bool
}

/// What `StoredDocument.rebuildSnapshots()` did.
public struct SnapshotRepair: Hashable, Sendable {
    /// The snapshots written again from the log, oldest entry first.
    public var rebuilt: [SnapshotInfo]
    /// The snapshots deleted: those of entries past the log.
    public var deleted: [DamagedSnapshot]
}

/// What `verify` found: the log against the stored document, and the snapshots apart.
public struct VerifyReport: Hashable, Sendable {
    /// Where the log's replay and the stored document (rows, settings, history) differ, or
    /// why the log does not replay; with `replan`, the edits that plan to other changes.
    public var problems: [String]
    /// The snapshots that are wrong (a cache: the document and its log may be fine).
    public var damagedSnapshots: [DamagedSnapshot]

    /// Every message: the problems, then the damaged snapshots' (what `verify(replan:)` returns).
    public var messages: [String] { problems + damagedSnapshots.flatMap(\.problems) }
}

extension StoredDocument {
    /// Writes every damaged snapshot again from the log (`verify`'s `damagedSnapshots`): the
    /// replay's document at its entry, under its version; one of an entry past the log is
    /// deleted. A compacted history's base and an import's first snapshot are not a cache (the
    /// history starts from them): when they are damaged the replay fails, and so does this,
    /// changing nothing. One replay of the log, in one write transaction.
    /// - Returns: The snapshots written and deleted.
    /// - Throws: `StackDocError` inside a group, on a stale or dropped handle, when the log does
    ///   not replay, or a database error.
    @discardableResult
    public func rebuildSnapshots() throws -> SnapshotRepair {
        if !counters.groups.isEmpty { throw StackDocError(.history(.snapshotInOpenGroup)) }
        return try store.writing { tx in
            try checkCurrent(tx)
            let check = try SnapshotCheck(tx, document: self, keepingReplays: true)
            _ = try replay(tx) { seq, replayer in try check.replayed(through: seq, replayer, tx) }
            check.finish(lastSeq: lastSeq)
            var repair = SnapshotRepair(rebuilt: [], deleted: [])
            for damaged in check.damaged {
                if damaged.pastTheLog {
                    try tx.deleteSnapshot(key, version: damaged.version)
                    repair.deleted.append(damaged)
                    continue
                }
                guard let replayed = check.replays[damaged.version] else { continue }
                let info = try tx.writeSnapshot(key, version: damaged.version, seq: damaged.seq, document: replayed, keep: Int.max, rows: nil)
                if info.seq == snapshotSeq { snapshotBytes = info.bytes }
                repair.rebuilt.append(info)
            }
            return repair
        }
    }
}
