import Layout

/// The seam between the store's document logic (`DocumentStore`, `StoredDocument` and
/// `Sources/Store/Document/`) and a database engine (`Sources/Store/SQLite/`; a second backend
/// implements the same protocols and needs no change above them).
///
/// Everything above the seam speaks the store's vocabulary — documents, log entries, undo
/// steps, snapshots, rows changed by a `Change` — and never SQL. Every guarantee the document
/// logic builds on is named here:
///
/// - **Atomicity.** `write` runs its body in ONE transaction: either every call the body made
///   through the `StoreWriting` it was given is durable (per `StoreOptions.durability`) when
///   `write` returns, or — the body or the commit threw — none is, and the stored state is
///   the one before `write`.
/// - **Isolation.** Inside one `read` or `write`, every call sees one state of the database:
///   its own writes, and no other connection's commits made after the transaction's first read.
///   Writes of one document are serialized: a second writer waits (up to
///   `StoreOptions.busyTimeout`) and then fails with `databaseBusy`. (SQLite serializes every
///   write of the file; PostgreSQL locks the document's record in `storedVersion`, so writers of
///   different documents never wait for each other.)
/// - **Stale versions.** A backend never checks versions itself: the document logic reads
///   `storedVersion` first in every write and throws `staleDocument` when it is not the
///   version its handle holds, before writing anything (so a stale write changes nothing), and
///   sets the new one with `setHeader` in the same transaction.
/// - **Ordering.** Log entries of a document are numbered 1, 2, … by the writer
///   (`appendLog` with the next seq; a seq in use is a failure, never an overwrite); every read
///   of entries returns them in seq order.
/// - **Damage.** Damage a backend finds (a page the engine reports corrupt, a log entry that
///   does not decode) is recorded where it is found (`noteDamage`: the first is kept, and every
///   later `write` is refused) and thrown, never papered over; a log entry that does not decode
///   is `StoreError.damagedLogEntry`, naming the document and the entry.
protocol StoreBackend: AnyObject {
    /// The database as the user named it (a path, `:memory:`, a URL without its password).
    var path: String { get }
    /// The first damage found since the database was opened (nil: none); once set, `write`
    /// refuses to run.
    var damage: String? { get }
    /// Runs `body` in one read transaction (one state of the database). Inside
    /// `readingOneState`, on that one transaction.
    func read<T>(_ body: (any StoreReading) throws -> T) throws -> T
    /// Runs `body` in one write transaction (see the protocol's guarantees); refused on a
    /// read-only or damaged database and inside `readingOneState`.
    func write<T>(_ body: (any StoreWriting) throws -> T) throws -> T
    /// Runs `body` with one read transaction held open: every `read` it makes sees the same state.
    func readingOneState<T>(_ body: () throws -> T) throws -> T
    /// Records `error` as the database's damage when it reports damage (the first is kept);
    /// returns it.
    @discardableResult func noteDamage(_ error: Error) -> Error
    /// True when `error` says the database itself is damaged (not a value in it).
    func isDamage(_ error: Error) -> Bool
    /// True when writing a file at `target` would replace the database or one of its files.
    func isOwnFile(_ target: String) -> Bool
    /// The engine's own check of the whole database: one message per problem, [] when sound.
    func integrityCheck() throws -> [String]
    /// Stores a whole document read by `reading` (`DocumentStore.importDocument(reading:)`), in
    /// one transaction, logged as its `import` entry with its first snapshot; returns its id
    /// and what was read. Nothing is stored when anything fails.
    /// The change signal (live updates: `watch`, the prompt's announcement of remote changes):
    /// a token for the state of the database as this connection last saw another's commits.
    /// Taken before the document logic reads the log, so that no commit falls between the read
    /// and a later `waitForChange(after:)`. Outside any transaction; costs one round trip at most.
    func changeToken() throws -> ChangeToken
    /// Waits until another connection may have committed to the database since `token` was
    /// taken, and returns the new token; returns `token` itself when `timeout` seconds passed or
    /// `cancellation` was requested first. The guarantee the document logic builds on:
    ///
    /// - **Never missed.** A commit of another connection made after `token` was taken makes
    ///   this call return a token other than `token` within 100 ms of the commit (at once, when
    ///   it came before the call).
    /// - **A signal, no data.** A new token says only "look again": the caller reads its
    ///   document's stored version and, when it moved, the log entries after the last one it
    ///   saw (the log is the truth). Spurious signals are allowed (a commit to another document,
    ///   one of this connection's own): they cost the caller one indexed read.
    /// - **Free on the edit path.** Nothing runs while nobody waits: no thread, no trigger, no
    ///   extra write in a commit beyond what the backend's signal needs (on SQLite nothing:
    ///   `PRAGMA data_version` is polled every `ChangeToken.wakeInterval` while waiting; on a server,
    ///   one notification per committed command, e.g. PostgreSQL's `NOTIFY` with the document
    ///   uid and new version as its payload — never per row — received by `LISTEN`, and a
    ///   reconnected listener returns a new token at once so that its caller catches up from
    ///   the log).
    /// - **Bounded.** It returns within `timeout` plus one poll interval, and within one poll
    ///   interval of `cancellation` being requested; it never throws for a timeout.
    func waitForChange(after token: ChangeToken, timeout: Double, cancellation: Cancellation) throws -> ChangeToken
    /// Ends what `changeToken()` set up for waiting, once the caller waits no more (a `watch`
    /// ended): an idle session then holds nothing on the server (PostgreSQL: `UNLISTEN`, so that
    /// the server's notification queue never waits on a session that no longer reads its
    /// socket). The next `changeToken()` sets it up again. Nothing to do on SQLite.
    func stopWaiting() throws
    func importDocument(uid: String, cancellation: Cancellation,
                        reading: @escaping @Sendable (_ rows: @escaping @Sendable ([ImportedRow]) -> Bool) throws
                            -> (document: Document, rowsHandedOver: Bool)) throws -> (id: Int64, document: Document, live: LiveLayout?)
}

