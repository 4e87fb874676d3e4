import Foundation
import GRDB
import Layout
import StoreFormat

/// An open document of a `DocumentStore`: the in-memory `document` plus its history, kept in
/// step with the database.
///
/// Every method that changes the document runs in ONE SQLite transaction: it checks that the
/// stored version is the one this handle last saw (another process may have written — then it
/// fails with a "stale" error and `reload()` catches up), applies the primitive changes to
/// memory and writes exactly those rows, appends the log entry, and commits. On any error both
/// the database and `document` are left as they were.
public final class StoredDocument {
    /// The database the document lives in.
    public let store: DocumentStore
    /// The document's name (unique in the database).
    public let name: String
    /// The current state, always equal to the stored state after the last successful call.
    public internal(set) var document: Document
    /// Bumped by every write; compared with the stored version inside each write transaction.
    public private(set) var version: Int = 0
    /// Undo steps applied (steps `1...cursor`); `stepCount` steps are recorded.
    public private(set) var cursor: Int = 0
    /// Undo steps recorded (applied or undone).
    public private(set) var stepCount: Int = 0
    /// The open `begin … commit` group: the seq of its `begin` entry and its label.
    public private(set) var openGroup: (seq: Int, label: String?)?
    /// Who this handle writes as: recorded with every log entry it appends (`history` shows it
    /// per step; `undo(mine:)` undoes only this origin's steps). Default `StoredDocument.defaultOrigin`;
    /// nil records no origin, as the entries written before schema 6 have none (a `log export`
    /// script of such a history says `as none`).
    public var origin: String? = StoredDocument.defaultOrigin

    /// The origin of a handle that was given none: the operating-system user's name (of the
    /// effective user id, else `$USER`, else `$LOGNAME`, else `user`; the first that is a valid
    /// origin). Stable: the same session run twice records the same log, so a log exported
    /// from it is the same file each time. (Two sessions of one user share it; `--as NAME`
    /// tells them apart.)
    public static var defaultOrigin: String {
        let env = ProcessInfo.processInfo.environment
        var account: String?
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { account = String(cString: name) }
        return [account, env["USER"], env["LOGNAME"]].compactMap { $0 }.first { isValidOrigin($0) } ?? "user"
    }

    /// An origin (`--as NAME`): 1 to 64 characters of `A-Z a-z 0-9 _ . - : @`.
    public static func isValidOrigin(_ origin: String) -> Bool {
        !origin.isEmpty && origin.unicodeScalars.count <= 64
            && origin.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.-:@".unicodeScalars.contains($0)) }
    }

    let id: Int64
    /// The document's identity: never reused, not even by a document re-created under the same
    /// name after a drop (migration 0003). Checked with `version` by every transaction.
    let uid: String
    private(set) var lastSeq: Int = 0
    /// The log entry of the newest snapshot (0: none); a write that takes the log
    /// `SnapshotPolicy.interval` entries past it writes a new one.
    var snapshotSeq: Int = 0
    /// The size of the newest snapshot's image (0: none): it sets the spacing of the next one
    /// (`SnapshotPolicy.spacing(imageBytes:)`).
    var snapshotBytes: Int = 0
    /// The changes applied since the newest snapshot, as far as this handle knows (the tail it
    /// opened with plus its own writes); a write that takes them to
    /// `SnapshotPolicy.changeSpacing(rows:)` writes a new one.
    var snapshotChanges: Int = 0
    /// The changes the last load applied after its snapshot (0: loaded from the rows).
    private var tailChanges = 0
    /// The last log entry dropped by `compactHistory(before:)` (0: the whole history is kept).
    /// The document right after it is the snapshot of that entry; the log starts after it.
    public internal(set) var historyBase: Int = 0
    /// Where the rows of the last load came from (a snapshot and the log after it, or the rows).
    public private(set) var loadSource: LoadSource = .rows(reason: nil)
    /// For the history extensions: the new last entry, inside their transaction (restored with
    /// the rest when it fails).
    func setLastSeq(_ seq: Int) { lastSeq = seq }
    /// For `compactHistory`: the undo steps as the compaction renumbered them.
    func setSteps(cursor: Int, count: Int) { (self.cursor, stepCount) = (cursor, count) }

    /// For the batch of a group's operations: each operation's report is the first one after it.
    func setLayoutReport(_ report: LayoutChangeReport?) { lastLayoutReport = report }

