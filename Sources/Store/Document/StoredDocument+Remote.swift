import Layout

/// One change another session committed to an open document, as its log records it: one log
/// entry after the last one the handle had seen (`StoredDocument.catchUp()`).
public struct RemoteChange {
    /// The log entry: its seq, kind, operation, label (a group's `begin`/`commit`, a mark's
    /// name), origin and time.
    public var entry: LogEntry
    /// The undo step the entry completed — an operation outside a group, a group's `commit`, a
    /// `restore` — as numbered when the handle caught up; nil for the other entries.
    public var step: Int?
    /// How many rows its changes touched (an undo or redo: the rows of the steps it moved; a
    /// group's `commit`: the rows of the group's operations).
    public var rows: Int
    /// True when it changed the document's settings (viewport, offset, axis, …).
    public var changedSettings: Bool
    /// What it did to the live layout, when the handle keeps one and caught up entry by entry
    /// (nil otherwise: the handle reloaded).
    public var layout: LayoutChangeReport?
}

/// Live updates (issue 34): catching up with other sessions' commits from the log, and waiting
/// for the next one through the backend's change signal (`StoreBackend.waitForChange`).
extension StoredDocument {
    /// The backend's change signal as this handle's connection sees it now; pass it to
    /// `waitForRemoteChange(after:timeout:)`. Take it before `catchUp()`, so that a commit made
    /// between the two is signalled.
    /// - Throws: `StoreError` when the database cannot be read.
    public func changeToken() throws -> ChangeToken {
        try store.backend.changeToken()
    }

    /// Waits until another connection may have committed (a new token: call `catchUp()`), or
    /// `timeout` seconds pass or the store's `cancellation` is requested (the same token). Costs
    /// nothing while nobody waits (SQLite: polls `PRAGMA data_version` every 50 ms while it
    /// waits; PostgreSQL: sleeps on the connection's socket for a `NOTIFY`).
    /// - Throws: A store error when the database cannot be read.
    public func waitForRemoteChange(after token: ChangeToken, timeout: Double) throws -> ChangeToken {
        try store.backend.waitForChange(after: token, timeout: timeout, cancellation: store.cancellation)
    }

    /// Ends the waiting that `changeToken()` set up, when the caller will not wait again soon
    /// (a `watch` ended): an idle session then holds nothing on the server (PostgreSQL stops
    /// listening; SQLite holds nothing anyway). The next `changeToken()` sets it up again.
    /// - Throws: A store error when the database cannot be reached.
    public func stopWaitingForRemoteChanges() throws {
        try store.backend.stopWaiting()
    }

    /// Brings the handle up to date with what other sessions committed since it last read or
    /// wrote the document, and returns those changes, oldest first: the log entries after the
    /// last one it had seen (the log is the truth; a signal carries no data). Its own writes
    /// are never among them. One indexed read when nothing changed.
    ///
    /// The entries' changes are applied to memory and to the live layout one entry at a time
    /// (each change's `layout` report; O(log n) per changed row). The document is reloaded
    /// instead (no layout reports) when the entries may not lead from the handle's state to the
    /// stored one: the history was compacted, a group was open when the handle last looked (its
    /// rollback deletes entries the handle applied), the log holds no entry after the handle's
    /// last (a rollback), or the result's settings are not the stored ones.
    /// - Throws: `StoreError` (`droppedDocument` when another session dropped it), or a
    ///   store error when the database cannot be read; the handle is then as it was.
    public func catchUp() throws -> [RemoteChange] {
        try caughtUp().changes
    }

    /// What `caughtUp()` found: the remote changes, and what a stale edit being planned again
    /// needs to know of them (`perform(_:planning:caughtUp:)`).
    struct CaughtUp {
        /// The changes, oldest first (`catchUp()`'s answer).
        var changes: [RemoteChange] = []
        /// Each change's primitive changes as applied (an undo/redo: the moved steps' too).
        var applied: [[Change]] = []
        /// The undo step each change's entry belongs to (its completing entry, or an operation
        /// of a group, by the group's step); nil for the others (undo, redo, view, mark, …).
        var steps: [Int?] = []
        /// False when the handle was reloaded instead of applying the entries: what happened in
        /// between is not known from them.
        var replayed = true
    }