/// What `StoreBackend.changeToken()` returns: an opaque mark of the commits of other
/// connections a backend has seen, compared only for equality, and only with tokens of the
/// same backend.
public struct ChangeToken: Hashable, Sendable {
    var value: Int64

    /// How often a waiter in `StoreBackend.waitForChange` wakes while nothing arrives, on every
    /// backend (SQLite reads `PRAGMA data_version`, PostgreSQL checks the cancellation): half the
    /// seam's 100 ms bound.
    static let wakeInterval = 0.05
}

/// A stored document's identity: the backend's key and the uid, never reused (a document
/// dropped and created again under its name is another document); and its name, which the
/// backend's messages about it name.
struct DocumentKey: Hashable, Sendable {
    var id: Int64
    var uid: String
    var name: String
}

/// The stored counters of a document (its `document` record).
struct StoredHeader: Sendable {
    var settings: DocumentSettings
    var version: Int
    var cursor: Int
    /// The last log entry `history compact` dropped (0: none).
    var historyBase: Int
}

/// An undo step as stored: its log entries and label.
struct StoredStep: Sendable {
    var first: Int
    var last: Int
    var label: String?
}

/// One entry of an undo step as `history` shows it: the edit an `op` entry performed, the
/// entry a `restore` entry went back to, or the steps a compensating step reverts or re-applies.
enum StepEntry: Sendable {
    case edit(Edit)
    case restore(target: Int)
    case revert(StepRevert)
}

/// An undo step with whose it is (`StoreReading.stepOwners`).
struct StepOwner: Sendable, Equatable {
    /// The step's number (1-based).
    var n: Int
    /// Its log entries.
    var entries: ClosedRange<Int>
    /// The origin of its first entry (nil: none recorded).
    var origin: String?
    /// For a compensating step: the steps it reverts or re-applies.
    var reverts: StepRevert?
}

/// A log entry to append (`StoreWriting.appendLog`). `forward` nil: the entry changes nothing
/// (begin, commit, mark, new, import); its inverse is `forward.inverse`, never stored.
struct NewLogEntry {
    var seq: Int
    var kind: LogEntry.Kind
    var payload: String?
    var forward: [Change]?
    /// `ChangeBlob.encode(forward)` when it was made already (nil: the backend encodes).
    var forwardBlob: [UInt8]? = nil
    var group: Int? = nil
    var label: String? = nil
    var origin: String? = nil
}

