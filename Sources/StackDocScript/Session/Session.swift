import Foundation
import Layout
import StackDocRuntime
import Store

/// Runs commands against a database: the open document and its live layout. Each command
/// returns its result as data (`CommandResult`); it never formats output. Logic lives in
/// Layout and Store; this is glue.
public final class Session {
    /// The database the session works on.
    public let store: DocumentStore
    /// The open document. It keeps everything derived from it (its live layout, kept up to
    /// date by the changes of every command, and the whole layout for the commands that need
    /// every row), so a reload rebuilds them all.
    public var current: StoredDocument? {
        didSet { if current !== oldValue { caughtUp = [] } }  // another document's changes are not announced
    }

    /// Relative paths of commands are resolved against this directory (nil: the current one).
    public let directory: String?

    /// Who this session writes as: the origin every log entry it appends records (`--as NAME`,
    /// else the user name; changed by the `as` command). Nil after `as none`: no origin is recorded.
    public private(set) var origin: String?

    /// While a query runs `--at REF`: the document as it was then and its layout (made on
    /// first use: `export --at` needs none).
    var past: PastDocument?

    /// The document an open `import begin` block is building (Session+ImportBlock).
    var importing: PendingImport?

    /// The settings of a new document (`new`, `import begin`): the defaults with `axis` and
    /// `viewport` when given, the viewport checked as its edit checks it.
    static func newSettings(_ name: String, _ axis: Axis?, _ viewport: Size?, insets: Edges? = nil,
                            safeArea: Edges? = nil) throws -> DocumentSettings {
        var settings = DocumentSettings()
        if let axis { settings.axis = axis }
        if let viewport {
            settings.viewport = viewport
            _ = try Document(name: name).plan(.viewport(viewport))  // the edit's validation
        }
        if let insets {
            _ = try Document(name: name, settings: settings).plan(.obscured(.insets(viewport: nil, insets: insets)))
            settings.viewportInsets = insets
        }
        if let safeArea {
            _ = try Document(name: name, settings: settings).plan(.obscured(.safeArea(viewport: nil, safeArea: safeArea)))
            settings.safeArea = safeArea
        }
        return settings
    }

    /// A session on `store` with no document open; relative paths of commands are resolved against
    /// `directory` (nil: the current directory); its changes are recorded as made by `origin`
    /// (nil: `StoredDocument.defaultOrigin`, the user name).
    public init(store: DocumentStore, directory: String? = nil, origin: String? = nil) {
        self.store = store
        self.directory = directory
        self.origin = origin ?? StoredDocument.defaultOrigin
    }

    /// Changes other sessions committed that a command caught up with but nobody was shown yet
    /// (the newest `Session.caughtUpLimit`, without layout reports): the prompt's next
    /// announcement and the next `watch` start with them.
    var caughtUp: [RemoteChange] = []

    /// Where `watch` hands each remote change as it arrives (the runner renders and prints it at
    /// once); nil: the changes are kept in the command's result (`WatchResult.changes`).
    public var remoteChangeHandler: ((RemoteChange) -> Void)?

    /// Where the last change's time went (`[("store and layout", seconds)]`), for `timer`;
    /// empty after a command that changed nothing.
    public var lastTimings: [(phase: String, seconds: Double)] = []

    /// `path` as the file system should see it: `~` and `~/…` are the home directory; a
    /// relative path is resolved against `directory`.
    public func resolve(_ path: String) -> String {
        let path = Session.expandingTilde(path)
        guard let directory, !path.hasPrefix("/") else { return path }
        return directory + "/" + path
    }

