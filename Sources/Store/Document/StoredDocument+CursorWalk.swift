import Layout

/// The store's half of `CursorWalk`: whether an `undo N`/`redo N` of the cursor is exact, read
/// from the steps around the ones it moves (SPEC §3 "Cursor walks across interleaved steps").
extension StoredDocument {
    /// Refuses (changing nothing) a walk of `count` steps whose operations are `moved` (their
    /// seqs) when a step it leaves behind interleaves with them, naming that step and the
    /// shortest walk that moves them together — or (undo) when a group was rolled back after
    /// their first operation by compensation (`rollBackPastOthers`), which no walk takes back.
    /// - Throws: `StackDocError` for such a walk, or a store error.
    func checkCursorWalk(_ tx: any StoreReading, undo: Bool, count: Int, moved: [Int]) throws {
        // (No entry after the first moved one — the common undo of the last operation — no read.)
        if undo, let low = moved.min(), low < lastSeq, let rollback = try tx.firstRollback(key, after: low) {
            throw StackDocError("cannot undo \(count) step\(count == 1 ? "" : "s"): log entry \(rollback) rolled a group back after them"
                                + " (its compensation is no step and stays applied): undo stops at the steps after it")
        }
        guard let blocker = try walkBlocker(tx, undo: undo, count: count, moved: moved) else { return }
        var wider = count, seqs = moved, next: Int? = blocker
        while let b = next {
            let taken = undo ? cursor - b + 1 : b - cursor
            for n in undo ? (cursor - taken + 1)...(cursor - wider) : (cursor + wider + 1)...(cursor + taken) {
                guard let step = try tx.step(key, n) else { break }
                seqs += try opSeqs(tx, step)
            }
            wider = taken
            next = try walkBlocker(tx, undo: undo, count: wider, moved: seqs)
        }
        let move = undo ? "undo" : "redo"
        let by = try tx.step(key, blocker).flatMap { try tx.labelAndOrigin(key, seq: $0.first)?.origin }.map { " by \(Validation.quoted($0))" } ?? ""
        throw StackDocError("cannot \(move) \(count) step\(count == 1 ? "" : "s"): step \(blocker)\(by) has an operation logged "
                            + (undo ? "after one of theirs and would stay applied" : "before one of theirs and would stay undone")
                            + " (it was made while a group was open); '\(move) \(wider)' moves them together")
    }

    /// True when `undo(count)` (or `redo`) walks the cursor exactly (`checkCursorWalk` passes).
    /// - Throws: a store error when the history cannot be read.
    func isExactCursorWalk(undo: Bool, count: Int) throws -> Bool {
        try reading { tx in
            let numbers = undo ? Array((cursor - count + 1)...cursor) : Array((cursor + 1)...(cursor + count))
            var seqs: [Int] = []
            for n in numbers {
                guard let step = try tx.step(key, n) else { return false }
                seqs += try opSeqs(tx, step)
            }
            if undo, let low = seqs.min(), low < lastSeq, try tx.firstRollback(key, after: low) != nil { return false }
            return try walkBlocker(tx, undo: undo, count: count, moved: seqs) == nil
        }
    }

    /// The step a walk of `count` steps (operations `moved`) leaves behind that interleaves with
    /// them (`CursorWalk.blocker`). Steps are stored in the order of their last entry, so for an
    /// undo only the applied steps just below the walk whose last entry is after its first
    /// operation are read (none, unless a group was open across them); for a redo, the undone
    /// steps after it that began before its last operation.
    private func walkBlocker(_ tx: any StoreReading, undo: Bool, count: Int, moved: [Int]) throws -> Int? {
        guard let low = moved.min(), let high = moved.max() else { return nil }
        var others: [(n: Int, seqs: [Int])] = []
        if undo {
            var n = cursor - count
            while n >= 1, let step = try tx.step(key, n), step.last > low {
                others.append((n, try opSeqs(tx, step)))
                n -= 1
            }
        } else if stepCount > cursor + count {
            for (i, step) in try tx.steps(key).enumerated() where i >= cursor + count && step.first < high {
                others.append((i + 1, try opSeqs(tx, step)))
            }
        }
        return CursorWalk.blocker(undo: undo, moved: moved, others: others)
    }

    /// The seqs of a step's operations: its one entry, or its group's `op`/`restore` entries.
    private func opSeqs(_ tx: any StoreReading, _ step: StoredStep) throws -> [Int] {
        step.first == step.last ? [step.first] : try tx.operationChanges(key, in: step.first...step.last, inverse: false).map(\.seq)
    }
}
