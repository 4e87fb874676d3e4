import Foundation

import Layout

/// What `perform(groupBatch:plan:)` did.
public struct GroupBatch {
    /// Per operation performed, in order: the changes applied (as logged) and the live layout's
    /// report of them (what `lastLayoutReport` would have held after performing it alone).
    public var performed: [(changes: [Change], report: LayoutChangeReport)] = []
    /// The index of the first operation that did not plan (it and those after it were not
    /// performed), with its error; nil when every operation was performed.
    public var failure: (index: Int, error: any Error)?
}

/// Operations inside an open `begin … commit` group, many per SQL transaction (issue 15 item 8):
/// a script of many `add`s inside a group (what `log export` wrote for an imported document until
/// it wrote an `import begin … import commit` block) paid ≈ 170 µs a transaction per row. Each
/// operation is planned on the state the previous one left, applied, written, logged as its own
/// `op` entry and counted as its own write (`version`), exactly as one `perform` each; only the
/// commit is shared. Inside a group no operation makes an undo step and no snapshot is written,
/// so nothing else differs.
extension StoredDocument {
    /// Performs `edits` in order inside the open group, in one transaction. `plan` plans an edit
    /// on the current document (its live layout kept in step). Stops at the first edit that does
    /// not plan or breaks a rule of the document: the edits before it are performed, it and the
    /// later ones are not (`failure`).
    /// - Parameters:
    ///   - edits: Operations (no view changes: they are not part of a group's step).
    ///   - plan: Plans one edit on the document as the previous ones left it.
    /// - Throws: `StackDocError` when no group is open, an edit is a view change, the first edit
    ///   does not plan (nothing changes), the document is stale or dropped, or the database cannot
    ///   be written (nothing changes).
    public func perform(groupBatch edits: [Edit], plan: (Edit, Document, LiveLayout) throws -> [Change]) throws -> GroupBatch {
        guard openGroup != nil else { throw StackDocError(.noGroupOpen(.commit)) }
        if edits.contains(where: \.isViewState) { throw StackDocError("a batch of a group's operations cannot hold view changes") }
        _ = liveLayout()
        return try transaction { tx, journal in
            var batch = GroupBatch()
            for (index, edit) in edits.enumerated() {
                let changes: [Change]
                do {
                    changes = try plan(edit, document, live!)
                    for change in changes { try Validation.check(change) }
                } catch {
                    guard index > 0 else { throw error }
                    batch.failure = (index, error)
                    break
                }
                setLayoutReport(nil)
                let (_, logged) = try write(edit, changes: changes, tx: tx, journal: &journal)
                syncLayout(&journal)
                guard let report = lastLayoutReport else { throw StoreError.internal("the live layout did not follow operation \(index + 1) of a batch") }
                batch.performed.append((logged, report))
                if index > 0 { journal.extraWrites += 1 }
            }
            return batch
        }
    }
}
