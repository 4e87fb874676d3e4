import Foundation
import Layout
import StoreFormat

/// An open document of a `DocumentStore`: the in-memory `document` plus its history, kept in
/// step with the database.
///
/// Every method that changes the document runs in ONE transaction of the store's backend
/// (`StoreBackend`): it checks that the stored version is the one this handle last saw (another
/// process may have written — then it fails with a "stale" error and `reload()` catches up; an
/// edit is planned again on the newest version instead, `perform(_:planning:caughtUp:)`),
/// applies the primitive changes to memory and writes exactly those rows, appends the log entry,
/// and commits. On any error both the database and `document` are left as they were.
public final class StoredDocument {
    /// The database the document lives in.
    public let store: DocumentStore
    /// The document's name (unique in the database).
    public let name: String
    /// The current state, always equal to the stored state after the last successful call.
    public internal(set) var document: Document
    /// Who this handle writes as: recorded with every log entry it appends (`history` shows it
    /// per step; `undoOwn(_:)`/`redoOwn(_:)` act on this origin's steps). Default `StoredDocument.defaultOrigin`;
    /// nil records no origin, as the entries written before schema 6 have none (a `log export`
    /// script of such a history says `as none`).
    public var origin: String? = StoredDocument.defaultOrigin
    /// The document's identity in the backend: its key and its uid, never reused (not even by a
    /// document re-created under the same name after a drop). Checked with `version` by every
    /// transaction.
    let key: DocumentKey
    /// The history counters as this handle knows them (restored together when a write fails).
    var counters = Counters()
    /// When the next snapshot is due (restored with `counters`).
    var snapshotDue = SnapshotDue()
    /// Where the rows of the last load came from (a snapshot and the log after it, or the rows).
    public private(set) var loadSource: LoadSource = .rows(reason: nil)
    /// The live layout of `document`, built on first use (`liveLayout()`) and then kept in step
    /// by every change; dropped by `reload()`.
    var live: LiveLayout?
    /// The whole layout, materialised from `live` on demand; dropped by every change.
    var wholeLayoutCache: DocumentLayout?
    /// What the last change did to the live layout (nil when no live layout is kept).
    public internal(set) var lastLayoutReport: LayoutChangeReport?

    /// The counters of the stored document's record and log, as this handle last saw them.
    struct Counters {
        var version = 0
        var cursor = 0
        var stepCount = 0
        /// The open groups, by the origin that began each ('' for none; SPEC §3: a group
        /// belongs to its session): its `begin` entry's seq and label.
        var groups: [String: (seq: Int, label: String?)] = [:]
        /// Log entries are numbered 1...lastSeq.
        var lastSeq = 0
        /// The last log entry dropped by `compactHistory(before:)` (0: the whole history is kept).
        var historyBase = 0
    }

    /// What decides when a write ends with a snapshot (`SnapshotPolicy.isDue`).
    struct SnapshotDue {
        /// The log entry of the newest snapshot (0: none).
        var seq = 0
        /// The size of the newest snapshot's image (0: none): it sets the spacing of the next one.
        var bytes = 0
        /// The changes applied since the newest snapshot, as far as this handle knows (the tail
        /// it opened with plus its own writes).
        var changes = 0
    }

    /// Bumped by every write; compared with the stored version inside each write transaction.
    public var version: Int { counters.version }
    /// Undo steps applied (steps `1...cursor`); `stepCount` steps are recorded.
    public var cursor: Int { counters.cursor }
    /// Undo steps recorded (applied or undone).
    public var stepCount: Int { counters.stepCount }
    /// This session's open `begin … commit` group (the one `origin` began; another origin's
    /// open group is not this handle's): the seq of its `begin` entry and its label.
    /// A group whose `begin` records no origin (older files, `as none`) is anyone's.
    public var openGroup: (seq: Int, label: String?)? { ownGroupKey.flatMap { counters.groups[$0] } }
    /// The origins other than this handle's with a group open, sorted.
    public var othersOpenGroups: [String] { counters.groups.keys.filter { $0 != groupKey && !$0.isEmpty }.sorted() }
    /// The key of the group `begin` opens: this handle's origin, '' for none.
    var groupKey: String { origin ?? "" }
    /// The key of this session's open group (its origin's, else one that records none).
    var ownGroupKey: String? { [groupKey, ""].first { counters.groups[$0] != nil } }
    /// The last log entry dropped by `compactHistory(before:)` (0: the whole history is kept).
    /// The document right after it is the snapshot of that entry; the log starts after it.
    public internal(set) var historyBase: Int {
        get { counters.historyBase }
        set { counters.historyBase = newValue }
    }
    var lastSeq: Int { counters.lastSeq }
    var snapshotSeq: Int {
        get { snapshotDue.seq }
        set { snapshotDue.seq = newValue }
    }
    var snapshotBytes: Int {
        get { snapshotDue.bytes }
        set { snapshotDue.bytes = newValue }
    }
    var snapshotChanges: Int {
        get { snapshotDue.changes }
        set { snapshotDue.changes = newValue }
    }
    var id: Int64 { key.id }
    var uid: String { key.uid }

