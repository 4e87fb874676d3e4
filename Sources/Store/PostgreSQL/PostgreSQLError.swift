/// A failure of the PostgreSQL client: typed by what went wrong, compared by kind and fields, and
/// spelled with the server's URI redacted (a password is never in a message).
struct PostgreSQLError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        /// The server could not be reached or refused the session (down, unreachable, wrong
        /// password, missing database, timed out): libpq's first line, scrubbed.
        case cannotConnect(server: String, detail: String)
        /// The connection broke while in use (the server restarted or went away).
        case connectionLost(server: String, detail: String)
        /// A statement failed on the server: its SQLSTATE code (e.g. `40001`, `23505`) and message.
        case statement(sqlState: String, message: String)
        /// The server answered something the client did not ask for (a protocol or usage error).
        case unexpected(String)
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// The SQLSTATE of a failed statement, nil for other failures.
    var sqlState: String? {
        if case .statement(let code, _) = kind { return code }
        return nil
    }

    var description: String {
        switch kind {
        case let .cannotConnect(server, detail): "cannot connect to \(server): \(detail)"
        case let .connectionLost(server, detail): "lost the connection to \(server): \(detail)"
        case let .statement(code, message): "\(message) (SQLSTATE \(code))"
        case let .unexpected(message): message
        }
    }
}
