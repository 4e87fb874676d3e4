import Foundation
import GRDB
import Layout

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
        if openGroup != nil { throw StackDocError(.history(.snapshotInOpenGroup)) }
        return try store.write { db in
            try checkCurrent(db)
            let info = try Snapshots.write(db, documentID: id, uid: uid, version: version, seq: lastSeq, document: document,
                                           keep: max(store.options.snapshots.keep, 1))
            snapshotSeq = max(snapshotSeq, lastSeq)
            return info
        }
    }

    /// The document's stored snapshots, newest first (their images are not read).
    /// - Throws: `StackDocError` on a stale or dropped handle, or a database error.
    public func snapshots() throws -> [SnapshotInfo] {
        try store.read { db in
            try checkCurrent(db)
            return try Snapshots.list(db, documentID: id)
        }
    }

    /// The newest snapshot at or before `version` whose image checks out (checksum, uid,
    /// version, log entry), with its document; nil when there is none.
    /// - Parameter version: The newest version to consider.
    /// - Throws: `StackDocError` on a stale or dropped handle, or a database error.
    public func snapshot(atOrBefore version: Int) throws -> (info: SnapshotInfo, document: Document)? {
        try store.read { db in
            try checkCurrent(db)
            let found = try Snapshots.newest(db, documentID: id, uid: uid, name: name, atOrBeforeVersion: version, seq: lastSeq).found
            return found.map { (info: $0.0, document: $0.1) }
        }
    }

    /// The document as it was right after log entry `seq` (1…the last entry): the newest
    /// snapshot at or before that entry, then the changes the entries after it applied, as
    /// logged; without a snapshot, from the entry that started the document. Reads at most
    /// `SnapshotPolicy.interval` entries past a snapshot when the store writes them.
    /// - Parameter seq: The log entry (1…the last one).
    /// - Throws: `StackDocError` for an entry the log does not have, on a stale or dropped
    ///   handle, or when the log cannot be read up to the entry (the database is then damaged).
    public func document(afterEntry seq: Int) throws -> Document {
        try store.read { db in
            try checkCurrent(db)
            guard seq >= 1, seq <= lastSeq else { throw StackDocError(.history(.noLogEntry(seq, document: name, last: lastSeq))) }
            var base: (seq: Int, document: Document)?
            let candidates = try Snapshots.list(db, documentID: id).filter { $0.seq <= seq }
            for info in candidates {
                if let (_, image) = try? Snapshots.read(db, documentID: id, uid: uid, name: name, version: info.version) {
                    base = (info.seq, image)
                    break
                }
            }
            if base == nil { base = (1, try startingDocument(db)) }
            var document = base!.document
            do {
                _ = try Snapshots.applyTail(db, documentID: id, to: &document, after: base!.seq, through: seq)
            } catch {
                throw store.noteDamage(StoreFailure.corrupt(store.path, "document \(Validation.quoted(name)): its log cannot be read up to entry \(seq): \(error)"))
            }
            return document
        }
    }

    /// The document after log entry 1 (`new` or `import`).
    private func startingDocument(_ db: Database) throws -> Document {
        guard let row = try GRDB.Row.fetchOne(db, sql: "SELECT seq, kind, payload, forward, NULL AS inverse, grp, label, time, format FROM log WHERE document = ? AND seq = 1",
                                              arguments: [id]) else {
            throw StoreFailure.corrupt(store.path, "document \(Validation.quoted(name)) has no first log entry")
        }
        let entry = try LogDecoding.entry(row, of: self)
        guard let settings = entry.settings else {
            throw StoreFailure.corrupt(store.path, "document \(Validation.quoted(name)): its first log entry is not new or import")
        }
        if entry.kind == .importDocument {
            return try RowLoader.load(db, name: name, settings: settings, documentID: id, importSeq: 1, path: store.path)
        }
        return Document(name: name, settings: settings)
    }

    /// `verify`'s part for snapshots: every stored snapshot must read back (checksum, uid,
    /// version, entry) and equal the replay of the log at its entry. `replayedAt` is called by the
    /// replay after each entry; `snapshotProblems` collects the messages.
    final class SnapshotCheck {
        private var pending: [SnapshotInfo]
        private(set) var problems: [String] = []
        private let document: StoredDocument

        init(_ db: Database, document: StoredDocument) throws {
            self.document = document
            pending = try Snapshots.list(db, documentID: document.id).sorted { ($0.seq, $0.version) < ($1.seq, $1.version) }
        }

        func replayed(through seq: Int, _ replayer: Replayer, _ db: Database) {
            while let next = pending.first, next.seq <= seq {
                pending.removeFirst()
                let at = "snapshot of version \(next.version) (after log entry \(next.seq))"
                do {
                    let (_, image) = try Snapshots.read(db, documentID: document.id, uid: document.uid, name: document.name, version: next.version)
                    problems += Verification.compare(stored: image, replayed: replayer.document).map { "\(at): \($0)" }
                } catch {
                    problems.append("\(at) is damaged: \(error)")
                }
            }
        }

        /// Snapshots of entries the log does not have.
        func finish(lastSeq: Int) {
            for info in pending {
                problems.append("snapshot of version \(info.version) includes log entry \(info.seq), past the log's last entry \(lastSeq)")
            }
            pending = []
        }
    }
}
