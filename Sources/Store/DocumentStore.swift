import Foundation
import GRDB
import Layout

/// How hard each commit is pushed to disk.
public enum Durability: String, Sendable, CaseIterable {
    /// `synchronous = FULL`: the WAL is fsynced at every commit; a committed operation survives
    /// a process crash and a power loss.
    case full
    /// `synchronous = NORMAL`: a committed operation survives a process crash; a power loss may
    /// lose the last commits (the database stays consistent).
    case normal
}

/// Options for opening a database.
public struct StoreOptions: Sendable {
    /// See `Durability`. Default: `.normal` (see docs/store.md for the promise).
    public var durability: Durability
    /// How long a writer waits for another process's lock before failing. Default: 5 s.
    public var busyTimeout: TimeInterval
    /// When snapshots of documents are written and how many are kept (docs/store.md "Snapshots").
    public var snapshots: SnapshotPolicy
    /// Open an existing database for reading only (SQLite `SQLITE_OPEN_READONLY`): it is never
    /// created, migrated or written, so a read-only file or directory can be opened; every write
    /// throws `StackDocError.Kind.readOnlyDatabase`. Default: false.
    public var readOnly: Bool

    /// Options with the default `NORMAL` durability, a 5 s busy timeout, the default snapshot
    /// policy, for reading and writing.
    public init(durability: Durability = .normal, busyTimeout: TimeInterval = 5, snapshots: SnapshotPolicy = SnapshotPolicy(),
                readOnly: Bool = false) {
        self.durability = durability
        self.busyTimeout = busyTimeout
        self.snapshots = snapshots
        self.readOnly = readOnly
    }
}

/// One line of `docs`: a stored document and its history counters.
public struct DocumentSummary: Hashable, Sendable {
    /// The document's name.
    public var name: String
    /// Its number of rows at every depth.
    public var rowCount: Int
    /// Bumped by every write to the document.
    public var version: Int
    /// Undo steps recorded / applied (the history cursor).
    public var steps: Int
    /// Undo steps applied (steps `1...cursor`).
    public var cursor: Int
    /// When it was created (nil when the database does not say).
    public var created: Date?
    /// When it was last written (nil when the database does not say).
    public var modified: Date?
}

/// A StackDoc database: one SQLite file (or `:memory:`) holding many documents.
///
/// ```swift
/// let store = try DocumentStore(path: "stackdoc.sqlite")
/// let doc = try store.create("home", settings: DocumentSettings(axis: .vertical))
/// let changes = try doc.perform(.add(ids: ["a"], spec: [.fixed(100)], position: nil, parent: nil))
/// try doc.undo()
/// ```
///
/// Opening checks the file first and refuses — without writing a byte — anything that is not a
/// StackDoc database: a missing directory, a read-only file, random bytes, a truncated or
/// corrupt file, a foreign SQLite database, a database of a newer schema version. Each gives one
/// `StackDocError` naming the file and the problem. Then the migrations the file lacks are
/// applied, WAL mode and a busy timeout are set.
public final class DocumentStore {
    /// The path the database was opened with (`:memory:` for an in-memory database).
    public let path: String
    /// The options the database was opened with.
    public let options: StoreOptions
    let queue: DatabaseQueue
    /// This connection's entry in `OpenDatabases` (nil for `:memory:`).
    private var openFile: OpenDatabases.FileID?
    /// The first damage found in the file since it was opened (a page SQLite reports corrupt, a
    /// log entry that cannot be read back, a stored value no command writes); nil while none
    /// is. Once set, every write is refused: a damaged database is never written.
    public private(set) var damage: String?
    /// Asked by the long loops (replaying a log, loading and importing rows) every
    /// `Cancellation.interval` rows or entries: once requested they throw
    /// `StackDocError(.cancelled)` and a write rolls back. Default: never.
    public var cancellation: Cancellation = .never
    /// The connection of the read transaction `readingOneState` holds open (nil: none): the
    /// reads inside it run on it.
    private var heldRead: Database?
    /// True once SQLite's `quick_check` has passed on the file (at open when opening had to
    /// write, else before the first write) or when the file carries no writer's mark
    /// (`WriterMark`); always true for a new file and `:memory:`.
    private var checked = true
    /// True once a write of this store has committed the writer's mark (`WriterMark`).
    private var holdsFile = false

