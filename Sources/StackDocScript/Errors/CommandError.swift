import Layout
import Store

/// A failure of the command language (SPEC §4.1): a line that does not parse, a file a command
/// reads or writes that cannot be read or written, a saved document with a problem, a command
/// the session recovered from after another process changed or dropped the open document.
/// Throwing one leaves the session, the document and every file as they were.
///
/// An error is data: a `Kind` naming the problem and the values involved; two errors are equal
/// when their kinds and values are, never by their text. `message` is its text
/// (`CommandError+Message.swift`); `ErrorReport` renders any error.
public struct CommandError: UserFacingError, Hashable, CustomStringConvertible {
    /// What went wrong, with the values involved.
    public indirect enum Kind: Hashable, Sendable {
        /// A line of the command language that does not parse.
        case syntax(Syntax)
        /// A file a command reads that cannot be read: `problem` says why.
        case cannotRead(path: String, problem: String)
        /// A file a command writes that cannot be written: `problem` says why.
        case cannotWrite(path: String, problem: String)
        /// A problem found in the file at `path` (a saved document being imported).
        case inFile(path: String, StackDocError.Kind)
        /// A command failed (with `ErrorReport`'s error) because another process changed or
        /// dropped the open document, and the session recovered as `StaleRecovery` says.
        case recovered(ErrorReport, StaleRecovery)
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

    /// What went wrong, with the values involved (`message` is its text).
    public var kind: Kind

    /// An error of this kind.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    public var description: String { message }
}
