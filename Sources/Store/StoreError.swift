import Foundation
import Layout

/// A failure of the store (SPEC §3: "Every error is a clear message naming the problem"): a
/// database file that cannot be opened, is not a StackDoc database, is damaged, busy, read-only
/// or full; a document another process changed or dropped; a broken invariant of the store
/// itself. Throwing one leaves the database and the document as they were.
///
/// An error is data: a `Kind` naming the problem and the values involved; two errors are equal
/// when their kinds and values are, never by their text. `message` is its text (every path
/// through `Validation.quotedPath`, every name through `Validation.quoted`). The mapping of
/// SQLite's errors to kinds is `StoreError.wrap` (`SQLite/StoreError+SQLite.swift`).
public struct StoreError: UserFacingError, Hashable, CustomStringConvertible {
    /// What went wrong, with the values involved.
    public enum Kind: Hashable, Sendable {
        /// A broken invariant of the store itself (a bug or a damaged database), never bad input.
        case storeInvariant(String)
        /// An SQLite file that is not a StackDoc database (`reason` nil: a valid SQLite database
        /// of something else).
        case notAStackDocDatabase(path: String, reason: String?)
        /// A database of a newer schema than this StackDoc knows.
        case newerSchema(path: String, version: Int, supported: Int)
        /// A database another process holds locked beyond the busy timeout.
        case databaseBusy(path: String, detail: String)
        /// A database that cannot be written: the file or its directory is read-only.
        case readOnlyDatabase(path: String, detail: String)
        /// The disk holding the database is full.
        case diskFull(path: String)
        /// An I/O error reading or writing the database.
        case ioError(path: String, detail: String)
        /// A write to a database found damaged earlier in the session (`damage`: what was found).
        case writeRefused(path: String, damage: String)
        /// Any other SQLite error on the database.
        case databaseError(path: String, detail: String)
        /// Another process changed the document after this session loaded it.
        case staleDocument(name: String, storedVersion: Int, sessionVersion: Int)
        /// Another process dropped the document this session has open.
        case droppedDocument(name: String)
        /// A stale edit not planned again (SPEC §3): log entry `entry` (of kind `kind`, in undo
        /// step `step` when it belongs to one), written by `origin` (nil: none recorded) after
        /// the version the edit was planned on, changed `what` (`Compensation.describe`), which
        /// the edit depends on (`EditFootprint`). The handle has caught up; nothing was written.
        case editConflict(name: String, entry: Int, kind: String, step: Int?, origin: String?, what: String)
        /// A damaged database file.
        case corruptFile(path: String, problem: String)
        /// A database file that cannot be opened (`verb`: `open` or `create`): `problem` says why.
        case cannotOpenDatabase(path: String, verb: String, problem: String)
    }

    /// What went wrong, with the values involved (`message` is its text).
    public var kind: Kind

    /// An error of this kind.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    public var description: String { message }

    /// The error as one line of text: the one renderer of the store's errors.
    public var message: String {
        let path = Validation.quotedPath
        switch kind {
        case .storeInvariant(let problem):
            return "internal store error: \(problem)"
        case let .notAStackDocDatabase(file, reason):
            return "database \(path(file)) is " + (reason.map { "not a StackDoc database: \($0)" } ?? "an SQLite database but not a StackDoc database")
        case let .newerSchema(file, version, supported):
            return "database \(path(file)) has schema version \(version), newer than this StackDoc supports (\(supported)); use a newer stackdoc"
        case let .databaseBusy(file, detail):
            return "database \(path(file)) is busy: another process holds it locked (\(detail))"
        case let .readOnlyDatabase(file, detail):
            return "database \(path(file)) is read-only: \(detail)"
        case .diskFull(let file):
            return "database \(path(file)): the disk is full"
        case let .ioError(file, detail):
            return "database \(path(file)): I/O error (\(detail))"
        case let .writeRefused(file, damage):
            return "database \(path(file)) is not written to any more: it was found damaged (\(damage))"
        case let .databaseError(file, detail):
            return "database \(path(file)): \(detail)"
        case .staleDocument:
            return cause + ": reload it and try again"
        case .droppedDocument(let name):
            return "document \(Validation.quoted(name)) was dropped by another process"
        case let .editConflict(name, entry, kind, step, origin, what):
            let by = origin.map(Validation.quoted) ?? "an unknown origin"
            let made = step.map { "step \($0)" } ?? "log entry \(entry) (\(kind))"
            return "conflict: \(made) by \(by) changed \(what) since you read document \(Validation.quoted(name)); "
                + "it is reloaded, nothing was written"
        case let .corruptFile(file, problem):
            return "database \(path(file)) is corrupt: \(problem)"
        case let .cannotOpenDatabase(file, verb, problem):
            return "cannot \(verb) database \(path(file)): \(problem)"
        }
    }

    /// What happened, without the advice: a stale document's message without "reload it and
    /// try again" (a session that reloaded says what it did instead); else `message`.
    public var cause: String {
        guard case let .staleDocument(name, stored, session) = kind else { return message }
        return "document \(Validation.quoted(name)) was changed by another process (stored version \(stored), this session has \(session))"
    }
}

// The errors the store builds in more than one place.
extension StoreError {
    /// A broken invariant of the store itself (a bug or a damaged database), never bad input.
    static func `internal`(_ message: String) -> StoreError {
        StoreError(.storeInvariant(message))
    }

    /// A damaged database file.
    static func corrupt(_ path: String, _ problem: String) -> StoreError {
        StoreError(.corruptFile(path: path, problem: problem))
    }

    /// A log entry that cannot be read back (damaged JSON, a value of the wrong type): names the
    /// document and the entry, and the way out.
    static func damagedLogEntry(_ path: String, document: String, seq: Int, _ error: Error) -> StoreError {
        corrupt(path, "document '\(document)': log entry \(seq) is damaged (\(reason(error))); "
                + "`export FILE` saves the document as stored, `verify` tells whether its log still replays to it")
    }

    /// The refusal of every write after damage was found (`DocumentStore.damage`).
    static func writeRefused(_ path: String, damage: String) -> StoreError {
        StoreError(.writeRefused(path: path, damage: damage))
    }

    /// The problem of an error that reports damage in the database at `path` (SQLite's
    /// `SQLITE_CORRUPT`, a damaged log entry, a stored value no command writes); nil for others.
    static func corruption(in error: Error, path: String) -> String? {
        guard let error = error as? StoreError, case let .corruptFile(file, problem) = error.kind, file == path else { return nil }
        return problem
    }

    /// A short, one-line reason for a decoding failure (no Swift debug dump).
    static func reason(_ error: Error) -> String {
        func at(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty ? "" : " at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        }
        let text: String
        switch error {
        case let error as UserFacingError: text = error.message
        case DecodingError.dataCorrupted(let context): text = "\(context.debugDescription.trimmingCharacters(in: .punctuationCharacters))\(at(context))"
        case DecodingError.keyNotFound(let key, let context): text = "'\(key.stringValue)' is missing\(at(context))"
        case DecodingError.typeMismatch(let type, let context): text = "expected \(type)\(at(context))"
        case DecodingError.valueNotFound(let type, let context): text = "expected \(type)\(at(context))"
        default: text = "\(error)"
        }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 160 ? String(line.prefix(160)) + "…" : line
    }
}
