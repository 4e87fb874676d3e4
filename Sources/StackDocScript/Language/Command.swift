import Layout
import Store

/// What `layout` prints (issue 5: a 1M-row document prints only what is asked).
public struct LayoutSelection: Hashable, Sendable {
    /// Only rows the viewport shows (`entire` or `partial`).
    public var visibleOnly: Bool = false
    /// Only rows whose document-order position (0-based, counting every row at every depth)
    /// lies in this range.
    public var range: ClosedRange<Int>? = nil
}

/// One line of the command language (SPEC §4.1) as data.
public enum Command: Hashable, Sendable {
    // Documents
    case new(name: String, axis: Axis?, viewport: Size?)
    case open(name: String)
    case close
    case docs
    case drop(name: String)
    case importDocument(path: String, name: String?)
    case export(path: String?)
    // Changes of the open document (one operation each)
    case edit(Edit)
    // Queries
    case layout(LayoutSelection)
    case visible
    case rows
    case row(RowID)
    case findType(String)
    case hit(x: Double, y: Double)
    case history
    case status
    case draw
    case exportSVG(path: String)
    // History
    case undo(Int)
    case redo(Int)
    case begin(label: String?)
    case commit
    case rollback
    case verify
    case logExport(path: String)
    /// `mark NAME` (nil: list the marks).
    case mark(String?)
    /// `undo to NAME` / `redo to NAME`.
    case undoTo(mark: String)
    case redoTo(mark: String)
    /// `undo --mine [N]`: the last N steps of this session's origin.
    case undoMine(Int)
    /// `diff REF [REF]` (the second: now when nil).
    case diff(HistoryRef, HistoryRef?)
    /// `restore REF`.
    case restore(HistoryRef)
    /// A query (`layout`, `export`, `draw`, `rows`) answered on the document as it was at REF
    /// (`--at REF`); nothing changes.
    indirect case at(Command, HistoryRef)
    // Session
    case help(topic: String?)
    case quit
}