    /// `catchUp()`, with what it applied.
    func caughtUp() throws -> CaughtUp {
        try store.readingOneState {
            let read = try reading { tx -> (header: StoredHeader, entries: [LogEntry], applied: [Int: [Change]], steps: [Int: (n: Int, first: Int, last: Int)], groups: [Int: [Change]])? in
                guard let header = try tx.header(key) else { throw dropped }
                guard header.version != version else { return nil }
                let stored = try tx.lastSeq(key)
                guard stored > lastSeq else { return (header, [], [:], [:], [:]) }
                let entries = try tx.logEntries(key, from: lastSeq + 1, limit: nil)
                var applied: [Int: [Change]] = [:]
                for (seq, changes) in try tx.appliedChanges(key, after: lastSeq, through: stored) { applied[seq] = changes }
                let steps = try stepsCompleted(tx, after: lastSeq)
                // A group's commit changes nothing itself: it stands for its operations' changes.
                var groups: [Int: [Change]] = [:]
                for entry in entries where entry.kind == .commit {
                    guard let step = steps[entry.seq] else { continue }
                    groups[entry.seq] = try tx.operationChanges(key, in: step.first...step.last, inverse: false).flatMap(\.changes)
                }
                return (header, entries, applied, steps, groups)
            }
            guard let read else { return CaughtUp() }
            // A history rewritten under the handle (compaction, a rollback of a group it saw
            // open — anyone's, a log shorter than it knew): the entries after its last one do not lead from
            // its memory to the stored state.
            let replayable = read.header.historyBase == historyBase && counters.groups.isEmpty && !read.entries.isEmpty
                && read.entries.first?.seq == lastSeq + 1
            var changes = read.entries.map { entry in
                let applied = read.applied[entry.seq] ?? read.groups[entry.seq] ?? []
                return RemoteChange(entry: entry, step: read.steps[entry.seq]?.n, rows: Self.rowsTouched(applied),
                                    changedSettings: applied.contains { if case .updateSettings = $0 { true } else { false } })
            }
            let applied = changes.map { read.applied[$0.entry.seq] ?? [] }
            let replayed = replayable && (try? apply(applied)).map { reports in
                for i in changes.indices { changes[i].layout = reports[i] }
                return true
            } == true
            if replayed, document.settings == read.header.settings {
                let counted = snapshotChanges + read.applied.values.reduce(0) { $0 + $1.count }
                try reload(rows: false)
                snapshotChanges = counted
                return CaughtUp(changes: changes, applied: applied, steps: Self.steps(of: read.entries, in: Array(read.steps.values)),
                                replayed: true)
            }
            for i in changes.indices { changes[i].layout = nil }
            try reload()
            return CaughtUp(changes: changes, applied: applied, steps: changes.map(\.step), replayed: false)
        }
    }

    /// Applies each entry's changes to memory and to the live layout (when one is kept); returns
    /// each entry's layout report. On a change that does not apply, memory is put back and it throws.
    private func apply(_ entries: [[Change]]) throws -> [LayoutChangeReport?] {
        var done: [Change] = []
        do {
            var reports: [LayoutChangeReport?] = []
            for changes in entries {
                for change in changes {
                    try document.apply(change)
                    done.append(change)
                }
                reports.append(changes.isEmpty ? nil : live?.apply(changes, to: document))
            }
            wholeLayoutCache = nil
            lastLayoutReport = nil
            return reports
        } catch {
            try? document.apply(done.inverse)
            live = nil
            wholeLayoutCache = nil
            throw error
        }
    }

    /// The undo steps completed by entries after `seq` (their number and first entry), by the
    /// seq of the entry that completed each (its last). Steps are numbered in log order: reads
    /// only the steps after `seq`.
    private func stepsCompleted(_ tx: any StoreReading, after seq: Int) throws -> [Int: (n: Int, first: Int, last: Int)] {
        var found: [Int: (n: Int, first: Int, last: Int)] = [:]
        var n = try tx.stepCount(key)
        while n > 0, let step = try tx.step(key, n), step.last > seq {
            found[step.last] = (n, step.first, step.last)
            n -= 1
        }
        return found
    }

    /// The step whose entries hold each of `entries` (in seq order), nil for none: one sweep
    /// over `steps` sorted by their first entry (steps never overlap).
    static func steps(of entries: [LogEntry], in steps: [(n: Int, first: Int, last: Int)]) -> [Int?] {
        let sorted = steps.sorted { $0.first < $1.first }
        var next = 0
        return entries.map { entry in
            while next < sorted.count, sorted[next].last < entry.seq { next += 1 }
            guard next < sorted.count, sorted[next].first <= entry.seq else { return nil }
            return sorted[next].n
        }
    }

    /// How many distinct rows `changes` touch.
    static func rowsTouched(_ changes: [Change]) -> Int {
        var rows = Set<RowID>()
        for change in changes {
            switch change {
            case let .insertRow(id, _, _, _), let .removeRow(id, _, _, _), let .updateRow(id, _, _), let .moveRow(id, _, _, _, _):
                rows.insert(id)
            case .updateSettings:
                break
            }
        }
        return rows.count
    }
}