    /// Opens (creating when missing) the database at `path`, or an in-memory one for `:memory:`.
    /// An existing file is first inspected read-only (`DatabaseInspection`: identity, schema,
    /// and SQLite's `quick_check` when opening would write), so a refused file is never written.
    ///
    /// - Parameters:
    ///   - path: The database file, or `:memory:`.
    ///   - options: Durability and the busy timeout.
    /// - Throws: `StackDocError` (`cannotOpenDatabase`, `corruptFile`) when the file cannot be
    ///   opened or created, is not a StackDoc database, has a newer schema or is damaged; the file is
    ///   then not touched.
    public init(path: String, options: StoreOptions = StoreOptions()) throws {
        self.path = path
        self.options = options
        let inMemory = path == ":memory:"
        // FileChecks reads the header through a descriptor of its own: not while this process
        // has the file open (closing it would drop the other connection's locks, see
        // OpenDatabases). The inspection is an SQLite connection: safe either way.
        if options.readOnly {
            try Self.checkReadOnly(path)
        } else if !inMemory, try (OpenDatabases.isOpen(path) ? DatabaseFile.existing : FileChecks.check(path)) == .existing {
            checked = try DatabaseInspection.inspect(path, busyTimeout: options.busyTimeout)
        }
        var config = Configuration()
        config.readonly = options.readOnly
        config.busyMode = .timeout(options.busyTimeout)
        config.foreignKeysEnabled = true
        config.label = "stackdoc"
        do {
            queue = try DatabaseQueue(path: options.readOnly ? Self.readOnlyName(path) : path, configuration: config)
        } catch {
            throw StoreFailure.wrap(error, path: path)
        }
        do {
            try queue.inDatabase { db in
                if options.readOnly {
                    try db.execute(sql: "PRAGMA cache_size = \(Self.cacheSize)")
                    return
                }
                // Again on the writing connection, under the write lock: another process may
                // have made or migrated the file between the inspection and this open.
                try Self.createOrMigrate(db, path: path)
                if !inMemory { try Self.enableWAL(db, timeout: options.busyTimeout) }
                try db.execute(sql: "PRAGMA synchronous = \(options.durability == .full ? "FULL" : "NORMAL")")
                // 32 MB of page cache (grown on demand): imports of large documents build the
                // id index in memory.
                try db.execute(sql: "PRAGMA cache_size = \(Self.cacheSize)")
            }
        } catch {
            throw StoreFailure.wrap(error, path: path)
        }
        if !inMemory { openFile = OpenDatabases.opened(path) }
    }

    /// For `StoreOptions.readOnly`: the file must exist and be a StackDoc database of the current
    /// schema (a read-only connection cannot migrate it). Only reads the file.
    private static func checkReadOnly(_ path: String) throws {
        guard path != ":memory:" else {
            throw StackDocError(.cannotOpenDatabase(path: path, verb: "open", problem: "an in-memory database cannot be opened read-only"))
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw StackDocError(.cannotOpenDatabase(path: path, verb: "open", problem: "no such file (a read-only database is never created)"))
        }
        let applied: Int
        do {
            applied = try DatabaseInspection.readAlone(readOnlyName(path), busyTimeout: nil, label: "stackdoc-inspection") { db in
                try DatabaseInspection.checkIdentity(db, path: path)
            }
        } catch {
            throw StoreFailure.wrap(error, path: path)
        }
        guard applied == EmbeddedMigrations.all.count else {
            throw StackDocError(.cannotOpenDatabase(path: path, verb: "open", problem: applied == 0
                ? "it is empty: a read-only database is never created"
                : "it needs an upgrade (\(EmbeddedMigrations.all.count - applied) migrations), which a read-only open cannot do: open it once for writing"))
        }
    }

