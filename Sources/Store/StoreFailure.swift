import GRDB
import Layout

/// Builds the store's user-facing errors (all `StackDocError`s with a message naming the
/// problem), and turns SQLite errors into such messages.
enum StoreFailure {
    /// A broken invariant of the store itself (a bug or a damaged database), never bad input.
    static func `internal`(_ message: String) -> StackDocError {
        StackDocError("internal store error: \(message)")
    }

    /// A damaged database file.
    static func corrupt(_ path: String, _ problem: String) -> StackDocError {
        StackDocError(.corruptFile(path: path, problem: problem))
    }

    /// Wraps any error thrown while working on the database at `path` into a clear message.
    static func wrap(_ error: Error, path: String) -> Error {
        if error is StackDocError { return error }
        if let db = error as? DatabaseError {
            let message = db.message ?? "\(db.resultCode)"
            switch db.resultCode.primaryResultCode {
            case .SQLITE_CORRUPT:
                return corrupt(path, message)
            case .SQLITE_NOTADB:
                return StackDocError("database '\(path)' is not a StackDoc database: \(message)")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return StackDocError("database '\(path)' is busy: another process holds it locked (\(message))")
            case .SQLITE_READONLY:
                return StackDocError("database '\(path)' is read-only: \(message)")
            case .SQLITE_FULL:
                return StackDocError("database '\(path)': the disk is full")
            case .SQLITE_CANTOPEN:
                return StackDocError("cannot open database '\(path)': \(message)")
            case .SQLITE_IOERR:
                return StackDocError("database '\(path)': I/O error (\(message))")
            default:
                return StackDocError("database '\(path)': \(message)")
            }
        }
        return StackDocError("database '\(path)': \(error)")
    }
}