    /// The live layout of `document`, built on first use (`liveLayout()`) and then kept in step
    /// by every change; dropped by `reload()`.
    var live: LiveLayout?
    /// The whole layout, materialised from `live` on demand; dropped by every change.
    private var wholeLayoutCache: DocumentLayout?
    /// What the last change did to the live layout (nil when no live layout is kept).
    public private(set) var lastLayoutReport: LayoutChangeReport?

    init(store: DocumentStore, id: Int64, uid: String, name: String, preloaded: Document? = nil, live: LiveLayout? = nil) throws {
        self.store = store
        self.id = id
        self.uid = uid
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
    /// - Throws: `StackDocError` (`droppedDocument`, or rows that cannot be read).
    public func reload() throws {
        try reload(rows: true)
    }

    private func reload(rows: Bool) throws {
        try store.read { db in
            guard let row = try GRDB.Row.fetchOne(db, sql: "SELECT * FROM document WHERE id = ? AND uid = ?", arguments: [id, uid]) else {
                throw dropped
            }
            let settings = try ColumnCoding.settings(row)
            try StoredValues.check(settings: settings, document: name, path: store.path)
            let storedVersion: Int = try row.decode(forColumn: "version")
            let base: Int = try row.decode(forColumn: "history_base")
            let storedLastSeq = max(base, try Int.fetchOne(db, sql: "SELECT max(seq) FROM log WHERE document = ?", arguments: [id]) ?? 0)
            if rows {
                document = try loadRows(db, settings: settings, version: storedVersion, lastSeq: storedLastSeq)
            }
            version = storedVersion
            cursor = try row.decode(forColumn: "cursor")
            if let groupSeq: Int = try row.decode(forColumn: "open_group") {
                let label = try String.fetchOne(db, sql: "SELECT label FROM log WHERE document = ? AND seq = ?", arguments: [id, groupSeq])
                openGroup = (groupSeq, label)
            } else {
                openGroup = nil
            }
            stepCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM step WHERE document = ?", arguments: [id]) ?? 0
            lastSeq = storedLastSeq
            historyBase = base
            // A scan, not a key search, which would read every image it compares with (`Snapshots.list`).
            let newest = try GRDB.Row.fetchOne(db, sql: "SELECT seq, bytes FROM snapshot_image WHERE +document = ? ORDER BY seq DESC LIMIT 1",
                                               arguments: [id])
            snapshotSeq = try newest?.decode(forColumn: "seq") ?? 0
            snapshotBytes = try newest?.decode(forColumn: "bytes") ?? 0
            if rows { snapshotChanges = tailChanges }
        }
        if rows {
            live = nil
            wholeLayoutCache = nil
            lastLayoutReport = nil
        }
    }

    /// The stored rows: the newest snapshot that checks out plus the log entries after it, or
    /// (none, or anything wrong with it or its tail) the `row` table. Both give the same
    /// document (`SnapshotTests`); the snapshot path reads one blob instead of every row.
    private func loadRows(_ db: Database, settings: DocumentSettings, version: Int, lastSeq: Int) throws -> Document {
        var reason: String?
        tailChanges = 0
        do {
            // The log entries after the snapshot are read while its image is decoded.
            let (found, skipped) = try Snapshots.newest(db, documentID: id, uid: uid, name: name, atOrBeforeVersion: version, seq: lastSeq,
                                                        alongside: { [id] info in Result { try Snapshots.tailChanges(db, documentID: id, after: info.seq, through: lastSeq) } })
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
                    tailChanges = changes
                    return document
                }
                reason = "snapshot of version \(info.version): its settings after the log do not match the stored ones"
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            throw error
        } catch {
            reason = "\(error)"
        }
        loadSource = .rows(reason: reason)
        return try RowLoader.load(db, name: name, settings: settings, documentID: id, path: store.path, cancellation: .never)  // a reload must not fail halfway
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
    /// - Throws: `StackDocError` when the database cannot be read or the stored document cannot be
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
    public var dropped: StackDocError { StackDocError(.droppedDocument(name: name)) }

    /// The stored version of this handle's document, nil when it was dropped (its id is gone or
    /// belongs to another document now).
    private func storedState() throws -> Int? {
        try store.read { db in try storedVersion(db) }
    }

    private func storedVersion(_ db: Database) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT version FROM document WHERE id = ? AND uid = ?"), arguments: [id, uid])
    }