    /// For the history extensions: the new last entry, inside their transaction (restored with
    /// the rest when it fails).
    func setLastSeq(_ seq: Int) { counters.lastSeq = seq }
    /// For `compactHistory`: the undo steps as the compaction renumbered them.
    func setSteps(cursor: Int, count: Int) { (counters.cursor, counters.stepCount) = (cursor, count) }
    /// For the batch of a group's operations: each operation's report is the first one after it.
    func setLayoutReport(_ report: LayoutChangeReport?) { lastLayoutReport = report }

    init(store: DocumentStore, id: Int64, uid: String, name: String, preloaded: Document? = nil, live: LiveLayout? = nil) throws {
        self.store = store
        self.key = DocumentKey(id: id, uid: uid, name: name)
        self.name = name
        self.document = preloaded ?? Document(name: name)
        self.live = live
        try reload(rows: preloaded == nil)
    }

    /// Reloads the document and its history from the database (after a stale error, or to see
    /// another process's writes). Everything derived from the document (the live layout, the
    /// whole layout) is dropped and rebuilt from the reloaded state when next asked for. Fails
    /// with "document 'd' was dropped by another process" when the document this handle opened
    /// no longer exists (even when another one of the same name does).
    /// - Throws: `StoreError` (`droppedDocument`, or rows that cannot be read).
    public func reload() throws {
        try reload(rows: true)
    }

    func reload(rows: Bool) throws {
        try reading { tx in
            guard let header = try tx.header(key) else { throw dropped }
            try StoredValues.check(settings: header.settings, document: name, path: store.path)
            let storedLastSeq = max(header.historyBase, try tx.lastSeq(key))
            var tailChanges = 0
            if rows {
                (document, tailChanges) = try loadRows(tx, settings: header.settings, version: header.version, lastSeq: storedLastSeq)
            }
            var loaded = Counters(version: header.version, cursor: header.cursor, stepCount: try tx.stepCount(key),
                                  lastSeq: storedLastSeq, historyBase: header.historyBase)
            for (origin, groupSeq) in try tx.openGroups(key) {
                loaded.groups[origin] = (groupSeq, try tx.labelAndOrigin(key, seq: groupSeq)?.label)
            }
            counters = loaded
            let newest = try tx.newestSnapshotSize(key)
            (snapshotSeq, snapshotBytes) = (newest?.seq ?? 0, newest?.bytes ?? 0)
            if rows { snapshotChanges = tailChanges }
        }
        if rows {
            live = nil
            wholeLayoutCache = nil
            lastLayoutReport = nil
        }
    }

    /// The stored rows: the newest snapshot that checks out plus the log entries after it, or
    /// (none, or anything wrong with it or its tail) the stored rows. Both give the same
    /// document (`SnapshotTests`); the snapshot path reads one image instead of every row.
    /// Returns the document and how many changes of the tail it applied.
    private func loadRows(_ tx: any StoreReading, settings: DocumentSettings, version: Int, lastSeq: Int) throws -> (Document, Int) {
        var reason: String?
        do {
            // The log entries after the snapshot are read while its image is decoded.
            let (found, skipped) = try tx.newestSnapshot(key, name: name, atOrBeforeVersion: version, seq: lastSeq,
                                                         alongside: { [key] info in Result { try tx.tailChanges(key, after: info.seq, through: lastSeq) } })
            reason = skipped.first
            if let (info, image, read) = found, let read {
                var document = image
                let tail = try read.get()
                var changes = 0
                for entry in tail.changes {
                    try document.apply(entry)
                    changes += entry.count
                }
                if document.settings == settings {
                    loadSource = .snapshot(version: info.version, seq: info.seq, tail: tail.entries)
                    return (document, changes)
                }
                reason = "snapshot of version \(info.version): its settings after the log do not match the stored ones"
            }
        } catch where store.backend.isDamage(error) {
            throw error
        } catch {
            reason = "\(error)"
        }
        loadSource = .rows(reason: reason)
        // A reload must not fail halfway: never cancelled.
        return (try tx.loadRows(key, name: name, settings: settings, cancellation: .never), 0)
    }

    /// What `refreshIfStale()` found.
    public enum Refresh: Equatable, Sendable {
        /// Nobody else wrote the document: nothing was done.
        case current
        /// Another process wrote it: the handle was reloaded (derived layouts are rebuilt).
        case reloaded
        /// Another process dropped it: the handle can never read or write again.
        case dropped
    }

