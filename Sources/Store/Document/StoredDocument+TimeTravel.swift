import Foundation

import Layout

/// Time travel, read-only (issue 15): the document as it was at any point of its history.
extension StoredDocument {
    /// The log entry a reference stands for (the document right after it). Fails with a clear
    /// message for an entry outside the log, an unknown mark, `now~N` before the first entry,
    /// or an entry `history compact` dropped (`StackDocError.Kind.compactedEntry`; the entry
    /// the history starts after is still a point: its state is the compaction's snapshot).
    /// - Throws: `StackDocError` (an entry outside the log, an unknown mark, `now~N` before the first entry, a compacted entry), or a store error when the database cannot be read.
    public func resolve(_ ref: HistoryRef) throws -> Int {
        try reading { tx in
            try checkCurrent(tx)
            return try resolve(ref, tx)
        }
    }

    func resolve(_ ref: HistoryRef, _ tx: any StoreReading) throws -> Int {
        let seq: Int
        switch ref {
        case .entry(let n):
            guard n >= 1, n <= lastSeq else {
                throw StackDocError(.history(.noLogEntry(n, document: name, last: lastSeq)))
            }
            seq = n
        case .mark(let mark):
            guard let found = try tx.markSeq(key, label: mark) else {
                if historyBase > 0 {
                    throw StackDocError("no mark \(Validation.quoted(mark)) in \(Validation.quoted(name)) (marks before log entry \(historyBase + 1) were dropped by history compact)")
                }
                throw StackDocError(.history(.noSuchMark(mark, document: name)))
            }
            seq = found
        case .now(let back):
            guard back >= 0, back < lastSeq else {
                throw StackDocError(.history(.beforeFirstEntry(back: back, document: name, entries: lastSeq)))
            }
            seq = lastSeq - back
        }
        if seq < historyBase { throw StackDocError(.compactedEntry(document: name, entry: seq, base: historyBase)) }
        return seq
    }

    /// The document as it was at `ref` (rows, settings, view state), from the log. Nothing
    /// changes. See `state(at:)` for the cost.
    /// - Throws: `StackDocError` (an unknown reference, a log entry that does not replay), or a store error when the database cannot be read.
    public func document(at ref: HistoryRef) throws -> Document {
        try reading { tx in
            try checkCurrent(tx)
            return try state(at: try resolve(ref, tx), tx)
        }
    }

    /// Where `state(at:)` starts.
    private enum Start {
        case current
        case snapshot(SnapshotInfo)
    }

    /// THE way a past state is materialised (time travel, `diff` of past points, `restore`):
    /// the document right after log entry `seq`. The current document when `seq` is the last
    /// entry; otherwise the cheapest of: the current document with the logged changes of the
    /// later entries taken back (newest first); the nearest snapshot before `seq` with the
    /// entries up to it applied; the nearest snapshot after it with the entries back to it
    /// taken back. Reading an image counts as `SnapshotPolicy.interval` entries (it is O(n),
    /// like the copy the current document needs, but slower). Snapshots are kept every
    /// `SnapshotPolicy.spacing` entries, so at most half a spacing of entries is walked, plus
    /// one image read or copy of the document: O(n + K log n). Without a usable snapshot, a
    /// replay from the start of the history (entry 1, or the compaction's snapshot).
    func state(at seq: Int, _ tx: any StoreReading) throws -> Document {
        if seq == lastSeq { return document }
        let penalty = store.options.snapshots.interval
        var starts: [(cost: Int, start: Start)] = [(lastSeq - seq, .current)]
        if lastSeq - seq > penalty {
            let infos = try tx.snapshots(key)
            if let before = infos.first(where: { $0.seq <= seq }) { starts.append((seq - before.seq + penalty, .snapshot(before))) }
            if let after = infos.last(where: { $0.seq > seq }) { starts.append((after.seq - seq + penalty, .snapshot(after))) }
        }
        for (_, start) in starts.sorted(by: { $0.cost < $1.cost }) {
            switch start {
            case .current:
                return try takingBack(document, from: lastSeq, to: seq, tx)
            case .snapshot(let info) where info.seq > seq:
                // The entries back to `seq` are read while the image is decoded (`Snapshots.read`).
                guard let (_, image, changes) = try? tx.readSnapshot(key, name: name, version: info.version,
                                                                     alongside: { Result { try self.loggedChanges(after: seq, through: info.seq, tx) } }) else { continue }
                return try takingBack(consume image, changes.get())
            case .snapshot(let info):
                // The entries up to `seq` are read while the image is decoded (`Snapshots.read`).
                guard let (_, image, tail) = try? tx.readSnapshot(key, name: name, version: info.version,
                                                                  alongside: { [key] in Result { try tx.tailChanges(key, after: info.seq, through: seq) } }) else { continue }
                var d = consume image  // (unshared: the changes below copy none of its storage)
                do {
                    for changes in try tail.get().changes { try d.apply(changes) }
                } catch {
                    throw store.noteDamage(StoreError.corrupt(store.path, "document \(Validation.quoted(name)): its log cannot be read up to entry \(seq): \(error)"))
                }
                return d
            }
        }
        return try replay(tx, through: seq).document
    }

    /// `document`, the state right after entry `from`, with the logged changes of the entries
    /// `(to, from]` taken back, newest first: the state right after entry `to`.
    private func takingBack(_ document: Document, from: Int, to: Int, _ tx: any StoreReading) throws -> Document {
        try takingBack(document, try loggedChanges(after: to, through: from, tx))
    }

    /// `document` with `entries` (`loggedChanges`) taken back, newest first. A document the
    /// caller hands over (`consume`) is changed in place; a shared one copies what it changes.
    private func takingBack(_ document: consuming Document, _ entries: [(seq: Int, changes: [Change])]) throws -> Document {
        for (entry, changes) in entries.reversed() {
            do { try document.apply(changes.inverse) } catch {
                throw store.noteDamage(StoreError.damagedLogEntry(store.path, document: name, seq: entry, error))
            }
        }
        return document
    }

    /// The changes each entry in `(after, through]` applied, as logged (`HistoryMoveLog.applied`:
    /// `forward`, and the moved steps' rows for an undo/redo), oldest first; entries that change
    /// nothing (begin, commit, mark) are left out.
    func loggedChanges(after: Int, through: Int, _ tx: any StoreReading) throws -> [(seq: Int, changes: [Change])] {
        try tx.appliedChanges(key, after: after, through: through)
    }
}
