import Foundation
import GRDB
import Layout

/// Builds the store's user-facing errors (all `StackDocError`s with a message naming the
/// problem), and turns SQLite errors into such messages.
enum StoreFailure {
    /// A broken invariant of the store itself (a bug or a damaged database), never bad input.
    static func `internal`(_ message: String) -> StackDocError {
        StackDocError(.storeInvariant(message))
    }

    /// A damaged database file.
    static func corrupt(_ path: String, _ problem: String) -> StackDocError {
        StackDocError(.corruptFile(path: path, problem: problem))
    }

    /// A log entry that cannot be read back (damaged JSON, a value of the wrong type): names the
    /// document and the entry, and the way out.
    static func damagedLogEntry(_ path: String, document: String, seq: Int, _ error: Error) -> StackDocError {
        corrupt(path, "document '\(document)': log entry \(seq) is damaged (\(reason(error))); "
                + "`export FILE` saves the document as stored, `verify` tells whether its log still replays to it")
    }

    /// The refusal of every write after damage was found (`DocumentStore.damage`).
    static func writeRefused(_ path: String, damage: String) -> StackDocError {
        StackDocError(.writeRefused(path: path, damage: damage))
    }

    /// The problem of an error that reports damage in the database at `path` (SQLite's
    /// `SQLITE_CORRUPT`, a damaged log entry, a stored value no command writes); nil for others.
    static func corruption(in error: Error, path: String) -> String? {
        guard let error = error as? StackDocError, case let .corruptFile(file, problem) = error.kind, file == path else { return nil }
        return problem
    }

    /// A short, one-line reason for a decoding failure (no Swift debug dump).
    static func reason(_ error: Error) -> String {
        func at(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty ? "" : " at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        }
        let text: String
        switch error {
        case let error as StackDocError: text = error.message
        case DecodingError.dataCorrupted(let context): text = "\(context.debugDescription.trimmingCharacters(in: .punctuationCharacters))\(at(context))"
        case DecodingError.keyNotFound(let key, let context): text = "'\(key.stringValue)' is missing\(at(context))"
        case DecodingError.typeMismatch(let type, let context): text = "expected \(type)\(at(context))"
        case DecodingError.valueNotFound(let type, let context): text = "expected \(type)\(at(context))"
        default: text = "\(error)"
        }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 160 ? String(line.prefix(160)) + "…" : line
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
                return StackDocError(.notAStackDocDatabase(path: path, reason: message))
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return StackDocError(.databaseBusy(path: path, detail: message))
            case .SQLITE_READONLY:
                return StackDocError(.readOnlyDatabase(path: path, detail: message))
            case .SQLITE_FULL:
                return StackDocError(.diskFull(path: path))
            case .SQLITE_CANTOPEN:
                return StackDocError(.cannotOpenDatabase(path: path, verb: "open", problem: message))
            case .SQLITE_IOERR:
                return StackDocError(.ioError(path: path, detail: message))
            default:
                return StackDocError(.databaseError(path: path, detail: message))
            }
        }
        return StackDocError(.databaseError(path: path, detail: "\(error)"))
    }
}
