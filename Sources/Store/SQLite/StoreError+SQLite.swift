import GRDB
import StoreFormat
import Layout

// SQLite's errors (GRDB's `DatabaseError`) as the store's: the one place that maps SQLite's
// result codes to `StoreError.Kind`s.
extension StoreError {
    /// Wraps any error thrown while working on the database at `path` into a clear message:
    /// every layer's error (`UserFacingError`) as it is, SQLite's by result code.
    static func wrap(_ error: Error, path: String) -> Error {
        if error is UserFacingError { return error }
        if let invariant = error as? FormatInvariant { return StoreError(.storeInvariant(invariant.description)) }
        if let db = error as? DatabaseError {
            let message = db.message ?? "\(db.resultCode)"
            switch db.resultCode.primaryResultCode {
            case .SQLITE_CORRUPT:
                return corrupt(path, message)
            case .SQLITE_NOTADB:
                return StoreError(.notAStackDocDatabase(path: path, reason: message))
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return StoreError(.databaseBusy(path: path, detail: message))
            case .SQLITE_READONLY:
                return StoreError(.readOnlyDatabase(path: path, detail: message))
            case .SQLITE_FULL:
                return StoreError(.diskFull(path: path))
            case .SQLITE_CANTOPEN:
                return StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: message))
            case .SQLITE_IOERR:
                return StoreError(.ioError(path: path, detail: message))
            default:
                return StoreError(.databaseError(path: path, detail: message))
            }
        }
        return StoreError(.databaseError(path: path, detail: "\(error)"))
    }
}
