import Layout
import StackDocRuntime
import StoreFormat

/// A write's long runs of row inserts or removals on two threads: the run's writes on the
/// calling thread (the backend's connection belongs to it), its application to memory — the
/// `Document` and then the live layout — on a second one, at the same time. A `clear` of 100k
/// rows, its undo and redo are mostly such a run: SQLite's inserts or range delete on one side,
/// `Document.apply` of each change and the live layout's update on the other
/// (docs/store.md, "A long run on two threads").
///
/// What stays exact: the run's rows are written from the document as it is before the run
/// (`StoreWriting.longRun`; the rows come out as the sequential path writes them), memory
/// follows the changes one by one as `apply` does, and the transaction commits only after both
/// threads are done. When either fails, both are waited for, the journal records exactly the
/// changes memory took, and the error rolls the database and memory back as any failed write
/// does (`transaction`).
extension StoredDocument {
    /// Runs shorter than this are applied change by change on one thread (a thread costs ≈ 0.1 ms;
    /// a run of this size costs milliseconds).
    static let parallelRunMinimum = 2_048

    /// Applies `changes` in order inside a write transaction, as `apply(_:db:journal:)` each
    /// (`keepingView`: as `applyKeepingView`), and returns them as applied. Every run of at least
    /// `parallelRunMinimum` row inserts or removals is written while another thread applies it
    /// to memory; when it ends the list (`final`: no other change follows in this transaction
    /// but an offset clamp), that thread also brings the live layout up to date, with the
    /// report the sequential path would give.
    func apply(_ changes: [Change], keepingView: Bool, final: Bool, tx: any StoreWriting, journal: inout Journal) throws -> [Change] {
        try apply(changes, keepingView: keepingView, final: final, encodingForLog: false, tx: tx, journal: &journal).applied
    }

    /// `apply(_:keepingView:final:db:journal:)`; with `encodingForLog`, the calling thread also
    /// encodes `changes` for the log entry (`ChangeBlob.encode`) while the other thread applies
    /// the first long run — `blob`, nil when there was no long run (or the log is not written in
    /// binary) — instead of after the changes are applied (`applyForLog`).
    func apply(_ changes: [Change], keepingView: Bool, final: Bool, encodingForLog: Bool, tx: any StoreWriting,
               journal: inout Journal) throws -> (applied: [Change], blob: [UInt8]?) {
        // Without `keepingView` the changes are applied as they are: `changes` is the answer
        // (shared, not a copy of a list that can hold 100k changes).
        var applied: [Change] = []
        var blob: [UInt8]?
        var encodeBlob = encodingForLog
        var i = 0
        while i < changes.count {
            let length = tx.leadingRunLength(of: changes[i...])
            if length >= Self.parallelRunMinimum {
                let range = i..<(i + length)
                try applyInParallel(changes[range], syncLayout: final && range.upperBound == changes.count, tx: tx, journal: &journal) {
                    // A failure here (a non-finite number) is met again, and thrown, by `LogWriter`.
                    if encodeBlob { blob = try? ChangeBlob.encode(changes) }
                    encodeBlob = false
                }
                if keepingView { Self.append(changes[range], to: &applied) }
                i = range.upperBound
                continue
            }
            // A short run (or one change that is not a row insert or removal): one by one.
            for change in changes[i..<(i + max(1, length))] {
                if keepingView {
                    applied.append(try applyKeepingView(change, tx: tx, journal: &journal))
                } else {
                    try apply(change, tx: tx, journal: &journal)
                }
            }
            i += max(1, length)
        }
        return (keepingView ? applied : changes, blob)
    }

    /// Applies a write's `changes` (`apply(_:keepingView:final:db:journal:)`, not keeping the
    /// view) and clamps the offset: the changes its log entry records, with their blob when it
    /// was encoded while a long run was applied. That early blob encodes `changes`, so it is the
    /// entry's only when the clamp adds nothing; otherwise `LogWriter` encodes the list again.
    func applyForLog(_ changes: [Change], tx: any StoreWriting, journal: inout Journal) throws -> LoggedChanges {
        let (applied, early) = try apply(changes, keepingView: false, final: true, encodingForLog: true, tx: tx, journal: &journal)
        let clamp = try clampOffset(tx: tx, journal: &journal)
        guard clamp.isEmpty else { return LoggedChanges(changes: applied + clamp, blob: nil) }
        return LoggedChanges(changes: applied, blob: early)
    }