    /// `~` and `~/…` with `$HOME` in place of `~` (other paths as they are).
    public static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"),
              let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    /// Runs one command and returns what it produced, as data (`CommandResult`; the renderers
    /// in `Render/` turn it into text or JSON). Throws a `StackDocError` (nothing changed) when
    /// it fails. A query first catches up with another process's writes (Session+Staleness); a
    /// stale edit is planned again on the newest version or refused as a conflict
    /// (StoredDocument+Replan); when another command fails because another process changed the
    /// open document, the document is reloaded so that running the command again works (or
    /// closed, when it was dropped), and the error says so (`CommandError.Kind.recovered`).
    /// - Parameter command: A parsed command (`Parser.parse`, or built in code).
    /// - Returns: What the command produced.
    /// - Throws: `StackDocError` when the command fails; nothing changed.
    public func run(_ command: Command) throws -> CommandResult {
        if let result = try runImportBlock(command) { return result }
        if command.readsOpenDocument, current != nil {
            // A query catches up and answers inside one read transaction: from one state,
            // whatever another process commits meanwhile (Session+Staleness).
            return try store.readingOneState {
                try refreshBeforeQuery(command)
                return try execute(command)
            }
        }
        do {
            return try execute(command)
        } catch {
            guard let recovery = recoverFromStale(after: error) else { throw error }
            throw CommandError(.recovered(ErrorReport(error), recovery))
        }
    }

