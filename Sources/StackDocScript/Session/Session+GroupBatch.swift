import Layout
import Store

/// Consecutive `add` commands inside an open `begin … commit` group, run in one store
/// transaction (`StoredDocument.perform(groupBatch:plan:)`): what a `log export` script of an
/// imported document was made of before the import block (one `add` per row inside `begin import
/// NAME … commit`; such scripts still run). Each gives the result it gives alone.
extension Session {
    /// True when `command` may join a group batch: an `add` while the open document has an open
    /// group (and no `import begin` block, which takes every edit, is open).
    public func joinsGroupBatch(_ command: Command) -> Bool {
        guard case .edit(.add) = command, takesGroupBatches else { return false }
        return true
    }

    /// True when an `add` would join a group batch now: a group is open on the open document
    /// and no `import begin` block is. A runner asks this before it parses a line for a batch
    /// (false: the line is parsed once, when it runs).
    public var takesGroupBatches: Bool {
        importing == nil && current?.openGroup != nil
    }

    /// Runs `commands` (each `joinsGroupBatch`) as one batch and returns the results of those
    /// that ran, in order: all of them, or those before the first that fails (which, with the
    /// rest, did not run: run them one by one to get their errors). Empty when the batch could
    /// not run at all (the first fails, the document is stale…): nothing changed.
    public func runGroupBatch(_ commands: [Command]) -> [CommandResult] {
        guard let doc = current, let group = doc.openGroup else { return [] }
        let edits = commands.compactMap { command -> Edit? in
            guard case .edit(let edit) = command else { return nil }
            return edit
        }
        guard edits.count == commands.count,
              let batch = try? doc.perform(groupBatch: edits, plan: { edit, document, live in try document.plan(edit, live: live) })
        else { return [] }
        lastTimings = []
        return zip(edits, batch.performed).map { edit, done in
            .edited(operation: Printer.text(edit), outcome: .pending(group: group.label), report: ChangeReport(done.report))
        }
    }
}
