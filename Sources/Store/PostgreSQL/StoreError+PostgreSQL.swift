import Layout
import StoreFormat

// PostgreSQL's errors (`PostgreSQLError`) as the store's: the one place that maps libpq's
// failures and the server's SQLSTATE codes to `StoreError.Kind`s.
extension StoreError {
    /// Wraps any error thrown while working on the server `server` (its URI, password redacted)
    /// into a clear message: every layer's error (`UserFacingError`) as it is, PostgreSQL's by kind
    /// and SQLSTATE.
    static func wrapPostgreSQL(_ error: Error, server: String) -> Error {
        if error is UserFacingError { return error }
        if let invariant = error as? FormatInvariant { return StoreError(.storeInvariant(invariant.description)) }
        guard let pg = error as? PostgreSQLError else { return StoreError(.databaseError(path: server, detail: "\(error)")) }
        switch pg.kind {
        case .cannotConnect(_, let detail):
            return StoreError(.cannotOpenDatabase(path: server, verb: "open", problem: detail))
        case .connectionLost(_, let detail):
            return StoreError(.ioError(path: server, detail: "the connection to the server was lost: \(detail)"))
        case .unexpected(let detail):
            return StoreError(.databaseError(path: server, detail: detail))
        case let .statement(code, message):
            switch code {
            // lock_not_available (lock_timeout), deadlock, serialization failure.
            case "55P03", "40P01", "40001":
                return StoreError(.databaseBusy(path: server, detail: message))
            case "25006":
                return StoreError(.readOnlyDatabase(path: server, detail: message))
            case "53100":
                return StoreError(.diskFull(path: server))
            case "XX001", "XX002":
                return corrupt(server, message)
            default:
                return StoreError(.databaseError(path: server, detail: "\(message) (SQLSTATE \(code))"))
            }
        }
    }
}
