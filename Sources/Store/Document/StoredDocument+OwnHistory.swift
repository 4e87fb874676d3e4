import Layout
import StoreFormat

/// Per-person undo and redo (SPEC §3): `undo` and `redo` act on the steps of the handle's
/// origin. When nobody else's step lies in the way they move the cursor, exactly as
/// `undo(_:)`/`redo(_:)`; otherwise they make a *compensating step*: a new step, planned on the
/// document as it is (`Compensation`), whose changes revert (or re-apply) only the rows and
/// fields of your steps, refused with a conflict when a later step of another origin changed
/// the same. A document only one origin edits never makes one.
extension StoredDocument {
    /// One origin's view of the steps, read from them oldest first (`stepOwners`): its
    /// applied steps that no compensating step of it reverted, and its compensating undos that
    /// a redo can take back (none once it made a new step since, as a new step discards the
    /// redo tail).
    struct OwnHistory {
        /// This origin's applied ordinary steps not reverted, oldest first.
        private(set) var effective: [StepOwner] = []
        /// Its compensating undos that `redo` re-applies, newest last.
        private(set) var redoable: [StepOwner] = []

        init(_ applied: ArraySlice<StepOwner>, origin: String) {
            var own: [ClosedRange<Int>: StepOwner] = [:]
            for step in applied where step.origin == origin {
                guard let revert = step.reverts else {
                    effective.append(step)
                    own[step.entries] = step
                    redoable.removeAll()
                    continue
                }
                let targets = Set(revert.steps)
                if revert.undo {
                    effective.removeAll { targets.contains($0.entries) }
                    redoable.append(step)
                } else {
                    while let last = redoable.last, Set(last.reverts?.steps ?? []).isSubset(of: targets) { redoable.removeLast() }
                    effective += revert.steps.compactMap { own[$0] }
                    effective.sort { $0.n < $1.n }
                }
            }
        }
    }

    /// `undo [N]`: reverts this origin's last `count` steps — by moving the cursor (`undo(_:)`)
    /// when they are the last applied steps, else as one compensating step. With no origin
    /// (`as none`), or when every step is this origin's (or records none), it is `undo(_:)`.
    /// - Throws: `StackDocError` (fewer steps of this origin, a conflict naming the later step,
    ///   its origin and the row or field, a group open, a stale document), or a store error.
    @discardableResult
    public func undoOwn(_ count: Int = 1) throws -> HistoryMove {
        guard let origin, let owners = try ownersIfShared(origin) else { return try undo(count) }
        try checkHistoryMove(.undo, count, available: Int.max)
        let own = OwnHistory(owners.prefix(cursor), origin: origin)
        guard own.effective.count >= count else {
            throw StackDocError(.history(.notEnoughMine(count: count, origin: origin, mine: own.effective.count)))
        }
        let targets = Array(own.effective.suffix(count))
        // The cursor walks when the targets are the last steps and their operations the last
        // applied ones in the log (`CursorWalk`); a group another origin wrote during (SPEC §3)
        // is reverted as a compensating step.
        if targets.map(\.n) == Array((cursor - count + 1)...cursor), try isExactCursorWalk(undo: true, count: count) {
            return try undo(count)
        }
        return try compensate(undo: true, targets: targets.reversed(), after: targets.map(\.n), owners: owners, origin: origin)
    }

    /// `redo [N]`: re-applies this origin's last `count` undone steps — by moving the cursor
    /// (`redo(_:)`) when they are the next steps of the redo tail, else as one compensating step
    /// that takes back its last compensating undos. With no origin, or when every step is this
    /// origin's (or records none), it is `redo(_:)`.
    /// - Throws: `StackDocError` (fewer undone steps of this origin, a conflict naming the later
    ///   step, its origin and the row or field, a group open, a stale document), or a store error.
    @discardableResult
    public func redoOwn(_ count: Int = 1) throws -> HistoryMove {
        guard let origin, let owners = try ownersIfShared(origin) else { return try redo(count) }
        try checkHistoryMove(.redo, count, available: Int.max)
        if cursor + count <= owners.count, owners[cursor..<(cursor + count)].allSatisfy({ $0.origin == origin }) { return try redo(count) }
        let own = OwnHistory(owners.prefix(cursor), origin: origin)
        guard own.redoable.count >= count else {
            throw StackDocError(.history(.notEnoughMineToRedo(count: count, origin: origin, mine: own.redoable.count)))
        }
        let undos = own.redoable.suffix(count)
        let ranges = Set(undos.flatMap { $0.reverts?.steps ?? [] })
        let targets = owners.filter { ranges.contains($0.entries) }
        // Each target must not have been changed by others since the undo that reverted it.
        let since = targets.map { t in undos.last { $0.reverts?.steps.contains(t.entries) == true }?.n ?? t.n }
        return try compensate(undo: false, targets: targets, after: since, owners: owners, origin: origin)
    }