    /// The name SQLite opens for `StoreOptions.readOnly`: the path itself, or — when the WAL's
    /// shared-memory index (`-shm`) is missing and cannot be made (a read-only directory) and
    /// the WAL holds nothing (so the file is the whole database) — the URI `file:PATH?immutable=1`,
    /// which SQLite reads without that index.
    static func readOnlyName(_ path: String) -> String {
        let file = FileChecks.resolved(path)
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        guard access(file + "-shm", F_OK) != 0, access(directory, W_OK) != 0, FileChecks.companionSize(path, "-wal") == 0 else {
            return path
        }
        var escaped = ""
        for scalar in file.unicodeScalars {
            switch scalar {
            case "%", "?", "#": escaped += String(format: "%%%02X", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "file:" + escaped + "?immutable=1"
    }

    /// The page cache of a connection (`PRAGMA cache_size`: 32 MB, grown on demand).
    static let cacheSize = -32768

    deinit {
        if let openFile {
            if holdsFile, damage == nil { WriterMark.release(queue, file: openFile) }
            OpenDatabases.closed(openFile)
        }
    }

    /// Checks the file's identity and, when migrations are missing, applies them in ONE
    /// `BEGIN IMMEDIATE` transaction, so that two processes opening a new database at the same
    /// moment are serialized: the second waits (busy timeout) for the first to commit, then
    /// re-checks the identity under the lock and finds nothing left to do. A file with every
    /// migration is only read. Foreign keys are off during the migrations and checked before the
    /// commit (as GRDB's migrator does).
    static func createOrMigrate(_ db: Database, path: String) throws {
        // One read transaction: the identity check reads the header and the table list with two
        // statements, which must see the same state (not "no application id" from before
        // another process's creating commit and its tables from after it).
        var applied = 0
        try db.inTransaction(.deferred) {
            applied = try DatabaseInspection.checkIdentity(db, path: path)
            return .commit
        }
        if applied == EmbeddedMigrations.all.count { return }
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        try db.inTransaction(.immediate) {
            try DatabaseInspection.checkIdentity(db, path: path)
            if try Schema.migrate(db) > 0, try GRDB.Row.fetchOne(db, sql: "PRAGMA foreign_key_check") != nil {
                throw StoreFailure.corrupt(path, "a migration left rows that break foreign keys")
            }
            return .commit
        }
    }

    /// Switches the file to WAL mode. The switch needs a moment of exclusive access, which SQLite
    /// does not wait for: while another process holds the file (opening it at the same time),
    /// retry until the busy timeout. A file already in WAL mode needs nothing.
    static func enableWAL(_ db: Database, timeout: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            do {
                if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal" { return }
                if try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")?.lowercased() == "wal" { return }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                if Date() >= deadline { throw error }
            }
            if Date() >= deadline { throw StackDocError("cannot switch the database to WAL mode") }
            usleep(2_000)
        }
    }

    /// True when writing a file at `target` would replace this database or one of its companion
    /// files (`-wal`, `-shm`, `-journal`), under any spelling of the path and through symbolic or
    /// hard links: an existing target is compared by device and inode, a new one by its
    /// resolved directory and name. Always false for `:memory:`.
    /// - Parameter target: A path about to be written.
    public func isOwnFile(_ target: String) -> Bool {
        guard path != ":memory:" else { return false }
        let database = FileChecks.resolved(path)
        let companions = ["", "-wal", "-shm", "-journal"].map { database + $0 }
        var info = stat()
        if stat(target, &info) == 0 {
            return companions.contains { file in
                var own = stat()
                return stat(file, &own) == 0 && own.st_dev == info.st_dev && own.st_ino == info.st_ino
            }
        }
        let url = URL(fileURLWithPath: target)
        let resolved = FileChecks.resolved(url.deletingLastPathComponent().path) + "/" + url.lastPathComponent
        return companions.contains(resolved)
    }

    /// The schema version of the open database (the newest applied migration).
    /// - Throws: `StackDocError` when the database cannot be read.
    public func schemaVersion() throws -> Int {
        try read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
                .compactMap(Schema.version(of:)).max() ?? 0
        }
    }

    /// SQLite's own check of the file (`PRAGMA quick_check`): one message per problem found,
    /// empty when the file is sound. Reads every page: seconds for very large databases.
    /// - Throws: `StackDocError` when the database cannot be read.
    public func integrityCheck() throws -> [String] {
        let result = try read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        return result == ["ok"] ? [] : result.map { "database '\(path)': \($0)" }
    }

    // MARK: Documents

    /// Names of all documents, sorted.
    /// - Throws: `StackDocError` when the database cannot be read.
    public func documentNames() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT name FROM document ORDER BY name") }
    }

