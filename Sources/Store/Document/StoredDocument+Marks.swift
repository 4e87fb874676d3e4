import Foundation

import Layout
import StoreFormat

/// Marks (issue 15): named points of the history. A mark is a log entry (logged, replayed,
/// exported as `mark NAME`), not an undo step; `undo(toMark:)` / `redo(toMark:)` move the
/// cursor back or forward to where it was when the mark was made.
extension StoredDocument {
    /// Puts a mark named `name` on the history (unique in the document; not inside a group).
    /// - Throws: `StackDocError` (an invalid or existing name, an open group, a stale or dropped document), or a store error when the database cannot be read or written.
    @discardableResult
    public func mark(_ name: String) throws -> HistoryMark {
        guard HistoryRef.isValidMarkName(name) else {
            throw StackDocError(.history(.invalidMarkName(name)))
        }
        if let open = openGroup {
            throw StackDocError(.history(.markInOpenGroup(label: open.label)))
        }
        return try transaction { tx, _ in
            if let seq = try tx.markSeq(key, label: name) {
                throw StackDocError(.history(.markExists(name, seq: seq)))
            }
            let step = try stepFirstEntry(cursor, tx)
            let seq = lastSeq + 1
            try tx.appendLog(key, NewLogEntry(seq: seq, kind: .mark, payload: try HistoryPayload.mark(cursor: cursor, step: step),
                                              forward: nil, label: name, origin: origin))
            setLastSeq(seq)
            return HistoryMark(name: name, seq: seq, cursor: cursor, reachable: true, time: Date(), origin: origin)
        }
    }

    /// The document's marks, oldest first.
    /// - Throws: `StoreError` (a stale or dropped document, or a database that cannot be read).
    public func marks() throws -> [HistoryMark] {
        try reading { tx in
            try checkCurrent(tx)
            return try tx.markEntries(key, label: nil).map { try markValue($0, tx) }
        }
    }

    /// Undoes the steps made since the mark (one `undo N` entry).
    /// - Throws: `StackDocError` (an unknown or unreachable mark, a mark that is not behind the document, an open group), or a store error when the database cannot be read or written.
    @discardableResult
    public func undo(toMark name: String) throws -> HistoryMove {
        let mark = try findMark(name)
        guard cursor > mark.cursor else {
            throw StackDocError(cursor == mark.cursor ? "the document is at mark \(Validation.quoted(name)) already: nothing to undo"
                                                      : "mark \(Validation.quoted(name)) is ahead of the document (undo step \(mark.cursor), the document is at \(cursor)): use redo to \(name)")
        }
        return try undo(cursor - mark.cursor)
    }

    /// Redoes the undone steps up to the mark (one `redo N` entry).
    /// - Throws: `StackDocError` (an unknown or unreachable mark, a mark that is not ahead of the document, an open group), or a store error when the database cannot be read or written.
    @discardableResult
    public func redo(toMark name: String) throws -> HistoryMove {
        let mark = try findMark(name)
        guard cursor < mark.cursor else {
            throw StackDocError(cursor == mark.cursor ? "the document is at mark \(Validation.quoted(name)) already: nothing to redo"
                                                      : "mark \(Validation.quoted(name)) is behind the document (undo step \(mark.cursor), the document is at \(cursor)): use undo to \(name)")
        }
        return try redo(mark.cursor - cursor)
    }

    /// The mark, checked to be reachable by undo/redo.
    private func findMark(_ name: String) throws -> HistoryMark {
        let mark = try reading { tx -> HistoryMark in
            try checkCurrent(tx)
            guard let entry = try tx.markEntries(key, label: name).first else {
                throw StackDocError(.history(.noSuchMark(name, document: self.name)))
            }
            return try markValue(entry, tx)
        }
        guard mark.reachable else {
            throw StackDocError(.history(.markUnreachable(name)))
        }
        return mark
    }

    private func markValue(_ entry: LogEntry, _ tx: any StoreReading) throws -> HistoryMark {
        let (markCursor, step) = (entry.markCursor ?? 0, entry.markStep ?? 0)
        let first = try stepFirstEntry(markCursor, tx)
        let reachable = markCursor <= stepCount && first == step
        return HistoryMark(name: entry.label ?? "", seq: entry.seq, cursor: markCursor, reachable: reachable, time: entry.time, origin: entry.origin)
    }

    /// The first log entry of undo step `n` (0 for n = 0 or a missing step).
    private func stepFirstEntry(_ n: Int, _ tx: any StoreReading) throws -> Int {
        guard n > 0 else { return 0 }
        return try tx.step(key, n)?.first ?? 0
    }
}
