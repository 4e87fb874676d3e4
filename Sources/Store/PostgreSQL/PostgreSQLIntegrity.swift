/// The PostgreSQL counterpart of SQLite's `quick_check` (`DocumentStore.integrityCheck()`):
/// PostgreSQL's `amcheck` extension run over every table of the store's schema
/// (`current_schema()`) and every B-tree index on them.
///
/// - Each table: `verify_heapam` (pages and tuples the heap cannot read: one message per
///   damaged tuple, naming the block and offset).
/// - Each B-tree index: `bt_index_check(index, heapallindexed => true)` (the index's order and
///   structure, and that every live row of its table is in it), under the `AccessShareLock`
///   reads take: writers are not blocked.
///
/// `amcheck` ships with the server (contrib) but must be created in the database once, by a
/// role allowed to (`CREATE EXTENSION amcheck`); the check never creates it itself, and says so
/// when it is missing.
enum PostgreSQLIntegrity {
    /// One message per problem found, [] when every table and index is sound.
    /// - Throws: `PostgreSQLError` when `amcheck` is not installed in the database, or a
    ///   statement fails for another reason than the damage it reports.
    static func check(_ connection: PostgreSQLConnection) throws -> [String] {
        let installed = try connection.execute(
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'amcheck'")
        // Called by its schema's name: the store's search_path need not hold it.
        guard installed.count == 1, let home = installed.string(0, 0).map(PostgreSQLConnection.identifier) else {
            throw PostgreSQLError(.unexpected(
                "the engine check needs PostgreSQL's amcheck extension in this database: run CREATE EXTENSION amcheck as a role that may create it"))
        }
        var problems: [String] = []
        let tables = try connection.execute("""
            SELECT c.oid::regclass::text FROM pg_class c
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' ORDER BY 1
            """)
        for t in 0..<tables.count {
            guard let table = tables.string(t, 0) else { continue }
            let damaged = try connection.execute(
                "SELECT blkno::int8, offnum::int8, msg FROM \(home).verify_heapam($1::text::regclass)", [.text(table)])
            for d in 0..<damaged.count {
                problems.append("table \(table), block \(damaged.int(d, 0) ?? -1), offset \(damaged.int(d, 1).map(String.init) ?? "-"): \(damaged.string(d, 2) ?? "")")
            }
        }
        let indexes = try connection.execute("""
            SELECT i.indexrelid::regclass::text FROM pg_index i
            JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class c ON c.oid = i.indexrelid
            JOIN pg_am a ON a.oid = c.relam
            WHERE t.relnamespace = current_schema()::regnamespace AND a.amname = 'btree' ORDER BY 1
            """)
        for n in 0..<indexes.count {
            guard let index = indexes.string(n, 0) else { continue }
            do {
                try connection.execute("SELECT \(home).bt_index_check($1::text::regclass, true)", [.text(index)])
            } catch let error as PostgreSQLError {
                // XX001/XX002: the index is corrupt; anything else is not a finding.
                guard let code = error.sqlState, code.hasPrefix("XX") else { throw error }
                if case .statement(_, let message) = error.kind { problems.append("index \(index): \(message)") }
            }
        }
        return problems
    }
}