    private func execute(_ command: Command) throws -> CommandResult {
        switch command {
        case let .new(name, axis, viewport, insets, safeArea):
            let doc = try closingOnFailure {
                try store.create(name, settings: try Self.newSettings(name, axis, viewport, insets: insets, safeArea: safeArea))
            }
            return opened(doc, verb: .created)
        case .open(let name):
            let t0 = Timing.now()
            let doc = try closingOnFailure { try store.open(name) }
            let t1 = Timing.now()
            let result = opened(doc, verb: .opened)
            Timing.report(["load": t1 - t0, "layout": Timing.now() - t1])
            return result
        case .close:
            guard let doc = current else { throw StackDocError(.nothingToClose) }
            current = nil
            return .closed(name: doc.name)
        case .docs:
            return .documents(try store.documents())
        case .drop(let name):
            try store.drop(name)
            if current?.name == name { current = nil }
            return .dropped(name: name)
        case .importBegin, .importCommit, .importRollback:
            throw StackDocError("internal error: the import block did not take '\(Printer.text(command))'")
        case let .importDocument(path, name):
            let t0 = Timing.now()
            let file = FileBytes(try FileIO.readText(resolve(path), shown: path))
            let t1 = Timing.now()
            // The rows are stored while the file is parsed (`importDocument(reading:)`); its
            // bytes are freed once parsed, before the image is made.
            let stored = try store.importDocument { rows in
                try DocumentFormat.decode(file.take(), path: path, name: name, rows: rows)
            }
            let t2 = Timing.now()
            let result = opened(stored, verb: .imported)
            Timing.report(["read": t1 - t0, "parse and store": t2 - t1, "layout": Timing.now() - t2])
            return result
        case .export(let path):
            let document = try viewedDocument()
            guard let path else { return .document(document) }
            let t0 = Timing.now()
            // The pretty text with its final newline, written in pieces as it is made.
            let cancellation = store.cancellation
            try FileIO.writePieces(to: resolve(path), shown: path, sparing: store) { sink in
                try document.exportJSONPieces(pretty: true) { piece in
                    try cancellation.check()
                    try sink(piece)
                }
            }
            Timing.report(["export": Timing.now() - t0])
            return .wrote(path: path)
        case .edit(let edit):
            return try perform(edit)
        case .layout(let selection):
            return try layout(selection)
        case .visible:
            let live = try liveLayout()
            let rows = live.visibleRows()
            var shown: [RowID: StuckRow] = [:]
            for row in rows { if let d = live.displacement(of: row.id) { shown[row.id] = d } }
            return .visible(rows, shown: shown)
        case .rows:
            // Every row, read from the document a block at a time by the renderer.
            return .rows(RowListing(try viewedDocument()))
        case .row(let id):
            return .row(try row(id))
        case .findType(let type):
            return .rowsOfType(type: type, ids: try open().document.rows(ofType: type))
        case let .hit(x, y):
            return .hit(x: x, y: y, row: try liveLayout().hitTest(x: x, y: y))
        case .history:
            let doc = try open()
            return .history(try doc.history(), openGroup: doc.openGroup.map { GroupInfo(label: $0.label) }, marks: try doc.marks())
        case .historyLast(let n):
            let doc = try open()
            return .history(Array(try doc.history().suffix(n)), openGroup: doc.openGroup.map { GroupInfo(label: $0.label) }, marks: try doc.marks())
        case .watch(let seconds):
            return try watch(seconds: seconds)
        case .status:
            // No document open: the database and how many documents it holds.
            guard current != nil else { return .databaseStatus(database: store.path, documents: try store.documentNames().count) }
            return .status(try status())
        case .draw(let scale):
            return .drawing(lines: try drawing(scale))
        case let .exportSVG(path, viewport):
            // Written as it is made, the rows read from the live layout a block at a time.
            let listing = LayoutListing(try liveLayout())
            let document = try viewedDocument()
            let cancellation = store.cancellation
            try FileIO.write(to: resolve(path), shown: path, sparing: store) { sink in
                try SVGPicture.write(listing, document: document, viewportOnly: viewport) { text in
                    try cancellation.check()
                    try sink(Array(text.utf8))
                }
            }
            return .wrote(path: path)
        case .undo(let n):
            let doc = try open()
            return try historyMove(.undone, steps: { try doc.undoOwn(n) })
        case .redo(let n):
            let doc = try open()
            return try historyMove(.redone, steps: { try doc.redoOwn(n) })
        case .undoAll(let n):
            let doc = try open()
            return try historyMove(.undone, steps: { try doc.undo(n) })
        case .redoAll(let n):
            let doc = try open()
            return try historyMove(.redone, steps: { try doc.redo(n) })
        case .begin(let label):
            try open().begin(label)
            return .begun(label: label)
        case .commit:
            return .committed(try open().commit())
        case .rollback:
            let doc = try open()
            let (_, report) = try measure { try doc.rollback() }
            return .rolledBack(report)
        case .verify:
            try VerifyMessage.check(try open().verifyReport(replan: true))
            return .verified
        case .rebuildSnapshots:
            return .snapshotsRebuilt(try open().rebuildSnapshots())
        case .logExport(let path):
            let doc = try open()
            let lines = try LogScript.lines(doc, cancellation: store.cancellation)
            try FileIO.write(lines.joined(separator: "\n") + "\n", to: resolve(path), shown: path, sparing: store)
            return .wroteLog(path: path, commands: lines.filter { !$0.hasPrefix("#") }.count)
        case .mark(let name):
            let doc = try open()
            guard let name else { return .marks(try doc.marks()) }
            return .marked(try doc.mark(name))
        case .undoTo(let mark):
            let doc = try open()
            return try historyMove(.undone, steps: { try doc.undo(toMark: mark) })
        case .redoTo(let mark):
            let doc = try open()
            return try historyMove(.redone, steps: { try doc.redo(toMark: mark) })
        case .undoMine(let n):
            let doc = try open()
            return try historyMove(.undone, steps: { try doc.undo(mine: n) })
        case .writeAs(let name):
            // A group belongs to the origin that began it (SPEC §3): it stays open as that
            // origin's, and `as` back to it finds it again (so a `log export` replays).
            origin = name
            current?.origin = name
            return .writingAs(origin: name)
        case let .diff(a, b):
            return .diff(try open().diff(from: a, to: b ?? .now(back: 0)))
        case .restore(let ref):
            let doc = try open()
            let (result, report) = try measure { try doc.restore(to: ref) }
            return .restored(result, report: report)
        case .compactHistory(let ref):
            return .compacted(try open().compactHistory(before: ref))
        case let .at(query, ref):
            return try travelling(to: ref) { try execute(query) }
        case .help(let topic):
            return .help(text: try topic.map(Help.topic) ?? Help.overview())
        case .quit:
            return .quit
        case .echo(let text):
            return .echo(text)
        case .shell(let command):
            return .shell(command)
        case .csv(let query):
            switch query {
            case .layout, .visible, .rows: return .csv(try execute(query))
            default: throw StackDocError("--csv is for layout, visible and rows")
            }
        }
    }

    // MARK: Documents

    func open() throws -> StoredDocument {
        guard let current else { throw StackDocError(.noDocumentOpen) }
        return current
    }

    /// The whole layout of the open document (O(rows): every row's frames and visibility); of
    /// the past document during `--at`.
    ///
    /// - Throws: `StackDocError` (`noDocumentOpen`) when no document is open.
    public func currentLayout() throws -> DocumentLayout {
        if let past { return past.live().layout() }
        return try open().wholeLayout()
    }

