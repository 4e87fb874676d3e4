import Foundation

import Layout
import StoreFormat

/// Snapshots of a stored document (docs/store.md "Snapshots"): compact binary images of the
/// document after a log entry, written by the store every `SnapshotPolicy.interval` entries,
/// and read by `open`/`reload` (the newest one plus the log after it) and by history reads.
extension StoredDocument {
    /// Writes a snapshot of the document as this handle holds it: its version, after its last
    /// log entry. Fails when a group is open (a rollback would remove the entries it includes)
    /// or when another process has written the document since this handle loaded it.
    /// - Throws: `StackDocError` inside a group, on a stale or dropped handle, or a database error.
    @discardableResult
    public func writeSnapshot() throws -> SnapshotInfo {
        if !counters.groups.isEmpty { throw StackDocError(.history(.snapshotInOpenGroup)) }
        return try store.writing { tx in
            try checkCurrent(tx)
            let info = try tx.writeSnapshot(key, version: version, seq: lastSeq, document: document,
                                            keep: max(store.options.snapshots.keep, 1), rows: nil)
            if lastSeq >= snapshotSeq { (snapshotSeq, snapshotBytes, snapshotChanges) = (lastSeq, info.bytes, 0) }
            return info
        }
    }

    /// The document's stored snapshots, newest first (their images are not read).
    /// - Throws: `StoreError` on a stale or dropped handle, or when the database fails.
    public func snapshots() throws -> [SnapshotInfo] {
        try reading { tx in
            try checkCurrent(tx)
            return try tx.snapshots(key)
        }
    }

    /// The newest snapshot at or before `version` whose image checks out (checksum, uid,
    /// version, log entry), with its document; nil when there is none.
    /// - Parameter version: The newest version to consider.
    /// - Throws: `StoreError` on a stale or dropped handle, or when the database fails.
    public func snapshot(atOrBefore version: Int) throws -> (info: SnapshotInfo, document: Document)? {
        try reading { tx in
            try checkCurrent(tx)
            return try tx.newestSnapshot(key, name: name, atOrBeforeVersion: version, seq: lastSeq).map { (info: $0.0, document: $0.1) }
        }
    }

    /// The document as it was right after log entry `seq` (1…the last entry, or from the entry
    /// a compacted history starts after): `state(at:)`, the nearest snapshot before or after
    /// the entry (or the current document) and at most half a `SnapshotPolicy.spacing` of
    /// entries applied or taken back, as logged.
    /// - Parameter seq: The log entry (1…the last one).
    /// - Throws: `StackDocError` for an entry the log does not have (or no longer has: compacted),
    ///   on a stale or dropped handle, or when the log cannot be read up to the entry (the
    ///   database is then damaged).
    public func document(afterEntry seq: Int) throws -> Document {
        try reading { tx in
            try checkCurrent(tx)
            guard seq >= 1, seq <= lastSeq else { throw StackDocError(.history(.noLogEntry(seq, document: name, last: lastSeq))) }
            if seq < historyBase { throw StackDocError(.compactedEntry(document: name, entry: seq, base: historyBase)) }
            return try state(at: seq, tx)
        }
    }

    /// The snapshot a compacted history starts from: the document right after entry
    /// `historyBase` (a damaged one is damage: the kept history cannot be replayed without it).
    func baseSnapshot(_ tx: any StoreReading) throws -> Document {
        do {
            guard let version = try tx.snapshotVersion(key, seq: historyBase) else {
                throw SnapshotImage.Damage(description: "it is missing")
            }
            return try tx.readSnapshot(key, name: name, version: version).1
        } catch let damage as SnapshotImage.Damage {
            throw store.noteDamage(StoreError.corrupt(store.path, "document \(Validation.quoted(name)): the snapshot its compacted history starts from (after log entry \(historyBase)) is damaged: \(damage)"))
        }
    }

    /// `verify`'s part for snapshots: every stored snapshot must read back (checksum, uid,
    /// version, entry) and equal the replay of the log at its entry. `replayed(through:_:_:)` is
    /// called by the replay after each entry; `damaged` collects what does not.
    final class SnapshotCheck {
        private var pending: [SnapshotInfo]
        /// The snapshots that cannot be read, differ from the replay at their entry, or are of
        /// an entry past the log, in the order found.
        private(set) var damaged: [DamagedSnapshot] = []
        /// With `keepingReplays`, the replayed document at each damaged snapshot's entry, by
        /// version: what `rebuildSnapshots` writes instead.
        private(set) var replays: [Int: Document] = [:]
        private let keepingReplays: Bool
        private let document: StoredDocument

        /// Every problem's message, in order.
        var problems: [String] { damaged.flatMap(\.problems) }

        init(_ tx: any StoreReading, document: StoredDocument, keepingReplays: Bool = false) throws {
            self.document = document
            self.keepingReplays = keepingReplays
            pending = try tx.snapshots(document.key).sorted { ($0.seq, $0.version) < ($1.seq, $1.version) }
        }

        /// Checks every pending snapshot of an entry up to `seq` against the replay at `seq`.
        /// - Throws: `StackDocError` of kind `.cancelled` when the store's cancellation is
        ///   requested (a damaged snapshot is a problem, not an error).
        func replayed(through seq: Int, _ replayer: Replayer, _ tx: any StoreReading) throws {
            while let next = pending.first, next.seq <= seq {
                pending.removeFirst()
                let at = "snapshot of version \(next.version) (after log entry \(next.seq))"
                var problems: [String]
                do {
                    try document.store.cancellation.check()
                    let (_, image) = try tx.readSnapshot(document.key, name: document.name, version: next.version)
                    problems = try Verification.compare(stored: image, replayed: replayer.document,
                                                        cancellation: document.store.cancellation).map { "\(at): \($0)" }
                } catch let error as StackDocError where error.kind == .cancelled {
                    throw error
                } catch {
                    problems = ["\(at) is damaged: \(error)"]
                }
                guard !problems.isEmpty else { continue }
                damaged.append(DamagedSnapshot(version: next.version, seq: next.seq, problems: problems, pastTheLog: false))
                if keepingReplays { replays[next.version] = replayer.document }
            }
        }

        /// Snapshots of entries the log does not have.
        func finish(lastSeq: Int) {
            for info in pending {
                damaged.append(DamagedSnapshot(version: info.version, seq: info.seq, problems: [
                    "snapshot of version \(info.version) includes log entry \(info.seq), past the log's last entry \(lastSeq)",
                ], pastTheLog: true))
            }
            pending = []
        }
    }
}