    /// Writes `run` (its changes `changes`) on this thread while a second thread applies them to
    /// `document` (and, with `syncLayout`, brings the live layout up to date with them and with
    /// the changes applied before but not yet shown to it).
    /// `alongside` runs on this thread after the run's SQL, before waiting for the other thread.
    private func applyInParallel(_ changes: ArraySlice<Change>, syncLayout: Bool, tx: any StoreWriting,
                                 journal: inout Journal, alongside: () -> Void) throws {
        // The backend writes the pending run first, while memory holds exactly the state right
        // after it, and prepares this one (for a bulk insert run: its rows, keyed and encoded
        // for the INSERTs on a thread of its own, handed over in batches).
        let run = try tx.longRun(changes, before: document, key)
        let layoutPending = syncLayout && live != nil ? Array(journal.applied[journal.synced...]) : nil
        // The memory moves to the other thread (uniquely referenced: applied in place, not copied).
        let memory = MemoryInFlight(document: document, live: layoutPending == nil ? nil : live)
        document = Document(name: name)
        if layoutPending != nil { live = nil }
        let encodeRows = syncLayout && snapshotLikely(after: changes, journal: journal)
        // A run that fills an empty document (the undo of a `clear`) is the document after it:
        // its rows are encoded for the snapshot image as they are for the INSERTs.
        run.encodesImageRows = encodeRows && memory.document.rowCount == 0
        // The backend's work beside memory runs ahead of its writes by at most its queue's
        // batches: memory does not wait for it to end, and waits for it only at its end (for
        // the image).
        let encoding = run.beside.map { work in BackgroundTask { work() } }
        let other = BackgroundTask {
            let outcome = memory.apply(changes, layoutPending: layoutPending, encodeRows: encodeRows, image: { encoding?.value ?? nil })
            _ = encoding?.value  // (ended before the memory is taken back, whatever the outcome)
            return outcome
        }
        var sqlError: (any Error)?
        do {
            try run.write()
        } catch {
            sqlError = error
        }
        if sqlError == nil { alongside() }
        let outcome = other.value
        document = memory.take()
        if layoutPending != nil { live = memory.live }
        Self.append(changes.prefix(outcome.applied), to: &journal.applied)
        journal.snapshotRows = outcome.rows
        if let report = outcome.report {
            journal.synced = journal.applied.count
            if lastLayoutReport == nil { setLayoutReport(report) }
        }
        // A change memory refuses is the cause; the SQL written for it is rolled back with it.
        if let error = outcome.error { throw error }
        if let sqlError { throw sqlError }
    }

    /// Appends `more` to `list`; when `list` is empty it becomes `more`'s own storage
    /// (`Array(_:)` of a slice that is all of an array copies nothing): a long run's 100k changes
    /// are not copied into the journal or the live layout's list.
    /// Nothing is appended when `more` is empty (appending even nothing copies a list whose
    /// storage is shared).
    static func append(_ more: ArraySlice<Change>, to list: inout [Change]) {
        if list.isEmpty { list = Array(more) } else if !more.isEmpty { list += more }
    }

    /// True when the write, once `run` is applied (and logged as one entry), will likely end
    /// with a snapshot (`SnapshotPolicy.isDue`): then the other thread encodes the rows for it.
    /// Only a guess: a wrong one costs that encoding or leaves it to `Snapshots.write`.
    private func snapshotLikely(after run: ArraySlice<Change>, journal: Journal) -> Bool {
        guard openGroup == nil else { return false }
        var rows = document.rowCount
        if case .insertRow? = run.first { rows += run.count } else { rows -= run.count }
        return store.options.snapshots.isDue(entries: lastSeq + 1 - snapshotSeq, changes: snapshotChanges + journal.applied.count + run.count,
                                             imageBytes: snapshotBytes, rows: rows)
    }
}

/// A write's changes as its log entry records them (`forward`): the changes applied and the
/// offset clamp (`StoredDocument.applyForLog`).
struct LoggedChanges {
    var changes: [Change]
    /// `ChangeBlob.encode(changes)` when it was made while a long run was applied; nil: not
    /// made yet (`LogWriter.append` encodes `changes`).
    var blob: [UInt8]? = nil
}

/// The document (and live layout) of a handle while another thread applies a run to it; the
/// handle takes them back after `BackgroundTask.value` (the one synchronisation point).
private final class MemoryInFlight: @unchecked Sendable {
    private(set) var document: Document
    private(set) var live: LiveLayout?

    struct Outcome: Sendable {
        /// How many of the changes memory took (all unless `error`).
        var applied: Int
        var error: (any Error)?
        /// The live layout's report (nil when it was not updated).
        var report: LayoutChangeReport?
        /// The rows encoded for a snapshot (when asked).
        var rows: SnapshotImage.Encoder?
    }

    init(document: Document, live: LiveLayout?) {
        self.document = document
        self.live = live
    }

    /// Applies `changes` to the document, then (`layoutPending` not nil) to the live layout,
    /// together with `layoutPending`, the changes applied before them that it has not seen;
    /// then (`encodeRows`) encodes the rows for a snapshot — unless `image` (which waits for the
    /// encoding thread) gives them already (`RowRunWriter.encode` of a run that filled the empty
    /// document).
    func apply(_ changes: ArraySlice<Change>, layoutPending: [Change]?, encodeRows: Bool,
               image: () -> SnapshotImage.Encoder?) -> Outcome {
        var applied = 0
        do {
            // Compacting once at the end, not at each halving of a long removal run.
            try document.apply(run: changes, applied: &applied)
        } catch {
            return Outcome(applied: applied, error: error, report: nil)
        }
        var outcome = Outcome(applied: applied, error: nil, report: nil)
        if var pending = layoutPending, live != nil {
            StoredDocument.append(changes, to: &pending)
            outcome.report = live!.apply(pending, to: document)
        }
        if encodeRows { outcome.rows = image() ?? SnapshotImage.encodeRows(document) }
        return outcome
    }

    /// The document, leaving an empty one here (so the handle's copy stays uniquely referenced).
    func take() -> Document {
        let taken = document
        document = Document(name: taken.name)
        return taken
    }
}
