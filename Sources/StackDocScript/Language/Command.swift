import Layout

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
    // Session
    case help(topic: String?)
    case quit
    /// A command of the shell itself (`read`, `output`, `once`, `timer`): the runner of a
    /// script or of the prompt carries it out; `Session.run` returns it as `.shell`.
    case shell(ShellCommand)
}

/// The commands that act on the shell running the commands rather than on the database.
public enum ShellCommand: Hashable, Sendable {
    /// `read PATH`: run the file's commands as if typed (a relative PATH is resolved against
    /// the directory of the file that reads it).
    case read(path: String)
    /// `output PATH` sends every later command's output to PATH (replaced); `output` alone
    /// sends it back to standard output.
    case output(path: String?)
    /// `once PATH`: the next command's output only goes to PATH.
    case once(path: String)
    /// `timer on|off`: print each command's wall time after its output.
    case timer(Bool)
}
