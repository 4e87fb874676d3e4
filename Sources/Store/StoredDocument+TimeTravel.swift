import Foundation
import GRDB
import Layout

/// Time travel, read-only (issue 15): the document as it was at any point of its history.
extension StoredDocument {
    /// The log entry a reference stands for (the document right after it). Fails with a clear
    /// message for an entry outside the log, an unknown mark or `now~N` before the first entry.
    /// - Throws: `StackDocError` (an entry outside the log, an unknown mark, `now~N` before the first entry), or a store error when the database cannot be read.
    public func resolve(_ ref: HistoryRef) throws -> Int {
        try store.read { db in
            try checkCurrent(db)
            return try resolve(ref, db)
        }
    }

    func resolve(_ ref: HistoryRef, _ db: Database) throws -> Int {
        switch ref {
        case .entry(let n):
            guard n >= 1, n <= lastSeq else {
                throw StackDocError(.history(.noLogEntry(n, document: name, last: lastSeq)))
            }
            return n
        case .mark(let mark):
            guard let seq = try Int.fetchOne(db.cachedStatement(sql: "SELECT seq FROM log WHERE document = ? AND kind = 'mark' AND label = ?"),
                                             arguments: [id, mark]) else {
                throw StackDocError(.history(.noSuchMark(mark, document: name)))
            }
            return seq
        case .now(let back):
            guard back >= 0, back < lastSeq else {
                throw StackDocError(.history(.beforeFirstEntry(back: back, document: name, entries: lastSeq)))
            }
            return lastSeq - back
        }
    }

    /// The document as it was at `ref` (rows, settings, view state), from the log. Nothing
    /// changes. See `state(at:)` for the cost.
    /// - Throws: `StackDocError` (an unknown reference, a log entry that does not replay), or a store error when the database cannot be read.
    public func document(at ref: HistoryRef) throws -> Document {
        try store.read { db in
            try checkCurrent(db)
            return try state(at: try resolve(ref, db), db)
        }
    }

    /// THE way a past state is materialised (time travel, `diff` of past points, `restore`):
    /// the document right after log entry `seq`. The current document when `seq` is the last
    /// entry; otherwise whichever is shorter: the current document with the logged changes of
    /// the later entries taken back (newest first), or a replay of the log up to `seq`.
    /// O(entries walked · log n) plus one copy of the document.
    func state(at seq: Int, _ db: Database) throws -> Document {
        if seq == lastSeq { return document }
        if lastSeq - seq <= seq {
            var d = document
            let later = try loggedChanges(after: seq, through: lastSeq, db)
            for (entry, changes) in later.reversed() {
                do { try d.apply(changes.inverse) } catch {
                    throw store.noteDamage(StoreFailure.damagedLogEntry(store.path, document: name, seq: entry, error))
                }
            }
            return d
        }
        return try replay(db, through: seq).document
    }

    /// The changes each entry in `(after, through]` applied, as logged (`forward`), oldest first;
    /// entries that change nothing (begin, commit, mark) are left out.
    func loggedChanges(after: Int, through: Int, _ db: Database) throws -> [(seq: Int, changes: [Change])] {
        let rows = try GRDB.Row.fetchCursor(db.cachedStatement(sql: """
            SELECT seq, forward, format FROM log WHERE document = ? AND seq > ? AND seq <= ? AND forward IS NOT NULL ORDER BY seq
            """), arguments: [id, after, through])
        var result: [(Int, [Change])] = []
        while let row = try rows.next() {
            let seq: Int = try row.decode(forColumn: "seq")
            let changes = try decodingLogEntry(seq) {
                try LogFormat.decodeChanges(try row.decode(forColumn: "forward"), format: try row.decode(forColumn: "format"), column: "forward")
            }
            if !changes.isEmpty { result.append((seq, changes)) }
        }
        return result
    }
}
