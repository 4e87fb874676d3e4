import Foundation
import GRDB
import Layout

/// The SQLite backend (`StoreBackend`): one SQLite file (or `:memory:`) through one GRDB
/// connection. Opening checks the file first and refuses — without writing a byte — anything
/// that is not a StackDoc database (`DatabaseInspection`), then applies the migrations the file
/// lacks and sets WAL mode, the busy timeout and the page cache.
final class SQLiteBackend: StoreBackend {
    let path: String
    let options: StoreOptions
    let queue: DatabaseQueue
    /// This connection's entry in `OpenDatabases` (nil for `:memory:`).
    private var openFile: OpenDatabases.FileID?
    /// The first damage found in the file since it was opened (a page SQLite reports corrupt, a
    /// log entry that cannot be read back, a stored value no command writes); nil while none
    /// is. Once set, every write is refused: a damaged database is never written.
    private(set) var damage: String?
    /// The connection of the read transaction `readingOneState` holds open (nil: none): the
    /// reads inside it run on it.
    private var heldRead: Database?
    /// True once SQLite's `quick_check` has passed on the file (at open when opening had to
    /// write, else before the first write) or when the file carries no writer's mark
    /// (`WriterMark`); always true for a new file and `:memory:`.
    private var checked = true
    /// True once a write of this store has committed the writer's mark (`WriterMark`).
    private var holdsFile = false
    /// How many times the change signal read `PRAGMA data_version` (`SQLiteChangeSignal`): only
    /// while someone waits for a change or catches up at the prompt, never on an edit's path.
    var changeSignalReads = 0

    /// Opens (creating when missing) the database at `path`, or an in-memory one for `:memory:`.
    /// An existing file is first inspected read-only (`DatabaseInspection`: identity, schema,
    /// and SQLite's `quick_check` when opening would write), so a refused file is never written.
    /// - Throws: `StoreError` when the file cannot be opened or created, is not a StackDoc
    ///   database, has a newer schema or is damaged; the file is then not touched.
    init(path: String, options: StoreOptions) throws {
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
            throw StoreError.wrap(error, path: path)
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
            throw StoreError.wrap(error, path: path)
        }
        if !inMemory { openFile = OpenDatabases.opened(path) }
    }

    /// For `StoreOptions.readOnly`: the file must exist and be a StackDoc database of the current
    /// schema (a read-only connection cannot migrate it). Only reads the file.
    private static func checkReadOnly(_ path: String) throws {
        guard path != ":memory:" else {
            throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: "an in-memory database cannot be opened read-only"))
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: "no such file (a read-only database is never created)"))
        }
        let applied: Int
        do {
            applied = try DatabaseInspection.readAlone(readOnlyName(path), busyTimeout: nil, label: "stackdoc-inspection") { db in
                try DatabaseInspection.checkIdentity(db, path: path)
            }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
        guard applied == EmbeddedMigrations.all.count else {
            throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: applied == 0
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
                throw StoreError.corrupt(path, "a migration left rows that break foreign keys")
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
    func isOwnFile(_ target: String) -> Bool {
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

    /// SQLite's own check of the file (`PRAGMA quick_check`): one message per problem found,
    /// empty when the file is sound. Reads every page: seconds for very large databases.
    func integrityCheck() throws -> [String] {
        let result = try read { (db: Database) in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        return result == ["ok"] ? [] : result.map { "database '\(path)': \($0)" }
    }

    // MARK: Transactions

    func read<T>(_ body: (any StoreReading) throws -> T) throws -> T {
        try read { (db: Database) in try body(SQLiteTransaction(db, path: path, noteDamage: { [unowned self] in noteDamage($0) })) }
    }

    func write<T>(_ body: (any StoreWriting) throws -> T) throws -> T {
        try write { (db: Database) in try body(SQLiteTransaction(db, path: path, noteDamage: { [unowned self] in noteDamage($0) })) }
    }

    func isDamage(_ error: Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// Runs `body` in an IMMEDIATE transaction (so concurrent writers queue on the busy timeout
    /// instead of failing on a lock upgrade); errors come back as clear messages. A file found
    /// damaged is not written: the first write of a session checks the whole file first.
    ///
    /// `foreignKeys: false` runs it with SQLite's foreign key checks off (they cannot change
    /// inside a transaction): only for a body that can be shown never to break one.
    func write<T>(foreignKeys: Bool = true, _ body: (Database) throws -> T) throws -> T {
        if options.readOnly {
            throw StoreError(.readOnlyDatabase(path: path, detail: "it was opened for reading only: queries and export work, changes are refused"))
        }
        if let damage { throw StoreError.writeRefused(path, damage: damage) }
        if heldRead != nil { throw StoreError.internal("a write inside a read of one state (readingOneState)") }
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
                throw noteDamage(StoreError.wrap(found, path: path))
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
    func readingOneState<T>(_ body: () throws -> T) throws -> T {
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
                guard let result else { throw StoreError.internal("transaction without result") }
                return result
            }
        } catch {
            let failure = StoreError.wrap(error, path: path)
            noteDamage(failure)
            throw failure
        }
    }

    /// Records `error` as the file's damage when it reports damage (the first one is kept);
    /// returns it.
    @discardableResult
    func noteDamage(_ error: Error) -> Error {
        if damage == nil { damage = StoreError.corruption(in: error, path: path) }
        return error
    }
}
