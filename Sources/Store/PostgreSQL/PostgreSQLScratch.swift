import Layout

/// Scratch databases for tests: a new, empty schema of a test server, so that every test (and
/// every golden script) gets a database of its own on one server.
extension DocumentStore {
    /// Creates an empty schema named `schema` on the server `server` (a `postgresql://` URI) and
    /// returns `server` with `options=-csearch_path=SCHEMA` added (libpq passes it to the server),
    /// so a store opened on the result keeps all its tables there.
    package static func postgreSQLScratch(server: String, schema: String) throws -> String {
        guard let url = PostgreSQLURL(server) else { throw StackDocError("not a PostgreSQL URI: \(server)") }
        do {
            let connection = try PostgreSQLConnection(url: url)
            try connection.execute("CREATE SCHEMA \(PostgreSQLConnection.identifier(schema))")
        } catch {
            throw StoreError.wrapPostgreSQL(error, server: url.redacted)
        }
        return server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D" + schema
    }
}
