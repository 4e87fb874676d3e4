import Layout
import Store

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
    /// `new NAME [AXIS] [viewport W H [insets T L B R] [safe-area T L B R]]`: create a document
    /// and open it (the insets are the viewport's obscured edges and the safe area its safe area,
    /// as `viewport W H insets …` and `viewport W H safe-area …` set them).
    case new(name: String, axis: Axis?, viewport: Size?, insets: Edges? = nil, safeArea: Edges? = nil)
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
    /// `import begin NAME [AXIS] [viewport W H]`: starts building a document in memory from the
    /// lines that follow (edits only), stored by `import commit` as one import (`log export`
    /// writes an imported document so).
    case importBegin(name: String, axis: Axis?, viewport: Size?)
    /// `import commit`: stores the document an `import begin` block built, as `import` stores a
    /// file (one transaction, one `import` log entry), and opens it.
    case importCommit
    /// `import rollback`: drops the document an `import begin` block built; nothing is stored.
    case importRollback
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
    /// `history N`: the last N undo steps (N ≥ 1), with the marks and the open group.
    case historyLast(Int)
    /// `status`.
    case status
    /// `draw [--width N | --scale S]`: the viewport as text.
    case draw(DrawScale)
    /// `export svg PATH [--viewport]`: a picture of the layout (of what the viewport shows,
    /// at screen scale, with `viewport`).
    case exportSVG(path: String, viewport: Bool)
    // History
    /// `undo [N]`: the last N steps of the session's origin (SPEC §3, per-person undo).
    case undo(Int)
    /// `redo [N]`: the last N undone steps of the session's origin.
    case redo(Int)
    /// `undo --all [N]`: the document's last N steps, whoever made them (the cursor moves).
    case undoAll(Int)
    /// `redo --all [N]`: the document's next N undone steps, whoever made them.
    case redoAll(Int)
    /// `begin [LABEL]`: the next operations make one undo step.
    case begin(label: String?)
    /// `commit`: close the group.
    case commit
    /// `rollback`: take back the group's operations.
    case rollback
    /// `verify`: replay the log and compare it with the stored document.
    case verify
    /// `verify --rebuild-snapshots`: write the damaged snapshots again from the log.
    case rebuildSnapshots
    /// `log export PATH`: the log as a script.
    case logExport(path: String)
    /// `mark NAME` (nil: list the marks).
    case mark(String?)
    /// `undo to NAME` / `redo to NAME`.
    case undoTo(mark: String)
    /// `redo to NAME`.
    case redoTo(mark: String)
    /// `undo --mine [N]`: the last N steps of this session's origin.
    case undoMine(Int)
    /// `as NAME`: the log entries written after it record NAME as their origin (as `--as NAME`
    /// does from the start); `as none` (nil): they record none, as entries from before schema 6.
    /// `log export` writes it wherever the origin changes.
    case writeAs(origin: String?)
    /// `diff REF [REF]` (the second: now when nil).
    case diff(HistoryRef, HistoryRef?)
    /// `restore REF`.
    case restore(HistoryRef)
    /// `history compact [before REF]`: drop the log entries before REF's entry (nil: all).
    case compactHistory(HistoryRef?)
    /// A query (`layout`, `export`, `draw`, `rows`) answered on the document as it was at REF
    /// (`--at REF`); nothing changes.
    indirect case at(Command, HistoryRef)
    /// `watch [SECONDS]`: print each change another session commits to the open document as it
    /// arrives, until SECONDS pass (nil: until Ctrl-C).
    case watch(seconds: Double?)
    // Session
    /// `help [TOPIC]`.
    case help(topic: String?)
    /// `quit`.
    case quit
    /// `echo TEXT`: prints TEXT (the words after `echo`, joined by single spaces).
    case echo(String)
    /// A command of the shell itself (`read`, `output`, `once`, `timer`): the runner of a
    /// script or of the prompt carries it out; `Session.run` returns it as `.shell`.
    case shell(ShellCommand)
    /// `layout … --csv`, `visible --csv`, `rows --csv`: the query's table as CSV (RFC 4180) in
    /// text mode; its JSON result is the query's own.
    indirect case csv(Command)
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

/// How many points a cell of `draw` covers.
public enum DrawScale: Hashable, Sendable {
    /// The default: the smallest whole number of points per column, at least 10, that fits the
    /// viewport in 80 columns and 200 lines.
    case fit
    /// `--width N`: the viewport is N columns across.
    case width(Int)
    /// `--scale S`: one column is S points across.
    case points(Double)
}

extension Command {
    /// The command as `stackdoc --csv` runs it: a table query (`layout`, `visible`, `rows`, with
    /// or without `--at REF`) as its CSV form; nil for every other command.
    public var csvForm: Command? {
        switch self {
        case .layout, .visible, .rows: return .csv(self)
        case .csv: return self
        case let .at(query, ref): return query.csvForm.map { .at($0, ref) }
        default: return nil
        }
    }
}
