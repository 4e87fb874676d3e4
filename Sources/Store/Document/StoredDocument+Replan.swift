import Layout

/// A stale edit planned again (SPEC §3, issue 34): writers of one document use the optimistic
/// version check of every write transaction; when it finds that another session committed
/// since this handle last read or wrote, the edit is not simply refused. The handle catches up
/// from the log, and the edit is planned again on the newest version and committed — unless one
/// of the intervening entries changed something the edit depends on (`EditFootprint`), when it
/// is refused naming that entry's step and origin (`StoreError.Kind.editConflict`), nothing
/// written.
///
/// Refused as before (`staleDocument`, the handle reloaded) are: a stale edit while this handle
/// has its own group open (another origin's open group is no reason: groups belong to the
/// session, so the edit is planned again as its writer's own step); and a history
/// rewritten in between (compaction, a group's rollback), whose entries do not tell what changed.
extension StoredDocument {
    /// How many times one edit is planned again before it gives up as stale (each time another
    /// session committed first; each catch-up is one read).
    static let replanAttempts = 8

    /// Performs `edit` as `perform(_:changes:)` does, with its changes from `plan` (called on the
    /// handle's current document). When the write finds the handle stale, catches up and, when
    /// no intervening entry touched what the edit depends on (`EditFootprint`), calls `plan`
    /// again on the newest document and commits that; this repeats while others keep committing
    /// first (at most `replanAttempts` times). A document nobody else writes behaves exactly as
    /// `perform(_:changes:)`.
    /// - Parameters:
    ///   - edit: The operation, as the log records it.
    ///   - plan: Plans `edit` on `document` as it is when called (`document.plan(edit)`, or with
    ///     the live layout for a scroll).
    ///   - report: Given the other sessions' changes each catch-up applied (also when the
    ///     edit is then refused), oldest first.
    /// - Returns: The changes applied, as logged.
    /// - Throws: `StoreError` `editConflict` (an intervening entry changed what the edit depends
    ///   on: the handle has caught up, nothing was written), `staleDocument` (see above; the
    ///   handle is reloaded) or `droppedDocument`; what `plan` throws; and what
    ///   `perform(_:changes:)` throws. Nothing is written.
    @discardableResult
    public func perform(_ edit: Edit, planning plan: () throws -> [Change],
                        caughtUp report: ([RemoteChange]) -> Void = { _ in }) throws -> [Change] {
        var planned = try plan()
        var needs = EditFootprint.needs(edit, planned: planned)
        var attempt = 0
        var seen = CaughtUp()
        while true {
            do {
                return try perform(edit, changes: planned)
            } catch let error as StoreError {
                guard case .staleDocument = error.kind, openGroup == nil, attempt < Self.replanAttempts else { throw error }
                attempt += 1
            }
            let read = version
            let caught = try caughtUp()
            report(caught.changes)
            guard caught.replayed, openGroup == nil else { throw staleError(version, sessionVersion: read) }
            seen.changes += caught.changes
            seen.applied += caught.applied
            seen.steps += caught.steps
            try checkConflict(needs, with: seen)
            planned = try plan()
            needs.formUnion(EditFootprint.needs(edit, planned: planned))
            // The newest plan may reach rows the first did not (a row added to a stack it removes).
            try checkConflict(needs, with: seen)
        }
    }

    /// Throws `editConflict` naming the first intervening entry of `caught` (every entry since
    /// the version the edit was first planned on) that touched one of `needs`.
    private func checkConflict(_ needs: Set<Compensation.Touch>, with caught: CaughtUp) throws {
        for (i, change) in caught.changes.enumerated() {
            guard let touch = Compensation.firstTouch(of: needs, in: caught.applied[i]) else { continue }
            throw StoreError(.editConflict(name: name, entry: change.entry.seq, kind: change.entry.kind.rawValue, step: caught.steps[i],
                                           origin: change.entry.origin, what: Compensation.describe(touch)))
        }
    }

    /// The stale error of a handle that has caught up since: it was at `sessionVersion`, the
    /// store at `stored`.
    func staleError(_ stored: Int, sessionVersion: Int) -> StoreError {
        StoreError(.staleDocument(name: name, storedVersion: stored, sessionVersion: sessionVersion))
    }
}
