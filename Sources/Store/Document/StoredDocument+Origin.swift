import Foundation
import GRDB
import Layout

/// Who did what (issue 15): every log entry records its origin (`StoredDocument.origin`); a
/// step's origin is its first entry's.
extension StoredDocument {
    /// Undoes the last `count` applied steps of this handle's origin — only when no step of
    /// another origin lies after the earliest of them (undoing past it would take that work back
    /// too); otherwise fails naming the step that blocks it and changes nothing. One `undo N`
    /// entry, so the document-wide cursor stays the one rule of undo and redo.
    /// - Throws: `StackDocError` (a step of another origin blocks it, nothing of this origin is left to undo, or the handle records no origin), or a store error when the database cannot be read or written.
    @discardableResult
    public func undo(mine count: Int) throws -> HistoryMove {
        guard count >= 1 else { throw StackDocError(.stepCountBelowOne(.undo, count: count)) }
        guard let origin else { throw StackDocError("undo --mine needs an origin: this session records none ('as none')") }
        let steps = try store.read { db in
            try checkCurrent(db)
            return try GRDB.Row.fetchAll(db.cachedStatement(sql: """
                SELECT s.n, l.origin FROM step s LEFT JOIN log l ON l.document = s.document AND l.seq = s.first_seq
                WHERE s.document = ? AND s.n <= ? ORDER BY s.n DESC
                """), arguments: [id, cursor]).map { (n: try $0.decode(Int.self, forColumn: "n"), origin: try $0.decode(String?.self, forColumn: "origin")) }
        }
        var mine = 0
        for step in steps {
            if step.origin == origin {
                mine += 1
                if mine == count { return try undo(cursor - step.n + 1) }
            } else if mine < count, steps.contains(where: { $0.n < step.n && $0.origin == origin }) {
                throw StackDocError(.history(.undoMineBlocked(count: count, origin: origin, step: step.n, by: step.origin, mine: mine)))
            }
        }
        throw StackDocError(.history(.notEnoughMine(count: count, origin: origin, mine: mine)))
    }
}
