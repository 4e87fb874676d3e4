import Layout

/// Transactions of a handle: what a failed write restores in memory, applying changes to
/// memory and the store together, the offset clamp and the live layout kept in step.
extension StoredDocument {
    /// What a failed transaction must restore in memory.
    struct Journal {
        var applied: [Change] = []
        /// How many of `applied` the live layout has seen.
        var synced = 0
        /// Writes the transaction counts beyond its first (`perform(groupBatch:)`: one per
        /// operation, as if each had committed alone); `version` grows by 1 + this.
        var extraWrites = 0
        /// The document's rows as they are now, encoded for a snapshot by the thread that applied
        /// a long run (nil once a row changes after it): the snapshot the write may end with
        /// needs only its header then.
        var snapshotRows: SnapshotImage.Encoder?
    }

    /// Runs `body` in one write transaction of the store: checks the stored version first
    /// (stale or dropped: nothing is written), then after `body` writes the pending rows, the
    /// new version and counters, and the snapshot when one is due. On any failure the database
    /// rolls back and memory is put back the same way.
    func transaction<T>(_ body: (any StoreWriting, inout Journal) throws -> T) throws -> T {
        let saved = (counters, snapshotDue)
        var journal = Journal()
        lastLayoutReport = nil
        do {
            return try store.writing { tx in
                guard let stored = try tx.storedVersion(key) else { throw dropped }
                guard stored == version else { throw staleError(stored) }
                let result = try body(tx, &journal)
                try tx.flushRows(after: document, key)
                syncLayout(&journal)
                if !journal.applied.isEmpty { wholeLayoutCache = nil }
                counters.version += 1 + journal.extraWrites
                try tx.setHeader(key, version: version, cursor: cursor)
                let policy = store.options.snapshots
                snapshotChanges += journal.applied.count
                // No snapshot while any origin's group is open: a rollback that finds nobody else
                // wrote after its `begin` deletes its entries, which the snapshot would include.
                if counters.groups.isEmpty, policy.isDue(entries: lastSeq - snapshotSeq, changes: snapshotChanges, imageBytes: snapshotBytes,
                                                  rows: document.rowCount) {
                    let info = try tx.writeSnapshot(key, version: version, seq: lastSeq, document: document, keep: policy.keep,
                                                    rows: journal.snapshotRows)
                    (snapshotSeq, snapshotBytes, snapshotChanges) = (lastSeq, info.bytes, 0)
                }
                return result
            }
        } catch {
            // The database rolled back; put memory back the same way.
            do { try document.apply(journal.applied.inverse) } catch {
                try? reload()
            }
            if journal.synced > 0 { live = nil }
            if !journal.applied.isEmpty { wholeLayoutCache = nil }
            lastLayoutReport = nil
            (counters, snapshotDue) = saved
            throw error
        }
    }

    /// SPEC §2.6: the stored offset is the offset the layout shows. After an operation's
    /// changes, when the content no longer reaches as far as the stored offset (content shrank,
    /// the viewport grew, an undo removed rows…), one more change stores the clamped offset, so
    /// that `export`, `status`, the layout and a replay of the log agree; before it, one change
    /// per stack that scrolls on its own whose stored offset lies past its content (SPEC §2.8).
    /// Returns them ([] when every offset is within range). Needs the layout only when an offset
    /// is positive.
    func clampOffset(tx: any StoreWriting, journal: inout Journal) throws -> [Change] {
        let nested = document.hasNestedOffsets
        guard document.settings.offset > 0 || nested else { return [] }
        if live == nil {
            live = LiveLayout(document)
            journal.synced = journal.applied.count
        }
        syncLayout(&journal)
        // SPEC §2.8: the offsets of stacks that scroll on their own are clamped likewise (they
        // move no frame, so the root's range below is the same).
        var clamps = nested ? live!.nestedOffsetClamps(document) : []
        for clamp in clamps { try apply(clamp, tx: tx, journal: &journal) }
        if let clamp = document.offsetClamp(maxOffset: live!.maxOffset) {
            try apply(clamp, tx: tx, journal: &journal)
            clamps.append(clamp)
        }
        return clamps
    }

    /// Brings the live layout (when one is kept) up to date with the changes applied so far;
    /// the first report of a transaction is the one `lastLayoutReport` keeps.
    func syncLayout(_ journal: inout Journal) {
        guard live != nil else { return }
        let pending = Array(journal.applied[journal.synced...])
        guard !pending.isEmpty || lastLayoutReport == nil else { return }
        let report = live!.apply(pending, to: document)
        journal.synced = journal.applied.count
        if lastLayoutReport == nil { lastLayoutReport = report }
    }

    /// Applies one change to memory and writes exactly the rows it touches: at once, or — a row
    /// insert or removal — with the run of them it belongs to, written before the next change
    /// that does not continue the run and at the end of the transaction (`StoreWriting.willApply`).
    func apply(_ change: Change, tx: any StoreWriting, journal: inout Journal) throws {
        try tx.willApply(change, to: document, key)
        try document.apply(change)
        journal.applied.append(change)
        if change.isRowChange { journal.snapshotRows = nil }
        try tx.didApply(change, to: document, key)
    }

    /// Undo and redo must not move the view: a settings change keeps the current viewport and
    /// offset (view state is not part of undo steps). Returns the change actually applied.
    func applyKeepingView(_ change: Change, tx: any StoreWriting, journal: inout Journal) throws -> Change {
        let actual = Replayer.keepingView(change, in: document)
        try apply(actual, tx: tx, journal: &journal)
        return actual
    }

}
