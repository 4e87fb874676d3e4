/// A user-facing error (SPEC §3: "Every error is a clear message naming the problem").
/// Throwing one must leave every state unchanged.
///
/// An error is data: a `Kind` naming the problem and the user values involved. Its text is
/// made in one place, `message` (`StackDocError+Message.swift`), which quotes and escapes every
/// user value by one rule (`Validation.quoted`). Nothing matches or rewrites message text:
/// code that must tell errors apart looks at `kind`.
public struct StackDocError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, with the values involved.
    public indirect enum Kind: Hashable, Sendable {
        /// A problem without a case of its own, as text (`StackDocError("…")`).
        case message(String)
        /// A command that needs a document ran with none open.
        case noDocumentOpen
        /// `close` with no document open.
        case nothingToClose
        /// No document of this name in the database.
        case noSuchDocument(name: String)
        /// No row with this id in the document.
        case noSuchRow(RowID)
        /// A row id, document name or type that breaks the name rule, at `path` (a field or
        /// a JSON path).
        case invalidName(NameKind, value: String, path: String)
        /// A bad value at `path` (a command word, a field, a JSON path): `problem` says why.
        case badValue(path: String, problem: String)
        /// Another process changed the document after this session loaded it.
        case staleDocument(name: String, storedVersion: Int, sessionVersion: Int)
        /// Another process dropped the document this session has open.
        case droppedDocument(name: String)
        /// A damaged database file.
        case corruptFile(path: String, problem: String)
        /// A database file that cannot be opened (`verb`: `open` or `create`): `problem` says why.
        case cannotOpenDatabase(path: String, verb: String, problem: String)
        /// A file a command reads that cannot be read: `problem` says why.
        case cannotRead(path: String, problem: String)
        /// A file a command writes that cannot be written: `problem` says why.
        case cannotWrite(path: String, problem: String)
        /// A problem found in the file at `path` (a saved document being imported).
        case inFile(path: String, Kind)
        /// A command failed because another process changed or dropped the open document, and
        /// the session recovered as `StaleRecovery` says.
        case recovered(Kind, StaleRecovery)
    }

    /// What a session did after another process changed or dropped its open document.
    public enum StaleRecovery: Hashable, Sendable {
        /// Reloaded the document: running the command again works.
        case reloaded
        /// Closed the document because reloading it failed.
        case closed
        /// Closed the dropped document; `namesake`: a new document of the same name exists.
        case closedDropped(namesake: String?)
    }

    /// The kinds of names (`Validation`'s three rules).
    public enum NameKind: String, Hashable, Sendable {
        /// A row id: `[A-Za-z_][A-Za-z0-9_.-]{0,63}`.
        case rowID = "row id"
        /// A document name: `[A-Za-z0-9_.-]{1,64}`.
        case documentName = "document name"
        /// A row type: the document name rule, `[A-Za-z0-9_.-]{1,64}`.
        case type = "type"
    }

    /// What went wrong, with the values involved (`message` is its text).
    public var kind: Kind

    /// An error given as text (the general case; prefer a `Kind` when one fits).
    public init(_ message: String) {
        kind = .message(message)
    }

    /// An error of this kind.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    public var description: String { message }

    /// Errors are equal when they say the same thing.
    public static func == (a: StackDocError, b: StackDocError) -> Bool { a.message == b.message }
    public func hash(into hasher: inout Hasher) { hasher.combine(message) }
}