/// A long run of row inserts or removals (at least `StoredDocument.parallelRunMinimum`), which
/// the backend writes on the transaction's thread while the document logic applies it to
/// memory on another (`StoredDocument+Runs`).
protocol LongRunWrite: AnyObject {
    /// Work that may run on a thread of its own beside memory, before and while `write` runs
    /// (keying and encoding rows); it returns the rows encoded for a snapshot image when
    /// `encodesImageRows` was set. Nil: the run has none.
    var beside: (@Sendable () -> SnapshotImage.Encoder?)? { get }
    /// Set before `beside` starts: the run fills an empty document, so its rows are also the
    /// snapshot image's (encoded once).
    var encodesImageRows: Bool { get set }
    /// The run's writes, on the transaction's thread.
    func write() throws
}

/// The reads of one transaction, in the store's vocabulary. Reads of a document that does not
/// exist return nil or nothing; reads of stored bytes that do not decode throw a corrupt-file
/// error (`StoreError.damagedLogEntry` for a log entry), recorded as the database's damage.
protocol StoreReading: AnyObject {
    // MARK: Database
    /// The schema version (the newest applied migration).
    func schemaVersion() throws -> Int
    /// Every document's name, sorted.
    func documentNames() throws -> [String]
    /// Every document with its counters, sorted by name.
    func documentSummaries() throws -> [DocumentSummary]
    /// The key of the document named `name` (nil: none).
    func documentKey(named name: String) throws -> DocumentKey?

    // MARK: A document's record and rows
    /// The stored version (nil: the document was dropped; its key names no document).
    func storedVersion(_ doc: DocumentKey) throws -> Int?
    /// The stored counters (nil: dropped).
    func header(_ doc: DocumentKey) throws -> StoredHeader?
    /// The document's rows, as stored (the row table), with `settings`.
    func loadRows(_ doc: DocumentKey, name: String, settings: DocumentSettings, cancellation: Cancellation) throws -> Document
    /// The rows import entry `seq` brought in (its image, written with the entry), with
    /// `settings` (the entry's); a missing or damaged image is a corrupt file.
    func importedRows(_ doc: DocumentKey, name: String, seq: Int, settings: DocumentSettings) throws -> Document

    // MARK: The log
    /// The last entry's seq (0: none).
    func lastSeq(_ doc: DocumentKey) throws -> Int
    /// Entries from `seq` on (at most `limit`), oldest first.
    func logEntries(_ doc: DocumentKey, from seq: Int, limit: Int?) throws -> [LogEntry]
    /// Calls `body` with every entry from `first` through `last`, oldest first, read one at a
    /// time: a replay of a long log holds one entry at a time.
    func forEachLogEntry(_ doc: DocumentKey, from first: Int, through last: Int, _ body: (LogEntry) throws -> Void) throws
    /// Entry `seq`'s label and origin (nil: no such entry).
    func labelAndOrigin(_ doc: DocumentKey, seq: Int) throws -> (label: String?, origin: String?)?
    /// The seq of the `mark` entry labelled `label` (nil: none).
    func markSeq(_ doc: DocumentKey, label: String) throws -> Int?
    /// Every `mark` entry (or the one labelled `label`), oldest first.
    func markEntries(_ doc: DocumentKey, label: String?) throws -> [LogEntry]
    /// Every `restore` entry after `seq`: its seq and the entry it went back to.
    func restoreTargets(_ doc: DocumentKey, after seq: Int) throws -> [(seq: Int, target: Int)]
    /// The settings an `import` entry recorded (nil: entry `seq` is not an import).
    func importSettings(_ doc: DocumentKey, seq: Int) throws -> DocumentSettings?
    /// The open groups (SPEC §3: a group belongs to its session): the seq of each one's `begin`
    /// entry by the origin that began it ('' for none).
    func openGroups(_ doc: DocumentKey) throws -> [String: Int]
    /// True when an entry of the group begun at `groupSeq` changed the document.
    func groupChangedDocument(_ doc: DocumentKey, groupSeq: Int) throws -> Bool
    /// The inverse changes of every entry of the group begun at `groupSeq` that changed the
    /// document (its `op`, `view` and `restore` entries), newest first.
    func inverses(_ doc: DocumentKey, group groupSeq: Int) throws -> [[Change]]
    /// The first entry after `seq` that rolled its group back with changes (a `commit` with a
    /// `forward`: `HistoryPayload.rollback`), nil when none.
    func firstRollback(_ doc: DocumentKey, after seq: Int) throws -> Int?
    /// The changes each entry in `(after, through]` applied, as logged (an undo or redo: the
    /// rows of the steps it moved), oldest first; entries that change nothing are left out.
    func appliedChanges(_ doc: DocumentKey, after: Int, through: Int) throws -> [(seq: Int, changes: [Change])]
    /// The forward changes of the entries in `(after, through]` (for a snapshot's tail),
    /// and how many entries there are.
    func tailChanges(_ doc: DocumentKey, after: Int, through: Int) throws -> (entries: Int, changes: [[Change]])

