import Foundation
import Layout

/// One entry of a document's operation log. Every entry can be printed as a REPL command
/// (`log export`): `newDocument` → `new NAME AXIS viewport W H`, `importDocument` → `import`
/// (the rows: `StoredDocument.importedDocument(at:)`), `op`/`view` → the command of `edit`,
/// `undo`/`redo` → `undo N`/`redo N`, `begin` → `begin LABEL`, `commit` → `commit`.
public struct LogEntry: Hashable, Sendable {
    /// What an entry records; the raw value is the `log.kind` column.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// `new`: the document was created with `settings`.
        case newDocument = "new"
        /// `import`: the document was imported (its rows: `StoredDocument.importedDocument(at:)`).
        case importDocument = "import"
        /// An undoable operation (`edit` is set).
        case op
        /// A view-state operation (`scroll`, `viewport`): logged and replayed, not an undo step.
        case view
        /// `undo N` (`count`).
        case undo
        /// `redo N` (`count`).
        case redo
        /// `begin [LABEL]`: opens a group (`label`).
        case begin
        /// `commit`: closes the open group as one undo step — or (`rollsBack`) abandons it.
        case commit
        /// A named point of the history (`mark NAME`): `label` is the name; not an undo step.
        case mark
        /// `restore REF`: one undo step that makes the document equal to an earlier point
        /// (`target`), keeping the view.
        case restore
    }

    /// Position in the log, 1-based.
    public var seq: Int
    /// What the entry records.
    public var kind: Kind
    /// The edit of an `op` or `view` entry.
    public var edit: Edit?
    /// The settings the document started with (`newDocument`, `importDocument`).
    public var settings: DocumentSettings?
    /// N of `undo N` / `redo N`.
    public var count: Int?
    /// Label of a `begin` (and of the `commit` that closes it).
    public var label: String?
    /// seq of the `begin` of the group the entry belongs to.
    public var group: Int?
    /// The primitive changes this entry applied, and the changes that revert them. For an
    /// `undo`/`redo` entry that refers to the steps it moved (`moved`), only those
    /// that are not row changes (the settings as applied, the offset clamp): its row changes are
    /// the moved steps' own.
    public var changes: [Change]
    /// The changes that revert `changes`, in the order to apply them.
    public var inverse: [Change]
    /// When the entry was committed.
    public var time: Date
    /// Who wrote the entry (`--as NAME`, else the user name); nil for entries older than schema 6.
    public var origin: String? = nil
    /// A `restore` entry's target: the log entry whose state it restored (nil for a
    /// compensating step, `reverts`).
    public var target: Int? = nil
    /// A compensating step (a `restore` entry of per-person undo or redo, SPEC §3): the steps
    /// of its origin it reverts or re-applies.
    public var reverts: StepRevert? = nil
    /// A `mark` entry: the undo cursor when it was made, and the first log entry of step
    /// `markCursor` (0 when the cursor was 0), which tells whether that step still exists.
    public var markCursor: Int? = nil
    /// A `mark` entry: the first log entry of step `markCursor` (0 when the cursor was 0).
    public var markStep: Int? = nil
    /// An `undo`/`redo` entry's log entries (first…last) of each undo step it moved, in the
    /// order it moved them (nil only for an entry of format 1, which copied the changes and
    /// which migration 0020 rewrites).
    public var moved: [ClosedRange<Int>]? = nil
    /// A `commit` entry that rolls its group back (a `rollback` after another origin wrote,
    /// SPEC §3): `changes` revert the group's operations; no step is made.
    public var rollsBack = false
}

/// What a compensating step does (per-person undo and redo, SPEC §3): it reverts (`undo`) or
/// re-applies the steps of its origin made of the log entries `steps`, planned on the document
/// as it was then.
public struct StepRevert: Hashable, Sendable {
    /// True for an undo (the steps' changes reverted), false for a redo (re-applied).
    public var undo: Bool
    /// The log entries (first…last) of each step it reverts or re-applies.
    public var steps: [ClosedRange<Int>]

    /// A compensating undo (`undo` true) or redo of the steps of log entries `steps`.
    public init(undo: Bool, steps: [ClosedRange<Int>]) {
        self.undo = undo
        self.steps = steps
    }
}

/// A named point of a document's history (`mark NAME`).
public struct HistoryMark: Hashable, Sendable {
    /// The mark's name (unique per document).
    public var name: String
    /// The log entry of the mark: the document "at the mark" is the one right after it.
    public var seq: Int
    /// Undo steps applied when the mark was made.
    public var cursor: Int
    /// True while `undo to` / `redo to` can reach it: the steps it stood on are still the
    /// history's steps (no new operation after an undo past it discarded them).
    public var reachable: Bool
    /// When the mark was made.
    public var time: Date
    /// Who made it (`--as NAME`, else user and process id; nil in older logs).
    public var origin: String?
}

/// One undo step of the history (`history`).
public struct HistoryStep: Hashable, Sendable {
    /// 1-based position in the history.
    public var number: Int
    /// The group's label (`begin LABEL`), nil for a single operation or an unlabelled group.
    public var label: String?
    /// The operations of the step, in order.
    public var edits: [Edit]
    /// True when the step is applied (at or before the cursor); false in the redo tail.
    public var applied: Bool
    /// Log entries of the step.
    public var firstSeq: Int
    /// The last log entry of the step (`firstSeq` is the first).
    public var lastSeq: Int
    /// Who made the step (the origin of its first log entry; nil before schema 6).
    public var origin: String? = nil
    /// For a `restore` step: the log entry whose state it restored.
    public var restoredFrom: Int? = nil
    /// For a compensating step (per-person undo or redo): the steps it reverts or re-applies.
    public var reverts: StepRevert? = nil
    /// For an applied step that a later compensating undo of its origin reverted (and no
    /// compensating redo re-applied since): that step's number.
    public var revertedBy: Int? = nil
}

/// What `undo` / `redo` did.
public struct HistoryMove: Hashable, Sendable {
    /// The steps undone or redone, in the order they were processed.
    public var steps: [HistoryStep]
    /// The primitive changes applied to the document, in order.
    public var changes: [Change]
    /// The new step that did it when others wrote since (a compensating step, SPEC §3); nil
    /// when the cursor moved.
    public var compensatingStep: HistoryStep? = nil
}

/// `status`: the document's counters.
public struct DocumentStatus: Hashable, Sendable {
    /// The document's name.
    public var name: String
    /// Bumped by every write; a handle whose version is behind the stored one is stale.
    public var version: Int
    /// The version stored in the database (differs from `version` when another process wrote).
    public var storedVersion: Int
    /// Its number of rows at every depth.
    public var rowCount: Int
    /// The number of entries of its operation log.
    public var logEntries: Int
    /// Undo steps recorded; steps `1...cursor` are applied.
    public var steps: Int
    /// Undo steps applied (steps `1...cursor`).
    public var cursor: Int
    /// Steps that `undo` / `redo` can process now.
    public var canUndo: Int
    /// Steps that `redo` can process now.
    public var canRedo: Int
    /// Label of the open `begin … commit` group; `groupOpen` tells whether one is open.
    public var groupOpen: Bool
    /// The open group's label (nil when none is open or it has no label).
    public var groupLabel: String?
    /// The database's schema version (the last migration applied).
    public var schemaVersion: Int
}
