import Layout

/// What `layout` prints (issue 5: a 1M-row document prints only what is asked).
public struct LayoutSelection: Hashable, Sendable {
    /// Only rows the viewport shows (`entire` or `partial`).
    public var visibleOnly: Bool = false
    /// Only rows whose document-order position (0-based, counting every row at every depth)
    /// lies in this range.
    public var range: ClosedRange<Int>? = nil

    /// A selection; the defaults select every row.
    public init(visibleOnly: Bool = false, range: ClosedRange<Int>? = nil) {
        self.visibleOnly = visibleOnly
        self.range = range
    }
}

/// One line of the command language (SPEC §4.1) as data.
public enum Command: Hashable, Sendable {
    // Documents
    /// `new NAME [AXIS] [viewport W H]`: create a document and open it.
    case new(name: String, axis: Axis?, viewport: Size?)
    /// `open NAME`.
    case open(name: String)
    /// `close`: close the open document.
    case close
    /// `docs`: list the documents.
    case docs
    /// `drop NAME`: delete a document.
    case drop(name: String)
    /// `import PATH [as NAME]`: a saved document (SPEC §5) as a new document.
    case importDocument(path: String, name: String?)
    /// `export [PATH]`: the open document as `stackdoc/1` JSON (nil: printed).
    case export(path: String?)
    // Changes of the open document (one operation each)
    /// An operation on the open document (`add`, `hide`, `scroll`, …).
    case edit(Edit)
    // Queries
    /// `layout [--visible] [--range A..B]`.
    case layout(LayoutSelection)
    /// `visible`: the rows the viewport shows.
    case visible
    /// `rows`: every row with its configuration.
    case rows
    /// `row ROW`: one row in detail.
    case row(RowID)
    /// `find type T`.
    case findType(String)
    /// `hit X Y`: the row at a point.
    case hit(x: Double, y: Double)
    /// `history`: the undo steps.
    case history
    /// `status`.
    case status
    /// `draw`: the viewport as text.
    case draw
    /// `export svg PATH`: a picture of the layout.
    case exportSVG(path: String)
    // History
    /// `undo [N]`.
    case undo(Int)
    /// `redo [N]`.
    case redo(Int)
    /// `begin [LABEL]`: the next operations make one undo step.
    case begin(label: String?)
    /// `commit`: close the group.
    case commit
    /// `rollback`: take back the group's operations.
    case rollback
    /// `verify`: replay the log and compare it with the stored document.
    case verify
    /// `log export PATH`: the log as a script.
    case logExport(path: String)
    // Session
    /// `help [TOPIC]`.
    case help(topic: String?)
    /// `quit`.
    case quit
}
