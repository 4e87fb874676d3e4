import Layout
import Store

/// What one command produced, as plain data: no text, no JSON. `CommandResult+Text.swift` and
/// `CommandResult+JSON.swift` turn it into output; the runner asks only for the active mode's.
public enum CommandResult {
    /// `new`, `open`, `import`: the document now open.
    case opened(OpenedDocument)
    /// `close`: the document closed.
    case closed(name: String)
    /// `docs`: every document of the database.
    case documents([DocumentSummary])
    /// `drop NAME`: the document deleted.
    case dropped(name: String)
    /// `export` without a path: the document itself.
    case document(Document)
    /// `export PATH`, `export svg PATH`.
    case wrote(path: String)
    /// `log export PATH`: how many commands the script holds.
    case wroteLog(path: String, commands: Int)
    /// `import begin NAME`: a block building the document NAME has begun.
    case importBegun(name: String)
    /// An edit inside an `import begin` block: applied to the document NAME in memory, which
    /// now has `rows` rows.
    case importPending(name: String, operation: String, rows: Int)
    /// `import rollback`: the block's document (of `rows` rows) was dropped.
    case importRolledBack(name: String, rows: Int)
    /// An operation: its canonical text, what became of it, and what it changed.
    case edited(operation: String, outcome: EditOutcome, report: ChangeReport)
    /// `layout`: the rows asked for (nil: every row of `layout`).
    case layout(DocumentLayout, rows: [RowLayout]?)
    /// `layout` with no range or `--visible`: every row, for the renderers to read and write a
    /// block at a time.
    case wholeLayout(LayoutListing)
    /// `visible`: the rows the viewport shows, in document order, and where sticky positioning
    /// shows those it moves (SPEC §2.7; empty without sticky rows).
    case visible([RowLayout], shown: [RowID: StuckRow] = [:])
    /// `rows`: every row in document order with its configuration, for the renderers to read and
    /// write a block at a time.
    case rows(RowListing)
    /// `row ROW`: one row's configuration, inherited defaults and layout.
    case row(RowDetail)
    /// `find type T`: the rows of that type, in document order.
    case rowsOfType(type: String, ids: [RowID])
    /// `hit X Y`: the row at the point (nil: none).
    case hit(x: Double, y: Double, row: RowID?)
    /// `history`: the steps, the open group (its label, if any) and the marks.
    case history([HistoryStep], openGroup: GroupInfo?, marks: [HistoryMark])
    /// `mark NAME`: the new mark; `mark`: every mark.
    case marked(HistoryMark)
    /// `mark`: every mark of the document, oldest first.
    case marks([HistoryMark])
    /// `as NAME` / `as none`: the origin the session's log entries record from now on (nil: none).
    case writingAs(origin: String?)
    /// `diff REF [REF]`.
    case diff(HistoryDiff)
    /// `restore REF`: what it restored and changed.
    case restored(RestoreResult, report: ChangeReport)
    /// `history compact [before REF]`: what was dropped.
    case compacted(CompactionResult)
    /// `status`: the document's counters and view.
    case status(StatusInfo)
    /// `draw`: the viewport as text lines (a caption, then the picture).
    case drawing(lines: [String])
    /// `undo`/`redo`: the steps undone or redone, the compensating step that did it when others
    /// wrote since (nil: the cursor moved), and what they changed.
    case historyMove(HistoryVerb, steps: [HistoryStep], compensating: HistoryStep?, report: ChangeReport)
    /// `begin [LABEL]`: a group opened.
    case begun(label: String?)
    /// `commit`: the new step, or nil when the group changed nothing.
    case committed(HistoryStep?)
    /// `rollback`: the open group's operations taken back, and what that changed.
    case rolledBack(ChangeReport)
    /// `verify`: the log replays to the stored document.
    case verified
    /// `verify --rebuild-snapshots`: the snapshots written again and deleted.
    case snapshotsRebuilt(SnapshotRepair)
    /// `help [TOPIC]`: the help text.
    case help(text: String)
    /// `quit`: the session should end.
    case quit
    /// `status` with no document open: the database and how many documents it holds.
    case databaseStatus(database: String, documents: Int)
    /// A table query's result printed as CSV in text mode (`--csv`).
    indirect case csv(CommandResult)
    /// A shell command (`read`, `output`, `once`, `timer`), for the runner to carry out.
    case shell(ShellCommand)
    /// `echo TEXT`: the text, printed as it is.
    case echo(String)
    /// `watch [SECONDS]`: how it ended, and the changes it saw when nobody took them as they came.
    case watched(WatchResult)

