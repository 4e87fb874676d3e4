import Foundation
import GRDB
import Layout

/// The look at an existing database file before it is opened for writing: read-only (SQLite
/// `SQLITE_OPEN_READONLY`), so a file that is refused keeps its bytes and its WAL — nothing is
/// checkpointed, nothing is migrated. (`immutable=1` would be cheaper but ignores the WAL, and a
/// database's newest pages may be there.)
///
/// It refuses a foreign SQLite file, a newer schema and a tampered table of applied migrations.
/// When opening for writing would itself write — a WAL with frames (closing the connection
/// checkpoints them into the file) or migrations to apply — it also runs SQLite's
/// `PRAGMA quick_check` and refuses a damaged file. Otherwise that check, which reads every page
/// (≈ 1 s for a 130 MB file of 1M rows, docs/hardening.md), is due before the first write
/// (`DocumentStore.write`) only when the file carries a writer's mark (`WriterMark`: its last
/// writer did not close it cleanly, or one holds it now); a session that only reads a damaged
/// file can still export it.
enum DatabaseInspection {
    /// Refuses the existing database at `path` unless it is a StackDoc database this version can
    /// open (waiting up to `busyTimeout` for another process's lock). Returns true when the first
    /// write needs no whole-file check: this one ran it, or the file carries no writer's mark.
    static func inspect(_ path: String, busyTimeout: TimeInterval) throws -> Bool {
        // A read-only connection to a WAL file makes the `-shm` index (and an empty `-wal`):
        // a refused file is left as it was found.
        let companions = ["-wal", "-shm"].map { FileChecks.resolved(path) + $0 }.filter { access($0, F_OK) != 0 }
        do {
            return try readAlone(path, busyTimeout: busyTimeout, label: "stackdoc-inspection") { db in
                let pendingFrames = FileChecks.companionSize(path, "-wal") > 0
                if pendingFrames { try checkIntegrity(db, path: path) }
                let applied = try checkIdentity(db, path: path)
                let migrating = applied < EmbeddedMigrations.all.count
                if migrating && !pendingFrames { try checkIntegrity(db, path: path) }
                return try pendingFrames || migrating || WriterMark.isClear(db)
            }
        } catch {
            for file in companions { unlink(file) }
            throw StoreError.wrap(error, path: path)
        }
    }

    /// Runs `body` in one read on a read-only connection of its own to the database at `path`
    /// (waiting up to `busyTimeout` for another process's lock; nil: not waiting), closed after.
    static func readAlone<T>(_ path: String, busyTimeout: TimeInterval?, label: String, _ body: (Database) throws -> T) throws -> T {
        var config = Configuration()
        config.readonly = true
        if let busyTimeout { config.busyMode = .timeout(busyTimeout) }
        config.label = label
        let queue = try DatabaseQueue(path: path, configuration: config)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// Refuses foreign SQLite files, newer schema versions and a table of applied migrations
    /// that does not describe the file's tables. Works for any number of migrations: the applied
    /// ones must be exactly the first N this StackDoc knows, and the tables must be those the
    /// first N migrations make. Returns N (0 for a new database).
    @discardableResult
    static func checkIdentity(_ db: Database, path: String) throws -> Int {
        let appID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        if appID != Schema.applicationID {
            // A new, empty database — or one whose first migration never committed (GRDB
            // creates its empty table of applied migrations first).
            if appID == 0 && tables.isEmpty { return 0 }
            if appID == 0 && tables == ["grdb_migrations"],
               try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") == 0 { return 0 }
            throw StoreError(.notAStackDocDatabase(path: path, reason: nil))
        }
        guard tables.contains("grdb_migrations") else {
            throw StoreError.corrupt(path, "the table of applied migrations is missing")
        }
        let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        let known = EmbeddedMigrations.all.map(\.name)
        if let newest = applied.compactMap(Schema.version(of:)).filter({ $0 > Schema.currentVersion }).max() {
            throw StoreError(.newerSchema(path: path, version: newest, supported: Schema.currentVersion))
        }
        if let stranger = applied.first(where: { !known.contains($0) }) {
            throw StoreError.corrupt(path, "its table of applied migrations records \(Validation.quoted(stranger)), which is no StackDoc migration")
        }
        let count = Set(applied).count
        if let missing = known.prefix(count).first(where: { !applied.contains($0) }) {
            throw StoreError.corrupt(path, "its table of applied migrations lacks '\(missing)' but records later ones")
        }
        guard count > 0 else {
            throw StoreError.corrupt(path, "its table of applied migrations is empty, but the file is marked as StackDoc's")
        }
        let version = EmbeddedMigrations.all[count - 1].version
        let expected = try Schema.objects(ofVersion: version)
        let actual = try Schema.objects(db)
        if actual != expected {
            let differing = Set(actual.keys).union(expected.keys).sorted().filter { actual[$0] != expected[$0] }
            throw StoreError.corrupt(path, "its tables do not match schema version \(version), which its table of applied migrations records "
                                       + "(\(differing.prefix(3).map(Validation.quoted).joined(separator: ", ")) \(differing.count == 1 ? "differs" : "differ"))")
        }
        return count
    }

    /// SQLite's `PRAGMA quick_check` over the whole file: the first problem it finds.
    static func checkIntegrity(_ db: Database, path: String) throws {
        let result: [String]
        do {
            result = try String.fetchAll(db, sql: "PRAGMA quick_check")
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_CORRUPT {
            throw StoreError.corrupt(path, "SQLite's check of the file finds: \(error.message ?? "\(error.resultCode)")")
        }
        guard result != ["ok"] else { return }
        let problems = result.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("*** in database") }
        let first = problems.first.map(String.init) ?? "unknown problem"
        throw StoreError.corrupt(path, "SQLite's check of the file finds: \(first.prefix(200))"
                                   + (problems.count > 1 ? " (and \(problems.count - 1) more problems)" : ""))
    }
}
