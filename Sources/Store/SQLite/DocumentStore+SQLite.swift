import GRDB

/// The SQLite connection behind a `DocumentStore` opened on a file (tests and the SQLite
/// backend's own bulk paths read and write SQL through it; the document logic never does).
extension DocumentStore {
    /// The SQLite backend (every `DocumentStore` opens one today).
    var sqlite: SQLiteBackend { backend as! SQLiteBackend }
    /// Its GRDB connection.
    var queue: DatabaseQueue { sqlite.queue }

    /// `SQLiteBackend.read(_:)`: one read transaction on the connection.
    func read<T>(_ body: (Database) throws -> T) throws -> T { try sqlite.read(body) }

    /// `SQLiteBackend.write(foreignKeys:_:)`: one write transaction on the connection.
    func write<T>(foreignKeys: Bool = true, _ body: (Database) throws -> T) throws -> T {
        try sqlite.write(foreignKeys: foreignKeys, body)
    }
}