    /// Reloads the document when another connection has written it since this handle loaded
    /// it, and says what it found. One indexed read when nothing changed.
    /// - Throws: `StoreError` when the database cannot be read or the stored document cannot be
    ///   loaded.
    public func refreshIfStale() throws -> Refresh {
        switch try storedState() {
        case nil: return .dropped
        case version?: return .current
        default:
            do { try reload() } catch {
                if try storedState() == nil { return .dropped }
                throw error
            }
            return .reloaded
        }
    }

    /// The error of a handle whose document was dropped: "document 'd' was dropped by another
    /// process".
    public var dropped: StoreError { StoreError(.droppedDocument(name: name)) }

    /// The stored version of this handle's document, nil when it was dropped (its id is gone or
    /// belongs to another document now).
    func storedState() throws -> Int? {
        try reading { tx in try tx.storedVersion(key) }
    }

    /// Inside a read: fails unless the stored document is exactly the state this handle holds
    /// (so a query never mixes this handle's memory with another process's writes).
    func checkCurrent(_ tx: any StoreReading) throws {
        guard let stored = try tx.storedVersion(key) else { throw dropped }
        guard stored == version else { throw staleError(stored) }
    }

    func staleError(_ stored: Int) -> StoreError {
        StoreError(.staleDocument(name: name, storedVersion: stored, sessionVersion: version))
    }

    // MARK: Layouts

    /// The live layout of the document (built on the first call, O(n); then kept up to date by
    /// every change in O(log n) per change, and rebuilt after a reload).
    public func liveLayout() -> LiveLayout {
        if let live { return live }
        let built = LiveLayout(document)
        live = built
        return built
    }

    /// The whole layout (O(rows) on the first call after a change, then cached).
    public func wholeLayout() -> DocumentLayout {
        if let wholeLayoutCache { return wholeLayoutCache }
        let layout = liveLayout().layout()
        wholeLayoutCache = layout
        return layout
    }

    // MARK: Operations

    /// Plans `edit` on the current document and performs it (one operation, one transaction);
    /// when another process wrote the document since, plans it again on the newest version or
    /// refuses it as a conflict (`perform(_:planning:caughtUp:)`). Returns the primitive changes
    /// applied.
    /// - Parameter edit: The operation.
    /// - Throws: `StackDocError` when the edit does not plan (`noSuchRow`, `badValue`, …), another
    ///   process changed what it depends on (`editConflict`) or dropped the document, or the
    ///   database cannot be written; nothing changes.
    @discardableResult
    public func perform(_ edit: Edit) throws -> [Change] {
        try perform(edit, planning: { try document.plan(edit) })
    }

    /// Performs `edit` whose primitive changes are already planned (`document.plan(edit)`).
    /// An edit whose changes are empty is logged but makes no undo step. A stale handle fails
    /// (`staleDocument`: the changes were planned on the old version); `perform(_:planning:caughtUp:)`
    /// plans them again instead.
    /// - Parameters:
    ///   - edit: The operation, as the log records it.
    ///   - changes: Its primitive changes, planned on this document's current state.
    /// - Throws: `StackDocError` when a change breaks a rule of the document (the one validator),
    ///   the document is stale or dropped, or the database cannot be written; nothing changes.
    @discardableResult
    public func perform(_ edit: Edit, changes: [Change]) throws -> [Change] {
        for change in changes { try Validation.check(change) }
        return try transaction { tx, journal in
            let (seq, logged) = try write(edit, changes: changes, tx: tx, journal: &journal)
            if !edit.isViewState, openGroup == nil, !logged.isEmpty {
                try addStep(tx, first: seq, last: seq, label: nil)
            }
            return logged
        }
    }

    /// Inside a write transaction: applies one operation's checked `changes`, clamps the offset
    /// and logs it as the next entry (`view` or `op`, in the open group if any). Returns its seq
    /// and the changes as logged (with the clamp). `perform` and the group batch share it.
    func write(_ edit: Edit, changes: [Change], tx: any StoreWriting, journal: inout Journal) throws -> (seq: Int, logged: [Change]) {
        let logged = try applyForLog(changes, tx: tx, journal: &journal)
        let seq = lastSeq + 1
        try tx.appendLog(key, NewLogEntry(seq: seq, kind: edit.isViewState ? .view : .op, payload: try LogFormat.encode(edit),
                                          forward: logged.changes, forwardBlob: logged.blob, group: openGroup?.seq, origin: origin))
        setLastSeq(seq)
        return (seq, logged.changes)
    }

    // MARK: Transactions

    /// Runs `body` in one read transaction of the store.
    func reading<T>(_ body: (any StoreReading) throws -> T) throws -> T {
        try store.reading(body)
    }
}
