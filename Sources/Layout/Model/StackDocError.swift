/// A request that breaks a document rule (SPEC §3: "Every error is a clear message naming the
/// problem"): a row, stack, name, value, history move, group or mark the document refuses.
/// Throwing one must leave every state unchanged.
///
/// Each layer owns its errors: this one the document's rules, `StoreError` (Store) the
/// database's and the file's failures, `CommandError` (StackDocScript) the command language's
/// syntax and the files a command reads or writes. An error is data: a `Kind` naming the problem
/// and the user values involved; two errors are equal when their kinds and values are, never by
/// their text. Its text is `message` (`StackDocError+Message.swift`), which quotes and escapes
/// every user value by one rule (`Validation.quoted`); `ErrorReport` (StackDocScript) renders
/// any error through `UserFacingError`. Nothing matches or rewrites message text: code that
/// must tell errors apart looks at `kind`.
public struct StackDocError: UserFacingError, Hashable, CustomStringConvertible {
    /// What went wrong, with the values involved.
    public enum Kind: Hashable, Sendable {
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
        /// A row with this id exists already (`add`, `replace … with NEWROW`).
        case rowExists(RowID)
        /// A row named as a stack (`in ROW`) is not one.
        case notAStack(RowID)
        /// `stack none` on a stack that still has rows (how many).
        case stackNotEmpty(RowID, rows: Int)
        /// The anchor of `after ROW` / `before ROW` is not in the stack the row goes into.
        case notInStack(RowID, stack: RowID?)
        /// A move of a row into itself or into one of its own rows.
        case moveIntoItself(RowID)
        /// `scroll to ROW` of a hidden row (`inside` nil) or of a row inside the hidden row `inside`.
        case hiddenScrollTarget(RowID, inside: RowID?)
        /// A document of this name exists already (`new`, `import`).
        case documentExists(name: String)
        /// `undo` / `redo` with nothing to undo or redo.
        case nothingInHistory(HistoryMove)
        /// `undo N` / `redo N` with fewer than N steps to move over.
        case tooManySteps(HistoryMove, count: Int, available: Int)
        /// A history reference (`--at`, `diff`, `restore`, `history compact before`) to log entry
        /// `entry` of `document`, whose history was compacted: it starts after entry `base`.
        case compactedEntry(document: String, entry: Int, base: Int)
        /// `undo N` with fewer than N steps left because `history compact` dropped the earlier
        /// ones (the history of `document` starts after log entry `base`).
        case undoPastCompaction(document: String, count: Int, available: Int, base: Int)
        /// `undo N` / `redo N` with N below 1.
        case stepCountBelowOne(HistoryMove, count: Int)
        /// `undo` / `redo` while a group (`begin LABEL`) is open.
        case historyInOpenGroup(HistoryMove, label: String?)
        /// `begin` while a group (`begin LABEL`) is open.
        case groupAlreadyOpen(label: String?)
        /// `commit` / `rollback` with no group open.
        case noGroupOpen(GroupEnd)
        /// A group label that breaks the label rule.
        case invalidGroupLabel
        /// A row id, document name or type that breaks the name rule, at `path` (a field or
        /// a JSON path).
        case invalidName(NameKind, value: String, path: String)
        /// A bad value at `path` (a command word, a field, a JSON path): `problem` says why.
        case badValue(path: String, problem: String)
        /// A request about the history that cannot be met (marks, references, undo --mine).
        case history(History)
        /// The command was cancelled (Ctrl-C, `Cancellation`) before it finished; nothing changed.
        case cancelled
    }

    /// The direction of a history move.
    public enum HistoryMove: String, Hashable, Sendable {
        /// `undo`: back one step.
        case undo
        /// `redo`: forward one step.
        case redo
    }

    /// How a group ends.
    public enum GroupEnd: String, Hashable, Sendable {
        /// `commit`: the group becomes one undo step.
        case commit = "commit"
        /// `rollback`: the group's operations are taken back.
        case rollback = "roll back"
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
}