    /// The steps (oldest first) when some step is another origin's; nil when every step is
    /// `origin`'s or records none (the document behaves as a single writer's).
    private func ownersIfShared(_ origin: String) throws -> [StepOwner]? {
        let owners = try reading { tx in
            try checkCurrent(tx)
            return try tx.stepOwners(key)
        }
        return owners.allSatisfy { $0.origin == origin || $0.origin == nil } ? nil : owners
    }

    /// Makes the compensating step that reverts (`undo`) or re-applies `targets` (in that
    /// order), checking each target against the applied steps of other origins after
    /// `after[i]`; logged as a `restore` entry whose payload names the targets' entries.
    private func compensate(undo: Bool, targets: [StepOwner], after: [Int], owners: [StepOwner], origin: String) throws -> HistoryMove {
        let move: StackDocError.HistoryMove = undo ? .undo : .redo
        let (steps, wanted) = try reading { tx -> ([HistoryStep], [Change]) in
            var steps: [HistoryStep] = []
            var wanted: [Change] = []
            for (target, since) in zip(targets, after) {
                let (step, ops) = try loadStep(tx, target.n, changes: .forward)
                let changes = ops.flatMap(\.changes)
                // Later steps of others, and (undo) the earlier ones whose entries go on after the
                // target began (made while its group was open, or a group open across it): of
                // each, the operations logged after the target's first entry.
                let during = undo ? owners[..<min(since, cursor)].filter { $0.entries.upperBound > target.entries.lowerBound } : []
                let later = try (during + owners[since..<cursor]).filter { $0.origin != origin }.map {
                    (step: $0.n, origin: $0.origin,
                     changes: try loadStep(tx, $0.n, changes: .forward).ops.filter { $0.seq > target.entries.lowerBound }.flatMap(\.changes))
                }
                if let conflict = Compensation.conflict(of: changes, with: later) {
                    throw StackDocError(.history(.ownStepConflict(move, origin: origin, step: target.n, by: conflict.step,
                                                                  byOrigin: conflict.origin, what: conflict.what)))
                }
                steps.append(step)
                wanted += undo ? changes.inverse : changes
            }
            return (steps, wanted)
        }
        let planned = try Compensation.plan(wanted, on: document)
        guard !planned.isEmpty else { throw StackDocError(.nothingInHistory(move)) }
        let numbers = targets.map(\.n)
        let label = "\(move.rawValue) of step\(numbers.count == 1 ? "" : "s") \(numbers.map(String.init).joined(separator: ", ")) by \(origin)"
        let ranges = targets.map(\.entries).sorted { $0.lowerBound < $1.lowerBound }
        return try transaction { tx, journal in
            let entry = try applyForLog(planned, tx: tx, journal: &journal)
            let seq = lastSeq + 1
            try tx.appendLog(key, NewLogEntry(seq: seq, kind: .restore, payload: try HistoryPayload.revert(undo: undo, steps: ranges),
                                              forward: entry.changes, forwardBlob: entry.blob, group: nil, label: label, origin: origin))
            setLastSeq(seq)
            try addStep(tx, first: seq, last: seq, label: label)
            let made = try loadStep(tx, cursor, changes: nil).step
            return HistoryMove(steps: steps.map { var s = $0; s.applied = !undo; return s }, changes: entry.changes, compensatingStep: made)
        }
    }
}
