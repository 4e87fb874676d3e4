/// The PostgreSQL schema: the migrations of `migrations/postgresql/` (embedded in the binary
/// like the SQLite ones), applied in order, each once, recorded in `stackdoc_migrations`.
enum PostgreSQLSchema {
    /// The key of the transaction-level advisory lock the migrations run under ('SDOC').
    static let lockKey: Int64 = 1_396_985_667

    /// The newest schema version this binary knows.
    static var currentVersion: Int { EmbeddedMigrations.postgreSQL.last?.version ?? 0 }

    /// Checks the database's identity and applies the migrations it lacks, in ONE transaction
    /// holding `pg_advisory_xact_lock`, so that two processes connecting to a fresh database at
    /// once are serialized: the second waits for the first to commit, then finds nothing left to
    /// do. A database with every migration is only read (one round trip). `readOnly`: nothing is
    /// applied; a database that lacks migrations is refused.
    static func prepare(_ connection: PostgreSQLConnection, server: String, readOnly: Bool) throws {
        if try applied(connection, server: server) == currentVersion { return }
        if readOnly {
            throw StoreError(.cannotOpenDatabase(path: server, verb: "open", problem:
                "it has no StackDoc schema or an older one, which a read-only open cannot create: open it once for writing"))
        }
        do {
            try connection.execute("BEGIN")
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [.int(lockKey)])
            let version = try applied(connection, server: server)
            if version < 0 {
                try connection.execute("CREATE TABLE stackdoc_migrations (version integer PRIMARY KEY, name text NOT NULL)")
            }
            for m in EmbeddedMigrations.postgreSQL where m.version > version {
                try connection.executeScript(m.sql)
                try connection.execute("INSERT INTO stackdoc_migrations (version, name) VALUES ($1, $2)", [.int(Int64(m.version)), .text(m.name)])
            }
            try connection.execute("COMMIT")
        } catch {
            if connection.isOpen, connection.inTransaction { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// The newest applied migration: -1 when the database has no StackDoc schema (and no
    /// `document` table of something else).
    /// - Throws: `notAStackDocDatabase` for a database whose `document` table is not StackDoc's,
    ///   `newerSchema` for a schema newer than this binary's.
    static func applied(_ connection: PostgreSQLConnection, server: String) throws -> Int {
        // Through pg_class, in the statement's own snapshot: `to_regclass` may read a catalog
        // snapshot older than the advisory lock, and miss the table another process just made.
        let found = try connection.execute("""
            SELECT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                           WHERE n.nspname = current_schema() AND c.relname = 'stackdoc_migrations'),
                   EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                           WHERE n.nspname = current_schema() AND c.relname = 'document')
            """)
        guard found.int(0, 0) == 1 else {
            if found.int(0, 1) == 1 {
                throw StoreError(.notAStackDocDatabase(path: server, reason: "it has a table 'document' but no StackDoc schema"))
            }
            return -1
        }
        let version = Int(try connection.execute("SELECT coalesce(max(version), 0)::int8 FROM stackdoc_migrations").int(0, 0) ?? 0)
        if version > currentVersion {
            throw StoreError(.newerSchema(path: server, version: version, supported: currentVersion))
        }
        return version
    }
}
