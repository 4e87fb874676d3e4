import Layout
import Store

/// One store per backend for a test that must hold on both: SQLite (in memory) always, and
/// PostgreSQL (a new schema of `TestPostgres.url`) when `STACKDOC_TEST_POSTGRES` is set — without
/// it the PostgreSQL case is left out and `skipNote` says so.
public enum TestStores {
    /// A backend a test runs on.
    public enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
        case sqlite
        case postgresql

        public var description: String { rawValue }
    }

    /// The backends of this run: `.sqlite`, and `.postgresql` when a server is given.
    public static var backends: [Backend] {
        TestPostgres.available ? [.sqlite, .postgresql] : [.sqlite]
    }

    /// Why PostgreSQL is not among `backends` (nil: it is).
    public static var skipNote: String? {
        TestPostgres.available ? nil : TestPostgres.skipReason
    }

    /// A new, empty store of `backend`.
    public static func store(_ backend: Backend, options: StoreOptions = StoreOptions()) throws -> DocumentStore {
        try DocumentStore(url: url(backend), options: options)
    }

    /// The `--db` value of a new, empty database of `backend` (`:memory:` for SQLite).
    public static func url(_ backend: Backend) throws -> String {
        switch backend {
        case .sqlite:
            return ":memory:"
        case .postgresql:
            guard let server = TestPostgres.url else { throw StackDocError(TestPostgres.skipReason) }
            return try DocumentStore.postgreSQLScratch(server: server, schema: TestPostgres.uniqueName("t").lowercased())
        }
    }
}
