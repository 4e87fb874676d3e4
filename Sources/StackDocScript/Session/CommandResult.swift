import Layout
import Store

/// What one command produced, as plain data: no text, no JSON. `CommandResult+Text.swift` and
/// `CommandResult+JSON.swift` turn it into output; the runner asks only for the active mode's.
public enum CommandResult {
    /// `new`, `open`, `import`: the document now open.
    case opened(OpenedDocument)
    case closed(name: String)
    case documents([DocumentSummary])
    case dropped(name: String)
    /// `export` without a path: the document itself.
    case document(Document)
    /// `export PATH`, `export svg PATH`.
    case wrote(path: String)
    /// `log export PATH`: how many commands the script holds.
    case wroteLog(path: String, commands: Int)
    /// An operation: its canonical text, what became of it, and what it changed.
    case edited(operation: String, outcome: EditOutcome, report: ChangeReport)
    /// `layout`: the rows asked for (nil: every row of `layout`).
    case layout(DocumentLayout, rows: [RowLayout]?)
    case visible([RowLayout])
    case rows([RowEntry])
    case row(RowDetail)
    case rowsOfType(type: String, ids: [RowID])
    case hit(x: Double, y: Double, row: RowID?)
    /// `history`: the steps, the open group (its label, if any) and the marks.
    case history([HistoryStep], openGroup: GroupInfo?, marks: [HistoryMark])
    /// `mark NAME`: the new mark; `mark`: every mark.
    case marked(HistoryMark)
    case marks([HistoryMark])
    /// `diff REF [REF]`.
    case diff(HistoryDiff)
    /// `restore REF`: what it restored and changed.
    case restored(RestoreResult, report: ChangeReport)
    case status(StatusInfo)
    case drawing(lines: [String])
    case historyMove(HistoryVerb, steps: [HistoryStep], report: ChangeReport)
    case begun(label: String?)
    /// `commit`: the new step, or nil when the group changed nothing.
    case committed(HistoryStep?)
    case rolledBack(ChangeReport)
    case verified
    case help(text: String)
    case quit

    /// The visibility transitions the command caused (SPEC §4.2 `events`).
    public var events: [VisibilityTransition] {
        switch self {
        case .edited(_, _, let report), .historyMove(_, _, let report), .rolledBack(let report), .restored(_, let report): return report.transitions
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
    public enum Verb: String { case created, opened, imported }
    public var verb: Verb
    public var name: String
    public var rows: Int
    public var axis: Axis
    public var viewport: Size
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

public enum HistoryVerb: String { case undone, redone }

/// The open `begin … commit` group.
public struct GroupInfo: Equatable {
    public var label: String?
}

/// One row of `rows`: where it sits and its configuration.
public struct RowEntry {
    public var id: RowID
    public var parent: RowID?
    public var index: Int
    /// Nesting depth (0 for a root row).
    public var depth: Int
    public var config: RowConfig
}

/// `row ROW`: the row's configuration, the defaults it inherits, and its layout.
public struct RowDetail {
    public var entry: RowEntry
    public var defaults: DocumentDefaults
    /// The number of rows of a stack row.
    public var childCount: Int
    /// Its layout (nil when the layout has no row for it).
    public var layout: RowLayout?
}

/// `status`.
public struct StatusInfo {
    public var database: String
    public var document: DocumentStatus
    public var axis: Axis
    public var viewport: Size
    public var offset: Double
    public var contentSize: Size
}