    /// All documents with their counters, sorted by name.
    /// - Throws: `StackDocError` when the database cannot be read.
    public func documents() throws -> [DocumentSummary] {
        try read { db in
            try GRDB.Row.fetchAll(db, sql: """
                SELECT name, version, cursor, created, modified,
                       (SELECT count(*) FROM row WHERE row.document = d.id AND row.import_seq = 0) AS rows,
                       (SELECT count(*) FROM step WHERE step.document = d.id) AS steps
                FROM document d ORDER BY name
                """).map { r in
                DocumentSummary(name: try r.decode(forColumn: "name"), rowCount: try r.decode(forColumn: "rows"), version: try r.decode(forColumn: "version"),
                                steps: try r.decode(forColumn: "steps"), cursor: try r.decode(forColumn: "cursor"),
                                created: (try r.decode(forColumn: "created") as Double?).map(Date.init(timeIntervalSince1970:)),
                                modified: (try r.decode(forColumn: "modified") as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    /// True when a document of that name exists.
    /// - Parameter name: A document name.
    /// - Throws: `StackDocError` when the database cannot be read.
    public func contains(_ name: String) throws -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM document WHERE name = ?", arguments: [name]) ?? false }
    }

    /// Creates an empty document (`new NAME [axis] [viewport W H]`); logged as a `new` entry.
    /// - Parameters:
    ///   - name: The new document's name (`[A-Za-z0-9_.-]{1,64}`, unique in the database).
    ///   - settings: Its axis, viewport and the rest (checked like the edits that set them).
    /// - Returns: The new document, open.
    /// - Throws: `StackDocError` (`invalidName`, `badValue`, a name in use, a damaged or read-only
    ///   database); nothing is stored.
    @discardableResult
    public func create(_ name: String, settings: DocumentSettings = DocumentSettings()) throws -> StoredDocument {
        try Validation.checkDocumentName(name)
        try Validation.check(settings)
        let (id, uid) = try write { db in
            let uid = Self.newUID()
            let id = try self.insertDocument(db, name: name, settings: settings, uid: uid)
            try LogWriter.append(db, document: id, seq: 1, kind: .newDocument, payload: try LogFormat.encode(settings),
                                 forward: nil, inverse: nil, group: nil, label: nil)
            return (id, uid)
        }
        return try StoredDocument(store: self, id: id, uid: uid, name: name)
    }

    /// Opens a stored document: loads its rows and settings into memory.
    /// - Parameter name: The document's name.
    /// - Throws: `StackDocError` (`noSuchDocument`, or `corruptFile` when its stored rows break a
    ///   rule).
    public func open(_ name: String) throws -> StoredDocument {
        let found = try read { db in
            try GRDB.Row.fetchOne(db, sql: "SELECT id, uid FROM document WHERE name = ?", arguments: [name])
        }
        guard let found else { throw StackDocError(.noSuchDocument(name: name)) }
        guard let id: Int64 = found["id"], let uid: String = found["uid"] else {
            throw StoreFailure.corrupt(path, "document \(Validation.quoted(name)) has no identity (id, uid)")
        }
        return try StoredDocument(store: self, id: id, uid: uid, name: name)
    }

    /// Deletes a document with its rows and history.
    /// - Parameter name: The document's name.
    /// - Throws: `StackDocError` (`noSuchDocument`, or a database that cannot be written).
    public func drop(_ name: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM document WHERE name = ?", arguments: [name])
            if db.changesCount == 0 { throw StackDocError(.noSuchDocument(name: name)) }
        }
    }

    // MARK: Helpers

    /// Inserts the document's row with a new identity (`uid`, never reused); returns its id and uid.
    /// A new document identity: 32 hex digits, as 0003 gives.
    static func newUID() -> String {
        UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// Throws the first row of `document` that breaks a rule, with the one validator's message.
    static func checkRows(_ document: Document) throws {
        var invalid: Error?
        document.forEachRow { id, _, _, config in
            guard invalid == nil else { return }
            do { try checkRow(id, config) } catch { invalid = error }
        }
        if let invalid { throw invalid }
    }

    /// Throws when row `id` with `config` breaks a rule, with the one validator's message.
    @inline(__always)
    static func checkRow(_ id: RowID, _ config: RowConfig) throws {
        // The allocation-free check first; the message is built only for a bad row.
        guard !(Validation.isValidRowID(id) && Validation.isValid(config)) else { return }
        try Validation.checkRowID(id)
        try Validation.check(config, prefix: "row \(Validation.quoted(id)) ")
    }

    /// Inserts the document's row with the identity `uid`; returns its id.
    func insertDocument(_ db: Database, name: String, settings: DocumentSettings, uid: String) throws -> Int64 {
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM document WHERE name = ?", arguments: [name]) ?? false {
            throw StackDocError(.documentExists(name: name))
        }
        let now = Date().timeIntervalSince1970
        let columns = ["name", "version"] + ColumnCoding.settingsColumns + ["created", "modified", "uid"]
        let values: [(any DatabaseValueConvertible)?] = [name, 1] + ColumnCoding.values(settings) + [now, now, uid]
        try db.execute(sql: "INSERT INTO document (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))",
                       arguments: StatementArguments(values))
        return db.lastInsertedRowID
    }

    /// Runs `body` in an IMMEDIATE transaction (so concurrent writers queue on the busy timeout
    /// instead of failing on a lock upgrade); errors come back as clear messages. A file found
    /// damaged is not written: the first write of a session checks the whole file first.
    ///
    /// `foreignKeys: false` runs it with SQLite's foreign key checks off (they cannot change
    /// inside a transaction): only for a body that can be shown never to break one.
    func write<T>(foreignKeys: Bool = true, _ body: (Database) throws -> T) throws -> T {
        if options.readOnly {
            throw StackDocError(.readOnlyDatabase(path: path, detail: "it was opened for reading only: queries and export work, changes are refused"))
        }
        if let damage { throw StoreFailure.writeRefused(path, damage: damage) }
        if heldRead != nil { throw StoreFailure.internal("a write inside a read of one state (readingOneState)") }
        if checked, holdsFile { return try transaction(.immediate, foreignKeys: foreignKeys, body) }
        // The first write marks the file held (`WriterMark`). On a file not known to be sound,
        // SQLite's check of the whole file runs on a second connection while the body runs, and
        // the transaction commits only once it has passed (docs/store.md, "The check before the
        // first write").
        let check = checked ? nil : FileCheckInFlight(path: path, busyTimeout: options.busyTimeout)
        do {
            let result = try transaction(.immediate, foreignKeys: foreignKeys) { db in
                try WriterMark.hold(db)
                let result = try body(db)
                try check?.passed()
                return result
            }
            (checked, holdsFile) = (true, true)
            return result
        } catch {
            // The check's finding comes first: the body may have failed on the same damage.
            if case .failure(let found)? = check?.finding {
                throw noteDamage(StoreFailure.wrap(found, path: path))
            }
            throw error
        }
    }

    /// Runs `body` for reading (one consistent snapshot); errors come back as clear messages.
    /// Inside `readingOneState`, on its transaction.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        if let held = heldRead { return try body(held) }
        return try transaction(.deferred, body)
    }

    /// Runs `body` inside one read transaction: every read it makes through this store (a
    /// handle's catch-up with another process's writes, then the query's own reads) sees the
    /// same state of the file, however many writers commit meanwhile (SQLite's WAL gives the
    /// transaction a snapshot at its first read). A query never meets a state newer than the one
    /// it caught up with, so it never has to be refused as stale. Writes are refused inside it.
    /// Nested calls run in the outer one's transaction.
    /// - Parameter body: The reads; it must not write.
    /// - Throws: What `body` throws, or a store error when the database cannot be read.
    public func readingOneState<T>(_ body: () throws -> T) throws -> T {
        if heldRead != nil { return try body() }
        return try transaction(.deferred) { db in
            heldRead = db
            defer { heldRead = nil }
            return try body()
        }
    }

    private func transaction<T>(_ kind: Database.TransactionKind, foreignKeys: Bool = true, _ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.inDatabase { db in
                if !foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
                defer { if !foreignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
                var result: T?
                try db.inTransaction(kind) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw StoreFailure.internal("transaction without result") }
                return result
            }
        } catch {
            let failure = StoreFailure.wrap(error, path: path)
            noteDamage(failure)
            throw failure
        }
    }

    /// Records `error` as the file's damage when it reports damage (the first one is kept);
    /// returns it.
    @discardableResult
    func noteDamage(_ error: Error) -> Error {
        if damage == nil { damage = StoreFailure.corruption(in: error, path: path) }
        return error
    }
}
