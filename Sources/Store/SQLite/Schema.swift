import Foundation
import GRDB
import Layout

/// The schema: the migrations of `migrations/` (embedded in the binary by the EmbedMigrations
/// build plugin), applied in order, each once, recorded by GRDB's migrator in
/// `grdb_migrations`.
public enum Schema {
    /// StackDoc's SQLite `application_id` ('SDOC'), set by migration 0001.
    public static let applicationID: Int32 = 1_396_985_667

    /// The migrations this binary knows, as (version, name).
    public static var migrations: [(version: Int, name: String)] {
        EmbeddedMigrations.all.map { ($0.version, $0.name) }
    }

    /// The newest schema version this binary knows.
    public static var currentVersion: Int { EmbeddedMigrations.all.last?.version ?? 0 }

    /// A migrator with the embedded migrations up to `version` (all by default).
    static func migrator(upTo version: Int = Int.max) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for m in EmbeddedMigrations.all where m.version <= version {
            migrator.registerMigration(m.name) { db in
                prepare(db)
                try apply(m, db)
            }
        }
        return migrator
    }

    /// Applies, in the caller's transaction, the embedded migrations not yet recorded in
    /// `grdb_migrations` (the table GRDB's migrator keeps, so both agree on what is applied).
    /// Returns how many it applied.
    @discardableResult
    static func migrate(_ db: Database) throws -> Int {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
        prepare(db)
        var count = 0
        for m in EmbeddedMigrations.all where !applied.contains(m.name) {
            try apply(m, db)
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [m.name])
            count += 1
        }
        return count
    }

    /// Applies migration `m` to `db`: its Swift conversion (`conversion(of:)`), if any, then its SQL.
    private static func apply(_ m: (version: Int, name: String, sql: String), _ db: Database) throws {
        try conversion(of: m.version)?(db)
        try db.execute(sql: m.sql)
    }

    /// The Swift part of a migration, run in its transaction before its SQL: a conversion of
    /// values that SQL alone cannot make (from `Sources/Store/SQLite/Upgrade/`, the only code
    /// that reads old formats). It changes values, never the schema's objects, so
    /// `objects(ofVersion:)` (the schema an open compares with) runs the SQL alone.
    static func conversion(of version: Int) -> ((Database) throws -> Void)? {
        guard version == OneDiskVersion.version else { return nil }
        return { db in try OneDiskVersion.convert(db) }
    }

    /// Registers on `db` the SQL functions the migrations call (migration 0016 converts the
    /// legacy row columns with `LegacyRowColumns.register`'s function). Every path that runs
    /// migrations (`migrate`, `migrator`, `objects(ofVersion:)`) calls it first: SQLite resolves
    /// a function when it prepares a statement, even over an empty table.
    static func prepare(_ db: Database) {
        LegacyRowColumns.register(db)
    }

    /// The version number of a migration identifier (`0002_document_times` → 2).
    static func version(of identifier: String) -> Int? {
        Int(identifier.prefix { $0.isNumber })
    }

    /// The schema objects (tables, indexes, triggers, views) of a database: name → type and
    /// SQL text. SQLite's own objects and GRDB's table of applied migrations are left out.
    static func objects(_ db: Database) throws -> [String: String] {
        let rows = try GRDB.Row.fetchAll(db, sql: """
            SELECT name, type || ': ' || ifnull(sql, '') AS definition FROM sqlite_master
            WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name != 'grdb_migrations'
            """)
        var objects: [String: String] = [:]
        for row in rows { objects[try row.decode(forColumn: "name")] = try row.decode(forColumn: "definition") }
        return objects
    }

    /// The schema objects the migrations up to `version` make (built in an in-memory database
    /// as `DocumentStore` migrates a file: their SQL in one transaction, foreign keys off). Every
    /// open compares the file's schema with these; GRDB's migrator (a transaction, foreign key
    /// checks and schema reads per migration) cost ≈ 20 % more instructions. What is left is
    /// SQLite's own work on the migrations' statements (≈ 57 M instructions, ≈ 15 ms).
    static func objects(ofVersion version: Int) throws -> [String: String] {
        let queue = try DatabaseQueue()
        return try queue.inDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            prepare(db)
            try db.inTransaction {
                for m in EmbeddedMigrations.all where m.version <= version { try db.execute(sql: m.sql) }
                return .commit
            }
            return try objects(db)
        }
    }
}
