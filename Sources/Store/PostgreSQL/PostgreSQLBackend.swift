import Foundation
import Layout

/// The PostgreSQL backend (`StoreBackend`): one database of a PostgreSQL server, shared by every
/// process that names it, through one libpq connection (`PostgreSQLConnection`).
///
/// Opening connects (within the connect timeout: 5 s, or the URI's `connect_timeout`) and
/// applies the migrations of `migrations/postgresql/` the database lacks, under a
/// transaction-level advisory lock (`PostgreSQLSchema`). Reads run in `REPEATABLE READ READ ONLY`
/// transactions (one state of the database each); writes in `READ COMMITTED` ones that lock
/// their document's record first (`storedVersion` reads it `FOR UPDATE`), so writers of
/// different documents never wait for each other and a writer of the same document waits (up to
/// the busy timeout, as `lock_timeout`) and then sees the newer version: stale.
final class PostgreSQLBackend: StoreBackend {
    /// The server's URI with its password redacted: how every message names the database.
    let path: String
    let url: PostgreSQLURL
    let options: StoreOptions
    /// The session with the server (replaced by a reconnection).
    let connection: PostgreSQLConnection
    private(set) var damage: String?
    /// The transaction `readingOneState` holds open (nil: none): the reads inside it run on it.
    private var held: PostgreSQLTransaction?
    /// True while the connection `LISTEN`s on `changeChannel` (`PostgreSQLChangeSignal`).
    var listening = false
    /// Other sessions' notifications heard, plus one per reconnection: the change token.
    var heard: Int64 = 0

    /// Connects to `url` and brings its schema up to date (never for `readOnly`: a read-only
    /// open needs the current schema).
    /// - Throws: `StoreError` (`cannotOpenDatabase` with libpq's reason on one line: a down or
    ///   unreachable server, a wrong password, a missing database; `notAStackDocDatabase`,
    ///   `newerSchema`).
    init(url: PostgreSQLURL, options: StoreOptions) throws {
        self.url = url
        self.options = options
        path = url.redacted
        do {
            connection = try PostgreSQLConnection(url: url)
            if options.readOnly { try connection.execute("SET default_transaction_read_only = on") }
            try PostgreSQLSchema.prepare(connection, server: path, readOnly: options.readOnly)
        } catch {
            throw StoreError.wrapPostgreSQL(error, server: path)
        }
    }

    func isOwnFile(_ target: String) -> Bool { false }

    /// The engine's own check of the store's tables and indexes, through PostgreSQL's `amcheck`
    /// extension (`PostgreSQLIntegrity`): one message per problem, [] when sound.
    /// - Throws: `StoreError` when the check cannot run (`amcheck` is not installed in the
    ///   database and this role may not create it).
    func integrityCheck() throws -> [String] {
        do { return try PostgreSQLIntegrity.check(connection) } catch { throw StoreError.wrapPostgreSQL(error, server: path) }
    }

    func isDamage(_ error: Error) -> Bool {
        guard let error = error as? PostgreSQLError, let code = error.sqlState else { return false }
        return code == "XX001" || code == "XX002"
    }

    @discardableResult
    func noteDamage(_ error: Error) -> Error {
        if damage == nil { damage = StoreError.corruption(in: error, path: path) }
        return error
    }

    // MARK: Transactions

    func read<T>(_ body: (any StoreReading) throws -> T) throws -> T {
        if let held { return try body(held) }
        return try transaction(writing: false, body)
    }

    func write<T>(_ body: (any StoreWriting) throws -> T) throws -> T {
        if options.readOnly {
            throw StoreError(.readOnlyDatabase(path: path, detail: "it was opened for reading only: queries and export work, changes are refused"))
        }
        if let damage { throw StoreError.writeRefused(path, damage: damage) }
        if held != nil { throw StoreError.internal("a write inside a read of one state (readingOneState)") }
        return try transaction(writing: true, body)
    }

    func readingOneState<T>(_ body: () throws -> T) throws -> T {
        if held != nil { return try body() }
        return try transaction(writing: false) { tx in
            held = tx
            defer { held = nil }
            return try body()
        }
    }

    /// Runs `body` in one transaction on the connection: `BEGIN` goes with the first statement
    /// and `COMMIT` with the last writes (`PostgreSQLTransaction`'s pipeline). A connection the
    /// server closed (a restart) is reconnected once before the transaction starts; the document
    /// logic then re-checks its version as in every write.
    func transaction<T>(writing: Bool, _ body: (PostgreSQLTransaction) throws -> T) throws -> T {
        do {
            if !connection.isAlive() { try reconnect() }
            let tx = PostgreSQLTransaction(connection, path: path, writing: writing, noteDamage: { [unowned self] in noteDamage($0) })
            tx.begin(writing ? ["BEGIN", "SET LOCAL lock_timeout = \(max(1, Int(options.busyTimeout * 1000)))"] + stopListening()
                             : ["BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"])
            do {
                let result = try body(tx)
                try tx.commit()
                return result
            } catch {
                tx.rollback()
                throw error
            }
        } catch {
            let failure = StoreError.wrapPostgreSQL(error, server: path)
            noteDamage(failure)
            throw failure
        }
    }
}