    /// The live layout of the open document (of the past document during `--at`): kept up to
    /// date by every change, it answers queries about a few rows without laying out the whole
    /// document.
    ///
    /// - Throws: `StackDocError` (`noDocumentOpen`) when no document is open.
    public func liveLayout() throws -> LiveLayout {
        if let past { return past.live() }
        return try open().liveLayout()
    }

    /// The document the queries read: the open one, or the past one during `--at`.
    func viewedDocument() throws -> Document {
        if let past { return past.document }
        return try open().document
    }

    /// Runs a query on the document as it was at `ref` (read-only: nothing is written).
    func travelling<T>(to ref: HistoryRef, _ body: () throws -> T) throws -> T {
        let document = try open().document(at: ref)
        past = PastDocument(document: document)
        defer { past = nil }
        return try body()
    }

    /// `body`'s document; when it fails, the open document is closed first: after a failed
    /// `new` or `open` no document is open, so the lines that follow it never edit the one
    /// opened before.
    func closingOnFailure(_ body: () throws -> StoredDocument) throws -> StoredDocument {
        do {
            return try body()
        } catch {
            current = nil
            throw error
        }
    }

    func opened(_ doc: StoredDocument, verb: OpenedDocument.Verb) -> CommandResult {
        doc.origin = origin
        current = doc
        let layout = doc.liveLayout()
        let s = doc.document.settings
        return .opened(OpenedDocument(verb: verb, name: doc.name, rows: doc.document.rowCount, axis: s.axis,
                                      viewport: s.viewport, contentSize: layout.contentSize))
    }

    // MARK: Changes

    /// Runs `body` (which changes the open document, whose live layout follows every change)
    /// and returns the live layout's report of what changed (no relayout of the whole document).
    func measure<T>(_ body: () throws -> T) throws -> (T, ChangeReport) {
        let doc = try open()
        _ = doc.liveLayout()  // kept by the document from now on
        let t0 = Timing.now()
        let value = try body()
        let elapsed = Timing.now() - t0
        lastTimings = [("store and layout", elapsed)]
        Timing.report(["store and layout": elapsed])
        guard let report = doc.lastLayoutReport else {
            throw StackDocError("internal error: the document's layout did not follow the change")
        }
        return (value, ChangeReport(report))
    }

    func perform(_ edit: Edit) throws -> CommandResult {
        let doc = try open()
        let cursorBefore = doc.cursor
        // Planning a scroll needs positions: the live layout has them. A stale edit is planned
        // again on the newest version, or refused as a conflict (StoredDocument+Replan).
        var planned: [Change] = []
        let (_, report) = try measure {
            try doc.perform(edit, planning: {
                planned = try doc.document.plan(edit, live: doc.liveLayout())
                return planned
            }, caughtUp: remember)
        }
        let outcome: EditOutcome
        if edit.isViewState {
            outcome = planned.isEmpty ? .noChange : .view
        } else if let group = doc.openGroup {
            outcome = .pending(group: group.label)
        } else if doc.cursor > cursorBefore {
            outcome = .step(doc.cursor)
        } else {
            outcome = .noChange
        }
        let plannedCount = planned.count
        LateRelease.value(consume planned, count: plannedCount)  // its last reference (the store keeps none)
        return .edited(operation: Printer.text(edit), outcome: outcome, report: report)
    }

    func historyMove(_ verb: HistoryVerb, steps: () throws -> HistoryMove) throws -> CommandResult {
        let (move, report) = try measure(steps)
        let result = CommandResult.historyMove(verb, steps: move.steps, compensating: move.compensatingStep, report: report)
        // The undo of a 100k-row `clear` applied 100k boxed changes: freed off the command's path.
        let appliedCount = move.changes.count
        LateRelease.value(consume move, count: appliedCount)
        return result
    }
}

/// The document a query runs on during `--at REF`, with its live layout made when a query first
/// asks for it (O(rows); `export --at` and `rows --at` of a million rows never pay it).
final class PastDocument {
    let document: Document
    private var layout: LiveLayout?

    init(document: Document) { self.document = document }

    /// The past document's live layout.
    func live() -> LiveLayout {
        if let layout { return layout }
        let made = LiveLayout(document)
        layout = made
        return made
    }
}
