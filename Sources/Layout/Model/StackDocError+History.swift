extension StackDocError {
    /// A request about a document's history that cannot be met: marks, references (`--at REF`,
    /// `diff`, `restore`), `undo --mine`, snapshots of past entries. Names and marks are kept as
    /// given; `message` quotes and escapes them (`Validation.quoted`).
    public enum History: Hashable, Sendable {
        /// A mark name that breaks the mark rule.
        case invalidMarkName(String)
        /// `mark` while a group (`begin LABEL`) is open.
        case markInOpenGroup(label: String?)
        /// A mark of this name exists already, at log entry `seq`.
        case markExists(String, seq: Int)
        /// No mark of this name in the document.
        case noSuchMark(String, document: String)
        /// The mark stands on steps a later operation discarded (`restore` reaches it).
        case markUnreachable(String)
        /// A log entry number outside `1...last`.
        case noLogEntry(Int, document: String, last: Int)
        /// `now~N` further back than the first log entry (the log has `entries`).
        case beforeFirstEntry(back: Int, document: String, entries: Int)
        /// A snapshot written while a group is open.
        case snapshotInOpenGroup
        /// `undo --mine N`: a step of another origin (`by`, nil: unknown) lies after the steps
        /// to undo (`mine` of them found before it).
        case undoMineBlocked(count: Int, origin: String, step: Int, by: String?, mine: Int)
        /// `undo --mine N` with fewer than N applied steps of this origin (`mine`).
        case notEnoughMine(count: Int, origin: String, mine: Int)
        /// `redo N` with fewer than N undone steps of this origin that can be redone (`mine`).
        case notEnoughMineToRedo(count: Int, origin: String, mine: Int)
        /// Per-person `undo`/`redo` of step `step` of `origin`: step `by` of `byOrigin` (nil:
        /// none recorded) changed `what` (a row, a field, the settings) after it.
        case ownStepConflict(StackDocError.HistoryMove, origin: String, step: Int, by: Int, byOrigin: String?, what: String)
    }
}
