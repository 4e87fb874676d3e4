import Layout
import StackDocTestSupport
@testable import Store
import Testing

/// `DocumentStore.integrityCheck()` on PostgreSQL: `amcheck` over the store's schema. It
/// refuses to run without the extension, finds nothing in a sound store, and finds a B-tree
/// index whose order no longer matches its table's rows.
@Suite(.longRunning, .enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)))
struct PostgreSQLIntegrityTests {
    /// One test on purpose: it drops and creates the extension, which is database-wide.
    @Test func amcheckRunsOverTheStoresTablesAndIndexes() throws {
        let url = try TestStores.url(.postgresql)
        let store = try DocumentStore(url: url)
        let doc = try store.create("home", settings: DocumentSettings(axis: .vertical))
        for id in ["a", "b", "c"] { try doc.perform(.add(ids: [id], spec: [.fixed(40)], position: nil, parent: nil)) }
        try doc.perform(.remove(ids: ["b"]))
        let raw = try PostgreSQLConnection(url: try #require(PostgreSQLURL(url)))

        try raw.execute("DROP EXTENSION IF EXISTS amcheck")
        let missing = try #require(throws: StoreError.self) { try store.integrityCheck() }
        #expect(missing.message.contains("CREATE EXTENSION amcheck"), "\(missing.message)")

        try raw.execute("CREATE EXTENSION amcheck SCHEMA public")
        #expect(try store.integrityCheck() == [])

        // An index built on a function that lies about being immutable: once the function
        // changes, the index's order is wrong for its rows, which bt_index_check reports.
        try raw.executeScript("""
            CREATE FUNCTION flip(x int) RETURNS int IMMUTABLE LANGUAGE sql AS 'SELECT x';
            CREATE TABLE probe (x int);
            INSERT INTO probe SELECT generate_series(1, 2000);
            CREATE INDEX probe_flip ON probe (flip(x));
            CREATE OR REPLACE FUNCTION flip(x int) RETURNS int IMMUTABLE LANGUAGE sql AS 'SELECT -x';
            """)
        let problems = try store.integrityCheck()
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.hasPrefix("index probe_flip:") == true, "\(problems)")
        #expect(try store.open("home").verify().isEmpty)
    }
}
