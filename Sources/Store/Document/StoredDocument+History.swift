import Foundation
import Layout

/// Undo, redo and groups (one undo step per operation or group), and reading the history:
/// steps, log entries, the imported rows of an `import` entry, the counters.
extension StoredDocument {
    /// Reverts the last `count` undo steps: their operations taken back newest log entry first
    /// (`CursorWalk`). Fails (changing nothing) when fewer are applied, a group is open, or a step
    /// left applied has an operation after one of theirs (another origin's step made while their
    /// group was open: SPEC §3 "Cursor walks across interleaved steps").
    /// - Parameter count: How many steps (≥ 1).
    /// - Throws: `StackDocError` when fewer steps are applied, a group is open, the walk would
    ///   leave an interleaved step applied, the document is stale or the database cannot be written.
    @discardableResult
    public func undo(_ count: Int = 1) throws -> HistoryMove {
        try checkHistoryMove(.undo, count, available: cursor)
        return try transaction { tx, journal in
            var planned: [Change] = []
            var steps: [HistoryStep] = []
            var ops: [CursorWalk.Op] = []
            for n in stride(from: cursor, to: cursor - count, by: -1) {
                let (step, stepOps) = try loadStep(tx, n, changes: .inverse)
                ops += stepOps
                steps.append(step)
            }
            try checkCursorWalk(tx, undo: true, count: count, moved: ops.map(\.seq))
            for op in CursorWalk.ordered(ops, undo: true) { Self.append(op.changes[...], to: &planned) }
            var applied = try apply(planned, keepingView: true, final: true, tx: tx, journal: &journal)
            let clamps = try clampOffset(tx: tx, journal: &journal)
            Self.append(clamps[...], to: &applied)
            try logHistoryMove(tx, .undo, count: count, steps: steps, applied: applied, clamps: clamps.count)
            counters.cursor -= count
            return HistoryMove(steps: steps.map { var s = $0; s.applied = false; return s }, changes: applied)
        }
    }

    /// Re-applies the next `count` undone steps: their operations oldest log entry first
    /// (`CursorWalk`). Fails (changing nothing) when a step left undone has an operation before
    /// one of theirs (SPEC §3 "Cursor walks across interleaved steps").
    /// - Parameter count: How many steps (≥ 1).
    /// - Throws: `StackDocError` when fewer steps are undone, a group is open, the walk would
    ///   leave an interleaved step undone, the document is stale or the database cannot be written.
    @discardableResult
    public func redo(_ count: Int = 1) throws -> HistoryMove {
        try checkHistoryMove(.redo, count, available: stepCount - cursor)
        return try transaction { tx, journal in
            var planned: [Change] = []
            var steps: [HistoryStep] = []
            var ops: [CursorWalk.Op] = []
            for n in (cursor + 1)...(cursor + count) {
                let (step, stepOps) = try loadStep(tx, n, changes: .forward)
                ops += stepOps
                steps.append(step)
            }
            try checkCursorWalk(tx, undo: false, count: count, moved: ops.map(\.seq))
            for op in CursorWalk.ordered(ops, undo: false) { Self.append(op.changes[...], to: &planned) }
            var applied = try apply(planned, keepingView: true, final: true, tx: tx, journal: &journal)
            let clamps = try clampOffset(tx: tx, journal: &journal)
            Self.append(clamps[...], to: &applied)
            try logHistoryMove(tx, .redo, count: count, steps: steps, applied: applied, clamps: clamps.count)
            counters.cursor += count
            return HistoryMove(steps: steps.map { var s = $0; s.applied = true; return s }, changes: applied)
        }
    }