    /// True for what a query asked for (a table, a document, a picture, help); false for a
    /// report of what a command did (`opened …`, a change summary, `ok`), which `stackdoc -q`
    /// and `--csv` leave off standard output.
    public var isData: Bool {
        switch self {
        case .documents, .document, .layout, .wholeLayout, .visible, .rows, .row, .rowsOfType, .hit, .history, .marks,
             .diff, .status, .drawing, .help, .databaseStatus, .csv, .echo:
            return true
        case .opened, .closed, .dropped, .wrote, .wroteLog, .importBegun, .importPending, .importRolledBack, .edited,
             .marked, .writingAs, .restored, .compacted, .historyMove, .begun, .committed, .rolledBack, .verified, .snapshotsRebuilt, .quit, .shell, .watched:
            return false
        }
    }

    /// The visibility transitions the command caused (SPEC §4.2 `events`).
    public var events: [VisibilityTransition] {
        switch self {
        case .edited(_, _, let report), .historyMove(_, _, _, let report), .rolledBack(let report), .restored(_, let report): return report.transitions
        default: return []
        }
    }

    /// The sticky rows that became stuck or unstuck (SPEC §2.7 `events`).
    public var stuckEvents: [StuckTransition] {
        switch self {
        case .edited(_, _, let report), .historyMove(_, _, _, let report), .rolledBack(let report): return report.stuck
        default: return []
        }
    }

    /// True when the session should end.
    public var quits: Bool {
        if case .quit = self { return true }
        return false
    }
}

/// A document as `new`/`open`/`import` report it.
public struct OpenedDocument {
    /// How the document came to be open: `new`, `open` or `import`.
    public enum Verb: String {
        /// By `new`, `open` or `import`.
        case created, opened, imported
    }
    /// The command that opened it.
    public var verb: Verb
    /// The document's name.
    public var name: String
    /// Its number of rows at every depth.
    public var rows: Int
    /// Its axis.
    public var axis: Axis
    /// Its viewport.
    public var viewport: Size
    /// Its content size.
    public var contentSize: Size
}

/// What became of one operation.
public enum EditOutcome: Equatable {
    /// A new undo step.
    case step(Int)
    /// Inside `begin … commit`: pending in the group (its label).
    case pending(group: String?)
    /// `scroll`/`viewport`: logged, not undoable.
    case view
    /// The operation changed nothing.
    case noChange
}

/// What `undo` and `redo` did to their steps.
public enum HistoryVerb: String {
    /// By `undo` or `redo`.
    case undone, redone
}

/// The open `begin … commit` group.
public struct GroupInfo: Equatable {
    /// The group's label (nil when it has none).
    public var label: String?
}

/// One row of `rows`: where it sits and its configuration.
public struct RowEntry {
    /// The row's id.
    public var id: RowID
    /// Its stack row (nil: the root stack).
    public var parent: RowID?
    /// Its 0-based index in its stack.
    public var index: Int
    /// Nesting depth (0 for a root row).
    public var depth: Int
    /// Its configuration.
    public var config: RowConfig
    /// The stack whose default insets (`rowInsets`) it takes when it sets none: its nearest
    /// enclosing stack that sets one (nil: the document's default).
    public var insetsFrom: RowID? = nil
    /// The nearest enclosing stack that sets separator overrides for its rows (`rowSeparator`):
    /// the row's own overrides lie over that stack's, over its enclosing ones' (nil: none).
    public var separatorFrom: RowID? = nil
}

/// `row ROW`: the row's configuration, the defaults it inherits, and its layout.
public struct RowDetail {
    /// The row, where it sits and its configuration.
    public var entry: RowEntry
    /// The document's live defaults (what the row inherits where it overrides nothing).
    public var defaults: DocumentDefaults
    /// The number of rows of a stack row.
    public var childCount: Int
    /// Its layout (nil when the layout has no row for it).
    public var layout: RowLayout?
    /// Where sticky positioning shows it at the offset, when away from its frame (SPEC §2.7).
    public var displacement: StuckRow? = nil
    /// The default insets of `entry.insetsFrom` (the stack whose default it takes), if any.
    public var stackInsets: Edges? = nil
    /// The separator the row's own overrides lie over when `entry.separatorFrom` is set: the
    /// document's with every enclosing stack's `rowSeparator` laid over it, outermost first.
    public var stackSeparator: SeparatorStyle? = nil
}

/// `status`.
public struct StatusInfo {
    /// The database's path (`:memory:` for none).
    public var database: String
    /// The document's counters (steps, cursor, log, open group).
    public var document: DocumentStatus
    /// The document's axis.
    public var axis: Axis
    /// Its viewport.
    public var viewport: Size
    /// Its offset (clamped).
    public var offset: Double
    /// Its content size.
    public var contentSize: Size
    /// The viewport's insets and the keyboard's height (0 = off).
    public var viewportInsets: Edges = .zero
    /// The keyboard's height, 0 when it is off.
    public var keyboard: Double = 0
    /// The viewport's safe area (zero: none).
    public var safeArea: Edges = .zero
    /// The shown stacks that scroll on their own, with their (clamped) offsets (SPEC §2.8).
    public var nestedScrolls: [NestedScroll] = []
}
