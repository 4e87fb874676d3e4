import Foundation
import Layout
/// Store's public API includes `SnapshotImage` (the image format of snapshots, for tools that
/// read them), which lives in the pure `StoreFormat` target: re-exported so that `import Store`
/// keeps giving it. Everything else of StoreFormat is `package`, not visible outside.
@_exported import StoreFormat
import StoreFormat

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
    /// throws `StoreError.Kind.readOnlyDatabase`. Default: false.
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
    /// Where the documents are stored (`StoreBackend`: the seam every read and write goes through).
    let backend: any StoreBackend
    /// The first damage found in the file since it was opened (a page SQLite reports corrupt, a
    /// log entry that cannot be read back, a stored value no command writes); nil while none
    /// is. Once set, every write is refused: a damaged database is never written.
    public var damage: String? { backend.damage }
    /// Asked by the long loops (replaying a log, loading and importing rows) every
    /// `Cancellation.interval` rows or entries: once requested they throw
    /// `StackDocError(.cancelled)` and a write rolls back. Default: never.
    public var cancellation: Cancellation = .never

    /// Opens (creating when missing) the database at `path`, or an in-memory one for `:memory:`.
    /// An existing file is first inspected read-only (identity, schema, and SQLite's
    /// `quick_check` when opening would write), so a refused file is never written.
    ///
    /// - Parameters:
    ///   - path: The database file, or `:memory:`.
    ///   - options: Durability and the busy timeout.
    /// - Throws: `StoreError` (`cannotOpenDatabase`, `corruptFile`) when the file cannot be
    ///   opened or created, is not a StackDoc database, has a newer schema or is damaged; the file is
    ///   then not touched.
    public init(path: String, options: StoreOptions = StoreOptions()) throws {
        self.path = path
        self.options = options
        backend = try SQLiteBackend(path: path, options: options)
    }

    /// Opens the database `url` names: for a `postgresql://` or `postgres://` URI, a database of a
    /// PostgreSQL server shared by every process that names it (docs/shared-store.md: libpq reads
    /// the URI, a password comes from it, `PGPASSWORD` or `~/.pgpass`, and every message shows
    /// it redacted; `path` is the URI redacted); for anything else, the SQLite file `init(path:)`
    /// opens.
    ///
    /// - Throws: `StoreError` as `init(path:)`; for a server, `cannotOpenDatabase` with one
    ///   line saying why (down, unreachable, a wrong password, a missing database) within the
    ///   connect timeout (5 s, or the URI's `connect_timeout`).
    public init(url: String, options: StoreOptions = StoreOptions()) throws {
        self.options = options
        if let server = PostgreSQLURL(url) {
            path = server.redacted
            backend = try PostgreSQLBackend(url: server, options: options)
        } else {
            path = url
            backend = try SQLiteBackend(path: url, options: options)
        }
    }

    /// True when writing a file at `target` would replace this database or one of its companion
    /// files (`-wal`, `-shm`, `-journal`), under any spelling of the path and through symbolic or
    /// hard links. Always false for `:memory:`.
    /// - Parameter target: A path about to be written.
    public func isOwnFile(_ target: String) -> Bool { backend.isOwnFile(target) }

    /// The schema version of the open database (the newest applied migration).
    /// - Throws: `StoreError` when the database cannot be read.
    public func schemaVersion() throws -> Int {
        try reading { try $0.schemaVersion() }
    }

    /// The engine's own check of the database: one message per problem found, empty when it is
    /// sound. On SQLite, `PRAGMA quick_check` over the file; on PostgreSQL, the `amcheck`
    /// extension over the store's tables and B-tree indexes (`verify_heapam`,
    /// `bt_index_check`). Reads every page: seconds for very large databases.
    /// - Throws: `StoreError` when the database cannot be read, or (PostgreSQL) when `amcheck`
    ///   is not installed in the database (`CREATE EXTENSION amcheck`, by a role that may).
    public func integrityCheck() throws -> [String] { try backend.integrityCheck() }

    // MARK: Documents

    /// Names of all documents, sorted.
    /// - Throws: `StoreError` when the database cannot be read.
    public func documentNames() throws -> [String] {
        try reading { try $0.documentNames() }
    }

    /// All documents with their counters, sorted by name.
    /// - Throws: `StoreError` when the database cannot be read.
    public func documents() throws -> [DocumentSummary] {
        try reading { try $0.documentSummaries() }
    }

    /// True when a document of that name exists.
    /// - Parameter name: A document name.
    /// - Throws: `StoreError` when the database cannot be read.
    public func contains(_ name: String) throws -> Bool {
        try reading { try $0.documentKey(named: name) != nil }
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
        let (id, uid) = try writing { tx in
            let uid = Self.newUID()
            let id = try tx.insertDocument(name: name, settings: settings, uid: uid)
            try tx.appendLog(DocumentKey(id: id, uid: uid, name: name), NewLogEntry(seq: 1, kind: .newDocument, payload: try LogFormat.encode(settings), forward: nil))
            return (id, uid)
        }
        return try StoredDocument(store: self, id: id, uid: uid, name: name)
    }

    /// Opens a stored document: loads its rows and settings into memory.
    /// - Parameter name: The document's name.
    /// - Throws: `StackDocError` (`noSuchDocument`, or `corruptFile` when its stored rows break a
    ///   rule).
    public func open(_ name: String) throws -> StoredDocument {
        guard let key = try reading({ try $0.documentKey(named: name) }) else { throw StackDocError(.noSuchDocument(name: name)) }
        return try StoredDocument(store: self, id: key.id, uid: key.uid, name: name)
    }

    /// Deletes a document with its rows and history.
    /// - Parameter name: The document's name.
    /// - Throws: `StackDocError` (`noSuchDocument`, or a database that cannot be written).
    public func drop(_ name: String) throws {
        try writing { tx in
            if try !tx.dropDocument(named: name) { throw StackDocError(.noSuchDocument(name: name)) }
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

    /// Runs `body` in one write transaction of the backend (`StoreBackend.write`); errors come
    /// back as clear messages. A damaged or read-only database is not written.
    func writing<T>(_ body: (any StoreWriting) throws -> T) throws -> T {
        try backend.write(body)
    }

    /// Runs `body` in one read transaction (one consistent state); inside `readingOneState`, on its transaction.
    func reading<T>(_ body: (any StoreReading) throws -> T) throws -> T {
        try backend.read(body)
    }

    /// Runs `body` inside one read transaction: every read it makes through this store (a
    /// handle's catch-up with another process's writes, then the query's own reads) sees the
    /// same state of the database, however many writers commit meanwhile. A query never meets a
    /// state newer than the one it caught up with, so it never has to be refused as stale.
    /// Writes are refused inside it. Nested calls run in the outer one's transaction.
    /// - Parameter body: The reads; it must not write.
    /// - Throws: What `body` throws, or a store error when the database cannot be read.
    public func readingOneState<T>(_ body: () throws -> T) throws -> T {
        try backend.readingOneState(body)
    }

    /// Records `error` as the database's damage when it reports damage (the first one is kept);
    /// returns it.
    @discardableResult
    func noteDamage(_ error: Error) -> Error { backend.noteDamage(error) }
}