    /// A group label is stored whole or refused (issue 10): 1 to 256 characters on one line
    /// with no control character (NUL, ESC, BEL, tab, DEL, C1…). Other characters, bidi and
    /// format characters included, are stored as given; text outputs escape them.
    /// - Parameter label: A group label.
    public static func isValidLabel(_ label: String) -> Bool {
        !label.isEmpty && label.count <= 256
            && !label.unicodeScalars.contains {
                [.control, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
            }
    }

    /// Opens this session's group (SPEC §3: a group belongs to its origin): this handle's
    /// operations until `commit` make one undo step; another origin's are not in it.
    /// - Parameter label: The group's label (`isValidLabel`), or nil.
    /// - Throws: `StackDocError` when a group is already open, the label is refused, the document
    ///   is stale or the database cannot be written.
    public func begin(_ label: String? = nil) throws {
        if let open = openGroup {
            throw StackDocError(.groupAlreadyOpen(label: open.label))
        }
        if let label, !StoredDocument.isValidLabel(label) {
            throw StackDocError(.invalidGroupLabel)
        }
        try transaction { tx, _ in
            let seq = lastSeq + 1
            try tx.appendLog(key, NewLogEntry(seq: seq, kind: .begin, payload: nil, forward: nil, label: label, origin: origin))
            setLastSeq(seq)
            try tx.setOpenGroup(key, origin: groupKey, seq: seq)
            counters.groups[groupKey] = (seq, label)
        }
    }

    /// Closes this session's open group; its operations (only this origin's: the entries that
    /// name the group) become one undo step (none when they changed nothing). Returns that step.
    /// - Throws: `StackDocError` when no group is open, the document is stale or the database
    ///   cannot be written.
    @discardableResult
    public func commit() throws -> HistoryStep? {
        guard let group = openGroup else { throw StackDocError(.noGroupOpen(.commit)) }
        return try transaction { tx, _ in
            let seq = lastSeq + 1
            try tx.appendLog(key, NewLogEntry(seq: seq, kind: .commit, payload: nil, forward: nil, group: group.seq, label: group.label, origin: origin))
            setLastSeq(seq)
            let own = ownGroupKey ?? groupKey
            try tx.setOpenGroup(key, origin: own, seq: nil)
            counters.groups[own] = nil
            let changed = try tx.groupChangedDocument(key, groupSeq: group.seq)
            guard changed else { return nil }
            try addStep(tx, first: group.seq, last: seq, label: group.label)
            return try loadStep(tx, cursor, changes: nil).step
        }
    }

    /// Abandons this session's open group: reverts its operations and changes nothing else.
    /// When nobody else wrote since its `begin`, its entries (view changes included) are removed
    /// from the log; otherwise another origin's entries lie after them, so they stay and a
    /// `commit` entry that rolls the group back (`rollsBack`) records the changes that revert
    /// its operations, planned on the document as it is (`Compensation`, as a compensating
    /// undo) — refused with a conflict when an entry of another origin after the `begin` changed
    /// the same fields of the same rows. Either way no step is made. Returns the changes applied.
    /// - Throws: `StackDocError` when no group is open, another origin's later entry conflicts,
    ///   the document is stale or the database cannot be written.
    @discardableResult
    public func rollback() throws -> [Change] {
        guard let group = openGroup else { throw StackDocError(.noGroupOpen(.rollback)) }
        return try transaction { tx, journal in
            var applied: [Change] = []
            let inverses = try tx.inverses(key, group: group.seq)
            let own = ownGroupKey ?? groupKey
            if inverses.count != lastSeq - group.seq {
                applied = try rollBackPastOthers(group, tx: tx, journal: &journal)
            } else {
                for changes in inverses {
                    for change in changes {
                        try apply(change, tx: tx, journal: &journal)
                        applied.append(change)
                    }
                }
                try tx.deleteLog(key, from: group.seq)
                setLastSeq(group.seq - 1)
            }
            try tx.setOpenGroup(key, origin: own, seq: nil)
            counters.groups[own] = nil
            return applied
        }
    }

    func checkHistoryMove(_ move: StackDocError.HistoryMove, _ count: Int, available: Int) throws {
        guard count >= 1 else { throw StackDocError(.stepCountBelowOne(move, count: count)) }
        if let open = openGroup { throw StackDocError(.historyInOpenGroup(move, label: open.label)) }
        if let other = othersOpenGroups.first {
            // Moving steps under another session's uncommitted operations could take them back.
            throw StackDocError("cannot \(move.rawValue) while \(Validation.quoted(other))'s group is open: it must commit or rollback first")
        }
        if move == .undo, historyBase > 0, count > available {
            throw StackDocError(.undoPastCompaction(document: name, count: count, available: available, base: historyBase))
        }
        guard available > 0 else { throw StackDocError(.nothingInHistory(move)) }
        guard count <= available else { throw StackDocError(.tooManySteps(move, count: count, available: available)) }
    }

    /// Logs an `undo`/`redo` of `steps` (`HistoryMoveLog`): the entries of the steps it
    /// moved, and of the changes it `applied` only those that are not row changes (the settings
    /// as applied) and its last `clamps` (`clampOffset`: the offset clamps) — the other row
    /// changes are the moved steps' own.
    func logHistoryMove(_ tx: any StoreWriting, _ kind: LogEntry.Kind, count: Int, steps: [HistoryStep], applied: [Change],
                        clamps: Int) throws {
        let seq = lastSeq + 1
        let payload = try HistoryMoveLog.payload(count: count, steps: steps.map { $0.firstSeq...$0.lastSeq })
        // The settings changes of the moved steps, then the clamps (`clampOffset`: the nested
        // ones are row changes that no moved step holds).
        let forward = applied.dropLast(clamps).filter { !$0.isRowChange } + applied.suffix(clamps)
        try tx.appendLog(key, NewLogEntry(seq: seq, kind: kind, payload: payload, forward: forward, origin: origin))
        setLastSeq(seq)
    }

    /// Records a new undo step after the cursor, discarding the redo tail.
    func addStep(_ tx: any StoreWriting, first: Int, last: Int, label: String?) throws {
        try tx.deleteSteps(key, after: cursor)
        try tx.insertStep(key, cursor + 1, StoredStep(first: first, last: last, label: label))
        counters.cursor += 1
        counters.stepCount = cursor
    }

    /// Which changes `loadStep` reads with a step.
    enum StepChanges { case forward, inverse }

    /// Step `n`, with (`changes`) the forward or inverse changes of each of its undoable
    /// operations, in log order; without, only the columns `history` shows are read (the
    /// operations' edits, never their changes).
    func loadStep(_ tx: any StoreReading, _ n: Int, changes wanted: StepChanges?) throws -> (step: HistoryStep, ops: [CursorWalk.Op]) {
        guard let stored = try tx.step(key, n) else {
            throw StoreError.internal("undo step \(n) of '\(name)' is missing")
        }
        let (first, last) = (stored.first, stored.last)
        var edits: [Edit] = []
        var restoredFrom: Int?
        var reverts: StepRevert?
        for entry in try tx.stepEntries(key, in: first...last) {
            switch entry {
            case .edit(let edit): edits.append(edit)
            case .restore(let target): restoredFrom = target
            case .revert(let revert): reverts = revert
            }
        }
        let changes = try wanted.map { try tx.operationChanges(key, in: first...last, inverse: $0 == .inverse) } ?? []
        let origin = try tx.labelAndOrigin(key, seq: first)?.origin
        let step = HistoryStep(number: n, label: stored.label, edits: edits, applied: n <= cursor, firstSeq: first, lastSeq: last,
                               origin: origin, restoredFrom: restoredFrom, reverts: reverts)
        return (step, changes)
    }

    // MARK: Reading history

    /// Every undo step, oldest first (`applied` false for the redo tail).
    /// - Throws: `StoreError` when the log cannot be read (a damaged entry is named).
    public func history() throws -> [HistoryStep] {
        try reading { tx in
            try checkCurrent(tx)
            var steps = try (0..<stepCount).map { try loadStep(tx, $0 + 1, changes: nil).step }
            // Which applied steps a compensating undo reverted (the latest compensating step of a step decides).
            var index: [Int: Int] = [:]
            for (i, s) in steps.enumerated() { index[s.firstSeq] = i }
            for s in steps where s.applied {
                guard let r = s.reverts else { continue }
                for range in r.steps { if let i = index[range.lowerBound] { steps[i].revertedBy = r.undo ? s.number : nil } }
            }
            return steps
        }
    }

    /// Log entries from `seq` on (at most `limit`), oldest first.
    /// - Parameters:
    ///   - seq: The first entry's seq.
    ///   - limit: The most entries returned (nil: all).
    /// - Throws: `StoreError` when the log cannot be read (a damaged entry is named).
    public func log(from seq: Int = 1, limit: Int? = nil) throws -> [LogEntry] {
        try reading { tx in
            try checkCurrent(tx)
            return try tx.logEntries(key, from: seq, limit: limit)
        }
    }

    /// The rows an `import` entry brought in, as the document it imported.
    /// - Parameter seq: The seq of an `import` entry.
    /// - Throws: `StackDocError` when there is no such entry or its rows cannot be read.
    public func importedDocument(at seq: Int) throws -> Document {
        try reading { tx in
            try checkCurrent(tx)
            guard let settings = try tx.importSettings(key, seq: seq) else {
                throw StackDocError("log entry \(seq) of '\(name)' is not an import")
            }
            return try tx.importedRows(key, name: name, seq: seq, settings: settings)
        }
    }

    /// The document's counters, all of this handle's state (never mixed with another
    /// process's later writes) except `storedVersion`, the database's (-1 once dropped).
    /// - Throws: `StoreError` when the database cannot be read.
    public func status() throws -> DocumentStatus {
        try reading { tx in
            let stored = try tx.storedVersion(key) ?? -1
            let entries = lastSeq  // log entries are numbered 1...lastSeq
            let schema = try tx.schemaVersion()
            return DocumentStatus(name: name, version: version, storedVersion: stored, rowCount: document.rowCount,
                                  logEntries: entries, steps: stepCount, cursor: cursor,
                                  canUndo: openGroup == nil ? cursor : 0, canRedo: openGroup == nil ? stepCount - cursor : 0,
                                  groupOpen: openGroup != nil, groupLabel: openGroup?.label, schemaVersion: schema)
        }
    }

    /// True when another connection has written the document since this handle loaded it.
    /// (Also true once the document was dropped.)
    /// - Throws: `StoreError` when the database cannot be read.
    public func isStale() throws -> Bool {
        try storedState() != version
    }
}