    /// Inside a read: fails unless the stored document is exactly the state this handle holds
    /// (so a query never mixes this handle's memory with another process's writes).
    func checkCurrent(_ db: Database) throws {
        guard let stored = try storedVersion(db) else { throw dropped }
        guard stored == version else { throw staleError(stored) }
    }

    private func staleError(_ stored: Int) -> StackDocError {
        StackDocError(.staleDocument(name: name, storedVersion: stored, sessionVersion: version))
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

    /// Plans `edit` on the current document and performs it (one operation, one transaction).
    /// Returns the primitive changes applied.
    /// - Parameter edit: The operation.
    /// - Throws: `StackDocError` when the edit does not plan (`noSuchRow`, `badValue`, …), another
    ///   process wrote the document (`staleDocument`) or dropped it, or the database cannot be
    ///   written; nothing changes.
    @discardableResult
    public func perform(_ edit: Edit) throws -> [Change] {
        try perform(edit, changes: try document.plan(edit))
    }

    /// Performs `edit` whose primitive changes are already planned (`document.plan(edit)`).
    /// An edit whose changes are empty is logged but makes no undo step.
    /// - Parameters:
    ///   - edit: The operation, as the log records it.
    ///   - changes: Its primitive changes, planned on this document's current state.
    /// - Throws: `StackDocError` when a change breaks a rule of the document (the one validator),
    ///   the document is stale or dropped, or the database cannot be written; nothing changes.
    @discardableResult
    public func perform(_ edit: Edit, changes: [Change]) throws -> [Change] {
        for change in changes { try Validation.check(change) }
        return try transaction { db, journal in
            let (seq, logged) = try write(edit, changes: changes, db: db, journal: &journal)
            if !edit.isViewState, openGroup == nil, !logged.isEmpty {
                try addStep(db, first: seq, last: seq, label: nil)
            }
            return logged
        }
    }

    /// Inside a write transaction: applies one operation's checked `changes`, clamps the offset
    /// and logs it as the next entry (`view` or `op`, in the open group if any). Returns its seq
    /// and the changes as logged (with the clamp). `perform` and the group batch share it.
    func write(_ edit: Edit, changes: [Change], db: Database, journal: inout Journal) throws -> (seq: Int, logged: [Change]) {
        let logged = try applyForLog(changes, db: db, journal: &journal)
        let seq = lastSeq + 1
        try LogWriter.append(db, document: id, seq: seq, kind: edit.isViewState ? .view : .op, payload: try LogFormat.encode(edit),
                             forward: logged.changes, forwardBlob: logged.blob, inverse: nil, group: openGroup?.seq, label: nil, origin: origin)
        lastSeq = seq
        return (seq, logged.changes)
    }

    /// Reverts the last `count` undo steps. Fails (changing nothing) when fewer are applied or a
    /// group is open.
    /// - Parameter count: How many steps (≥ 1).
    /// - Throws: `StackDocError` when fewer steps are applied, a group is open, the document is
    ///   stale or the database cannot be written.
    @discardableResult
    public func undo(_ count: Int = 1) throws -> HistoryMove {
        try checkHistoryMove(.undo, count, available: cursor)
        return try transaction { db, journal in
            var planned: [Change] = []
            var steps: [HistoryStep] = []
            for n in stride(from: cursor, to: cursor - count, by: -1) {
                let (step, ops) = try loadStep(db, n, changes: .inverse)
                for op in ops.reversed() { Self.append(op[...], to: &planned) }
                steps.append(step)
            }
            var applied = try apply(planned, keepingView: true, final: true, db: db, journal: &journal)
            Self.append(try clampOffset(db: db, journal: &journal)[...], to: &applied)
            try logHistoryMove(db, .undo, count: count, steps: steps, applied: applied)
            cursor -= count
            return HistoryMove(steps: steps.map { var s = $0; s.applied = false; return s }, changes: applied)
        }
    }

    /// Re-applies the next `count` undone steps.
    /// - Parameter count: How many steps (≥ 1).
    /// - Throws: `StackDocError` when fewer steps are undone, a group is open, the document is
    ///   stale or the database cannot be written.
    @discardableResult
    public func redo(_ count: Int = 1) throws -> HistoryMove {
        try checkHistoryMove(.redo, count, available: stepCount - cursor)
        return try transaction { db, journal in
            var planned: [Change] = []
            var steps: [HistoryStep] = []
            for n in (cursor + 1)...(cursor + count) {
                let (step, ops) = try loadStep(db, n, changes: .forward)
                for op in ops { Self.append(op[...], to: &planned) }
                steps.append(step)
            }
            var applied = try apply(planned, keepingView: true, final: true, db: db, journal: &journal)
            Self.append(try clampOffset(db: db, journal: &journal)[...], to: &applied)
            try logHistoryMove(db, .redo, count: count, steps: steps, applied: applied)
            cursor += count
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

    /// Opens a group: the operations until `commit` make one undo step.
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
        try transaction { db, _ in
            let seq = lastSeq + 1
            try LogWriter.append(db, document: id, seq: seq, kind: .begin, payload: nil, forward: nil, inverse: nil,
                                 group: nil, label: label, origin: origin)
            lastSeq = seq
            openGroup = (seq, label)
        }
    }

    /// Closes the open group; its operations become one undo step (none when they changed
    /// nothing). Returns that step.
    /// - Throws: `StackDocError` when no group is open, the document is stale or the database
    ///   cannot be written.
    @discardableResult
    public func commit() throws -> HistoryStep? {
        guard let group = openGroup else { throw StackDocError(.noGroupOpen(.commit)) }
        return try transaction { db, _ in
            let seq = lastSeq + 1
            try LogWriter.append(db, document: id, seq: seq, kind: .commit, payload: nil, forward: nil, inverse: nil,
                                 group: group.seq, label: group.label, origin: origin)
            lastSeq = seq
            openGroup = nil
            let changed = try Bool.fetchOne(db, sql: """
                SELECT 1 FROM log WHERE document = ? AND grp = ? AND kind IN ('op', 'restore') AND forward != '[]' AND forward != ? LIMIT 1
                """, arguments: [id, group.seq, Data(ChangeBlob.empty)]) ?? false
            guard changed else { return nil }
            try addStep(db, first: group.seq, last: seq, label: group.label)
            return try loadStep(db, cursor, changes: nil).step
        }
    }

    /// Abandons the open group: reverts its operations (view changes included) and removes
    /// them from the log. Returns the changes applied to revert them.
    /// - Throws: `StackDocError` when no group is open, the document is stale or the database
    ///   cannot be written.
    @discardableResult
    public func rollback() throws -> [Change] {
        guard let group = openGroup else { throw StackDocError(.noGroupOpen(.rollback)) }
        return try transaction { db, journal in
            let inverses = try GRDB.Row.fetchAll(db, sql: """
                SELECT seq, forward, inverse, format FROM log WHERE document = ? AND seq > ? AND kind IN ('op', 'view', 'restore') ORDER BY seq DESC
                """, arguments: [id, group.seq])
            var applied: [Change] = []
            for entry in inverses {
                let changes = try decodingLogEntry(try? entry.decode(Int.self, forColumn: "seq")) { () throws -> [Change] in
                    let format: Int = try entry.decode(forColumn: "format")
                    if let stored = try LogFormat.changes(in: entry, column: "inverse", format: format) { return stored }
                    guard let inverse = try LogFormat.changes(in: entry, column: "forward", format: format, inverse: true) else {
                        throw StackDocError("forward is missing")
                    }
                    return inverse
                }
                for change in changes {
                    try apply(change, db: db, journal: &journal)
                    applied.append(change)
                }
            }
            try db.execute(sql: "DELETE FROM log WHERE document = ? AND seq >= ?", arguments: [id, group.seq])
            lastSeq = group.seq - 1
            openGroup = nil
            return applied
        }
    }

    // MARK: Reading history

    /// Every undo step, oldest first (`applied` false for the redo tail).
    /// - Throws: `StackDocError` when the log cannot be read (a damaged entry is named).
    public func history() throws -> [HistoryStep] {
        try store.read { db in
            try checkCurrent(db)
            return try (0..<stepCount).map { try loadStep(db, $0 + 1, changes: nil).step }
        }
    }

    /// Log entries from `seq` on (at most `limit`), oldest first.
    /// - Parameters:
    ///   - seq: The first entry's seq.
    ///   - limit: The most entries returned (nil: all).
    /// - Throws: `StackDocError` when the log cannot be read (a damaged entry is named).
    public func log(from seq: Int = 1, limit: Int? = nil) throws -> [LogEntry] {
        try store.read { db in
            try checkCurrent(db)
            return try GRDB.Row.fetchAll(db, sql: """
                SELECT seq, kind, payload, forward, inverse, grp, label, time, format, origin FROM log
                WHERE document = ? AND seq >= ? ORDER BY seq LIMIT ?
                """, arguments: [id, seq, limit ?? -1]).map { try LogDecoding.entry($0, of: self) }
        }
    }

    /// The rows an `import` entry brought in, as the document it imported.
    /// - Parameter seq: The seq of an `import` entry.
    /// - Throws: `StackDocError` when there is no such entry or its rows cannot be read.
    public func importedDocument(at seq: Int) throws -> Document {
        try store.read { db in
            try checkCurrent(db)
            guard let entry = try GRDB.Row.fetchOne(db, sql: "SELECT payload, format FROM log WHERE document = ? AND seq = ? AND kind = 'import'",
                                                    arguments: [id, seq]) else {
                throw StackDocError("log entry \(seq) of '\(name)' is not an import")
            }
            let settings = try decodingLogEntry(seq) { try LogFormat.decodeSettings(try entry.decode(forColumn: "payload"), format: try entry.decode(forColumn: "format")) }
            return try importedRows(db, seq: seq, settings: settings)
        }
    }

    /// The document's counters, all of this handle's state (never mixed with another
    /// process's later writes) except `storedVersion`, the database's (-1 once dropped).
    /// - Throws: `StackDocError` when the database cannot be read.
    public func status() throws -> DocumentStatus {
        try store.read { db in
            let stored = try storedVersion(db) ?? -1
            let entries = lastSeq  // log entries are numbered 1...lastSeq
            let schema = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations").compactMap(Schema.version(of:)).max() ?? 0
            return DocumentStatus(name: name, version: version, storedVersion: stored, rowCount: document.rowCount,
                                  logEntries: entries, steps: stepCount, cursor: cursor,
                                  canUndo: openGroup == nil ? cursor : 0, canRedo: openGroup == nil ? stepCount - cursor : 0,
                                  groupOpen: openGroup != nil, groupLabel: openGroup?.label, schemaVersion: schema)
        }
    }

    /// True when another connection has written the document since this handle loaded it.
    /// (Also true once the document was dropped.)
    /// - Throws: `StackDocError` when the database cannot be read.
    public func isStale() throws -> Bool {
        try storedState() != version
    }

    // MARK: Transactions

    /// What a failed transaction must restore in memory.
    struct Journal {
        var applied: [Change] = []
        /// How many of `applied` the live layout has seen.
        var synced = 0
        /// Writes the transaction counts beyond its first (`perform(groupBatch:)`: one per
        /// operation, as if each had committed alone); `version` grows by 1 + this.
        var extraWrites = 0
        /// The run of row inserts or removals applied to memory and not yet written.
        var rows = RowRunWriter()
        /// The document's rows as they are now, encoded for a snapshot by the thread that applied
        /// a long run (nil once a row changes after it): the snapshot the write may end with
        /// needs only its header then.
        var snapshotRows: SnapshotImage.Encoder?
    }

    func transaction<T>(_ body: (Database, inout Journal) throws -> T) throws -> T {
        let saved = (version, cursor, stepCount, openGroup, lastSeq, snapshotSeq, snapshotBytes, snapshotChanges, historyBase)
        var journal = Journal()
        lastLayoutReport = nil
        do {
            return try store.write { db in
                guard let stored = try storedVersion(db) else { throw dropped }
                guard stored == version else { throw staleError(stored) }
                let result = try body(db, &journal)
                try journal.rows.flush(after: document, db: db, docID: id)
                syncLayout(&journal)
                if !journal.applied.isEmpty { wholeLayoutCache = nil }
                version += 1 + journal.extraWrites
                try db.cachedStatement(sql: "UPDATE document SET version = ?, cursor = ?, open_group = ?, modified = ? WHERE id = ?")
                    .execute(arguments: [version, cursor, openGroup?.seq, Date.now.timeIntervalSince1970, id])
                let policy = store.options.snapshots
                snapshotChanges += journal.applied.count
                if openGroup == nil, policy.isDue(entries: lastSeq - snapshotSeq, changes: snapshotChanges, imageBytes: snapshotBytes,
                                                  rows: document.rowCount) {
                    let info = try Snapshots.write(db, documentID: id, uid: uid, version: version, seq: lastSeq, document: document, keep: policy.keep,
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
            (version, cursor, stepCount, openGroup, lastSeq, snapshotSeq, snapshotBytes, snapshotChanges, historyBase) = saved
            throw error
        }
    }

    /// SPEC §2.6: the stored offset is the offset the layout shows. After an operation's
    /// changes, when the content no longer reaches as far as the stored offset (content shrank,
    /// the viewport grew, an undo removed rows…), one more change stores the clamped offset, so
    /// that `export`, `status`, the layout and a replay of the log agree. Returns it ([] when the
    /// offset is within range). Needs the content size only when the offset is positive.
    func clampOffset(db: Database, journal: inout Journal) throws -> [Change] {
        guard document.settings.offset > 0 else { return [] }
        if live == nil {
            live = LiveLayout(document)
            journal.synced = journal.applied.count
        }
        syncLayout(&journal)
        guard let clamp = document.offsetClamp(maxOffset: live!.maxOffset) else { return [] }
        try apply(clamp, db: db, journal: &journal)
        return [clamp]
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
    /// insert or removal — with the run of them it belongs to (`RowRunWriter`), written before
    /// the next change that does not continue the run and at the end of the transaction.
    func apply(_ change: Change, db: Database, journal: inout Journal) throws {
        if journal.rows.mustFlush(before: change) { try journal.rows.flush(after: document, db: db, docID: id) }
        try document.apply(change)
        journal.applied.append(change)
        if change.isRowChange { journal.snapshotRows = nil }
        if !journal.rows.take(change) { try RowWriter.write(change, after: document, db: db, id: id) }
    }

    /// Undo and redo must not move the view: a settings change keeps the current viewport and
    /// offset (view state is not part of undo steps). Returns the change actually applied.
    func applyKeepingView(_ change: Change, db: Database, journal: inout Journal) throws -> Change {
        let actual = Replayer.keepingView(change, current: document.settings)
        try apply(actual, db: db, journal: &journal)
        return actual
    }

    func checkHistoryMove(_ move: StackDocError.HistoryMove, _ count: Int, available: Int) throws {
        guard count >= 1 else { throw StackDocError(.stepCountBelowOne(move, count: count)) }
        if let open = openGroup { throw StackDocError(.historyInOpenGroup(move, label: open.label)) }
        if move == .undo, historyBase > 0, count > available {
            throw StackDocError(.undoPastCompaction(document: name, count: count, available: available, base: historyBase))
        }
        guard available > 0 else { throw StackDocError(.nothingInHistory(move)) }
        guard count <= available else { throw StackDocError(.tooManySteps(move, count: count, available: available)) }
    }

    /// Logs an `undo`/`redo` of `steps` (format 2, `HistoryMoveLog`): the entries of the steps it
    /// moved, and of the changes it `applied` only those that are not row changes (the settings
    /// as applied, the offset clamp) — the row changes are the moved steps' own.
    func logHistoryMove(_ db: Database, _ kind: LogEntry.Kind, count: Int, steps: [HistoryStep], applied: [Change]) throws {
        let seq = lastSeq + 1
        let payload = try HistoryMoveLog.payload(count: count, steps: steps.map { $0.firstSeq...$0.lastSeq })
        try LogWriter.append(db, document: id, seq: seq, kind: kind, payload: payload,
                             forward: applied.filter { !$0.isRowChange }, inverse: nil, group: nil, label: nil, origin: origin)
        lastSeq = seq
    }

    /// Records a new undo step after the cursor, discarding the redo tail.
    func addStep(_ db: Database, first: Int, last: Int, label: String?) throws {
        try db.cachedStatement(sql: "DELETE FROM step WHERE document = ? AND n > ?").execute(arguments: [id, cursor])
        try db.cachedStatement(sql: "INSERT INTO step (document, n, first_seq, last_seq, label) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [id, cursor + 1, first, last, label])
        cursor += 1
        stepCount = cursor
    }

    /// Which changes `loadStep` reads with a step.
    enum StepChanges { case forward, inverse }

    /// Step `n`, with (`changes`) the forward or inverse changes of each of its undoable
    /// operations, in log order; without, only the columns `history` shows are read (the
    /// operations' edits, never their changes).
    func loadStep(_ db: Database, _ n: Int, changes wanted: StepChanges?) throws -> (step: HistoryStep, ops: [[Change]]) {
        guard let row = try GRDB.Row.fetchOne(db.cachedStatement(sql: "SELECT first_seq, last_seq, label FROM step WHERE document = ? AND n = ?"),
                                              arguments: [id, n]) else {
            throw StoreFailure.internal("undo step \(n) of '\(name)' is missing")
        }
        let first: Int = try row.decode(forColumn: "first_seq"), last: Int = try row.decode(forColumn: "last_seq")
        let ops = try GRDB.Row.fetchAll(db.cachedStatement(sql: """
            SELECT seq, kind, payload, format FROM log WHERE document = ? AND seq BETWEEN ? AND ? AND kind IN ('op', 'restore') ORDER BY seq
            """), arguments: [id, first, last])
        var edits: [Edit] = []
        var restoredFrom: Int?
        for op in ops {
            try decodingLogEntry(try? op.decode(Int.self, forColumn: "seq")) {
                let format: Int = try op.decode(forColumn: "format")
                if try op.decode(String.self, forColumn: "kind") == LogEntry.Kind.restore.rawValue {
                    restoredFrom = try HistoryPayload.restoreTarget(try op.decode(forColumn: "payload"))
                } else {
                    edits.append(try LogFormat.decodeEdit(try op.decode(forColumn: "payload"), format: format))
                }
            }
        }
        var changes: [[Change]] = []
        if let wanted {
            changes = try decodingLogEntry(first) {
                try HistoryMoveLog.opChanges(db, documentID: id, range: first...last, inverse: wanted == .inverse)
            }
        }
        let origin = try String.fetchOne(db.cachedStatement(sql: "SELECT origin FROM log WHERE document = ? AND seq = ?"), arguments: [id, first])
        let step = HistoryStep(number: n, label: try row.decode(forColumn: "label"), edits: edits, applied: n <= cursor, firstSeq: first, lastSeq: last,
                               origin: origin, restoredFrom: restoredFrom)
        return (step, changes)
    }

    /// Runs `body`, which reads back log entry `seq`: any failure means the entry is damaged.
    /// The error names the document and the entry and says how to save the work; the store
    /// writes nothing more (`DocumentStore.damage`).
    func decodingLogEntry<T>(_ seq: Int?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw store.noteDamage(StoreFailure.damagedLogEntry(store.path, document: name, seq: seq ?? 0, error))
        }
    }
}

/// Turns `log` rows into `LogEntry` values.
enum LogDecoding {
    /// The entry of `row`, a row of `document`'s log (any failure: a damaged-entry error).
    static func entry(_ row: GRDB.Row, of document: StoredDocument) throws -> LogEntry {
        try document.decodingLogEntry(try? row.decode(Int.self, forColumn: "seq")) { try entry(row) }
    }

    private static func entry(_ row: GRDB.Row) throws -> LogEntry {
        let kindText: String = try row.decode(forColumn: "kind")
        guard let kind = LogEntry.Kind(rawValue: kindText) else { throw StackDocError("unknown kind \(Validation.quoted(kindText))") }
        let payload: String? = try row.decode(forColumn: "payload")
        let format: Int = try row.decode(forColumn: "format")
        var entry = LogEntry(seq: try row.decode(forColumn: "seq"), kind: kind, edit: nil, settings: nil, count: nil, label: try row.decode(forColumn: "label"),
                             group: try row.decode(forColumn: "grp"), changes: [], inverse: [],
                             time: Date(timeIntervalSince1970: try row.decode(forColumn: "time")))
        entry.origin = try row.decode(forColumn: "origin")
        switch kind {
        case .op, .view:
            entry.edit = try LogFormat.decodeEdit(payload, format: format)
        case .newDocument, .importDocument:
            entry.settings = try LogFormat.decodeSettings(payload, format: format)
        case .undo, .redo:
            let move = try HistoryMoveLog.parse(payload, format: format)
            entry.count = move.count
            entry.moved = move.steps
        case .begin, .commit:
            break
        case .mark:
            (entry.markCursor, entry.markStep) = try HistoryPayload.mark(payload)
        case .restore:
            entry.target = try HistoryPayload.restoreTarget(payload)
        }
        if let f = try LogFormat.changes(in: row, column: "forward", format: format) { entry.changes = f }
        if let i = try LogFormat.changes(in: row, column: "inverse", format: format) {
            entry.inverse = i
        } else if format >= 2 {
            entry.inverse = entry.changes.inverse  // format 2 stores no inverse: it is forward's
        }
        return entry
    }
}