    // MARK: Undo steps
    /// How many undo steps are recorded.
    func stepCount(_ doc: DocumentKey) throws -> Int
    /// Step `n` (nil: none).
    func step(_ doc: DocumentKey, _ n: Int) throws -> StoredStep?
    /// Every step, oldest first.
    func steps(_ doc: DocumentKey) throws -> [StoredStep]
    /// The `op` and `restore` entries of the step of log entries `range` (here and in
    /// `operationChanges`: the entry `range.lowerBound` and the entries of the group it begins —
    /// another session's entries between a group's `begin` and `commit` are not its own), as
    /// `history` shows them.
    func stepEntries(_ doc: DocumentKey, in range: ClosedRange<Int>) throws -> [StepEntry]
    /// The forward (or `inverse`) changes of each operation of the step of log entries `range`
    /// (as `stepEntries` reads them), in log order, each with its seq.
    func operationChanges(_ doc: DocumentKey, in range: ClosedRange<Int>, inverse: Bool) throws -> [CursorWalk.Op]
    /// Every step, oldest first, each with its log entries, the origin of its first entry and,
    /// for a compensating step (a `restore` entry whose payload names the steps it reverts or
    /// re-applies, `HistoryPayload.revert`), what it does: what per-person undo and redo decide
    /// from (SPEC §3). One read of the steps and their first entries: O(steps).
    func stepOwners(_ doc: DocumentKey) throws -> [StepOwner]

    // MARK: Snapshots
    /// The newest snapshot's entry and image size (nil: none).
    func newestSnapshotSize(_ doc: DocumentKey) throws -> (seq: Int, bytes: Int)?
    /// The stored snapshots, newest first (images not read).
    func snapshots(_ doc: DocumentKey) throws -> [SnapshotInfo]
    /// The image size of the snapshot of entry `seq` (nil: none).
    func snapshotBytes(_ doc: DocumentKey, seq: Int) throws -> Int?
    /// The newest version of a snapshot of entry `seq` (nil: none).
    func snapshotVersion(_ doc: DocumentKey, seq: Int) throws -> Int?
    /// Snapshot `version`'s image, checked (checksum, uid, version); `alongside` runs on this
    /// thread while the image decodes on another.
    func readSnapshot<T>(_ doc: DocumentKey, name: String, version: Int, alongside: () -> T) throws -> (SnapshotInfo, Document, T)
    /// The newest snapshot at or before `version` and entry `seq` that checks out (and why the
    /// newer ones were skipped); `alongside` runs beside its decoding, given the one found.
    func newestSnapshot<T>(_ doc: DocumentKey, name: String, atOrBeforeVersion version: Int, seq: Int,
                           alongside: ((SnapshotInfo) -> T)?) throws -> (found: (SnapshotInfo, Document, T?)?, skipped: [String])
}

extension StoreReading {
    /// Snapshot `version`'s image, checked.
    func readSnapshot(_ doc: DocumentKey, name: String, version: Int) throws -> (SnapshotInfo, Document) {
        let (info, document, _) = try readSnapshot(doc, name: name, version: version) { () }
        return (info, document)
    }

    /// The newest snapshot at or before `version` and entry `seq` that checks out.
    func newestSnapshot(_ doc: DocumentKey, name: String, atOrBeforeVersion version: Int, seq: Int) throws -> (SnapshotInfo, Document)? {
        try newestSnapshot(doc, name: name, atOrBeforeVersion: version, seq: seq, alongside: nil as ((SnapshotInfo) -> Void)?).found.map { ($0.0, $0.1) }
    }
}

/// The writes of one transaction (and its reads: a write sees its own writes).
protocol StoreWriting: StoreReading {
    /// Creates a document's record; fails with `documentExists` when the name is in use.
    func insertDocument(name: String, settings: DocumentSettings, uid: String) throws -> Int64
    /// Deletes the document named `name` with its rows and history; false when there is none.
    func dropDocument(named name: String) throws -> Bool
    /// Stores the document's counters (and its modification time: now).
    func setHeader(_ doc: DocumentKey, version: Int, cursor: Int) throws
    /// Records (`seq`: its `begin` entry) or ends (nil) the open group of `origin` ('' for none).
    func setOpenGroup(_ doc: DocumentKey, origin: String, seq: Int?) throws
    /// Stores the base a history compaction left.
    func setHistoryBase(_ doc: DocumentKey, _ base: Int) throws

    // MARK: Rows
    /// Called before `change` is applied to memory (`document` is still the state before it):
    /// writes the pending run of row inserts or removals when `change` does not continue it.
    func willApply(_ change: Change, to document: Document, _ doc: DocumentKey) throws
    /// Writes the rows `change` touched (`document`: the state after it), or keeps it in the
    /// pending run.
    func didApply(_ change: Change, to document: Document, _ doc: DocumentKey) throws
    /// Writes the pending run (`document`: the state after it). Called before the commit.
    func flushRows(after document: Document, _ doc: DocumentKey) throws
    /// How many of `changes`, from its start, make one run of row inserts or removals.
    func leadingRunLength(of changes: ArraySlice<Change>) -> Int
    /// Prepares the long run `changes` (`leadingRunLength`) for `document`, the state before it.
    func longRun(_ changes: ArraySlice<Change>, before document: Document, _ doc: DocumentKey) throws -> any LongRunWrite

    // MARK: The log
    /// Appends an entry (its seq must be the next one).
    func appendLog(_ doc: DocumentKey, _ entry: NewLogEntry) throws
    /// Deletes the entries from `seq` on (a rolled-back group nobody else wrote during).
    func deleteLog(_ doc: DocumentKey, from seq: Int) throws
    /// Deletes the entries through `seq` (compaction); returns how many.
    func deleteLog(_ doc: DocumentKey, through seq: Int) throws -> Int
    /// Replaces the payload of entry `seq`.
    func setPayload(_ doc: DocumentKey, seq: Int, _ payload: String) throws
    /// Deletes the images of `import` entries through `seq` (compaction).
    func deleteImportImages(_ doc: DocumentKey, through seq: Int) throws

    // MARK: Undo steps
    /// Deletes the steps after `n` (all of them for 0).
    func deleteSteps(_ doc: DocumentKey, after n: Int) throws
    /// Records step `n`.
    func insertStep(_ doc: DocumentKey, _ n: Int, _ step: StoredStep) throws

    // MARK: Snapshots
    /// Writes a snapshot of `document` (version `version`, after entry `seq`), keeping the
    /// newest `keep`; `rows`: its rows encoded already.
    func writeSnapshot(_ doc: DocumentKey, version: Int, seq: Int, document: Document, keep: Int,
                       rows: SnapshotImage.Encoder?) throws -> SnapshotInfo
    /// Deletes snapshot `version`.
    func deleteSnapshot(_ doc: DocumentKey, version: Int) throws
    /// Deletes the snapshots of entries before `seq`; returns how many.
    func deleteSnapshots(_ doc: DocumentKey, before seq: Int) throws -> Int
}
