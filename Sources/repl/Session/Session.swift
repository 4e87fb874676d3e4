import Foundation
import Layout
import Store

/// Runs commands against a database: the open document, the layout it had after the last
/// command (for transitions), and the outputs. Logic lives in Layout and Store; this is glue.
final class Session {
    let store: DocumentStore
    /// The open document. It keeps everything derived from it (its live layout, kept up to
    /// date by the changes of every command, and the whole layout for the commands that need
    /// every row), so a reload rebuilds them all.
    var current: StoredDocument?

    /// Relative paths of commands are resolved against this directory (nil: the current one).
    let directory: String?

    init(store: DocumentStore, directory: String? = nil) {
        self.store = store
        self.directory = directory
    }

    /// `path` as the file system should see it.
    func resolve(_ path: String) -> String {
        guard let directory, !path.hasPrefix("/") else { return path }
        return directory + "/" + path
    }

    /// Runs one command. Throws a `StackDocError` (nothing changed) when it fails. A query
    /// first catches up with another process's writes (Session+Staleness); when a command
    /// fails because another process changed the open document, the document is reloaded so
    /// that running the command again works (or closed, when it was dropped).
    func run(_ command: Command) throws -> Outcome {
        try refreshBeforeQuery(command)
        do {
            return try execute(command)
        } catch {
            guard let note = recoverFromStale() else { throw error }
            let message = (error as? StackDocError)?.message ?? "\(error)"
            throw StackDocError(message.replacingOccurrences(of: ": reload it and try again", with: "") + note)
        }
    }

    private func execute(_ command: Command) throws -> Outcome {
        switch command {
        case let .new(name, axis, viewport):
            var settings = DocumentSettings()
            if let axis { settings.axis = axis }
            if let viewport { settings.viewport = viewport }
            if let viewport { _ = try Document(name: name).plan(.viewport(viewport)) }  // the edit's validation
            let doc = try store.create(name, settings: settings)
            return opened(doc, verb: "created")
        case .open(let name):
            return opened(try store.open(name), verb: "opened")
        case .close:
            guard let doc = current else { throw StackDocError("no document is open") }
            current = nil
            return Outcome(result: .object([("closed", .string(doc.name))]), text: "closed \(doc.name)")
        case .docs:
            return try docs()
        case .drop(let name):
            try store.drop(name)
            if current?.name == name { current = nil }
            return Outcome(result: .object([("dropped", .string(name))]), text: "dropped \(name)")
        case let .importDocument(path, name):
            let document = try DocumentFormat.decode(try FileIO.read(resolve(path), shown: path),
                                                     path: path, name: name)
            return opened(try store.importDocument(document), verb: "imported")
        case .export(let path):
            let doc = try open()
            guard let path else {
                return Outcome(result: .raw(DocumentFormat.compact(doc.document)), text: DocumentFormat.encode(doc.document))
            }
            // The pretty text with its final newline, as bytes (no string copies of a big file).
            try FileIO.write(bytes: doc.document.exportJSONBytes(pretty: true), to: resolve(path), shown: path, sparing: store)
            return Outcome(result: .object([("path", .string(path))]), text: "wrote \(path)")
        case .edit(let edit):
            return try perform(edit)
        case .layout(let selection):
            return try layout(selection)
        case .visible:
            return try visible()
        case .rows:
            return try rows()
        case .row(let id):
            return try row(id)
        case .findType(let type):
            let ids = try open().document.rows(ofType: type)
            return Outcome(result: .array(ids.map(JSON.string)),
                           text: ids.isEmpty ? "(no rows of type \(Printer.id(type)))" : ids.map(Printer.id).joined(separator: "\n"))
        case let .hit(x, y):
            let id = try liveLayout().hitTest(x: x, y: y)
            return Outcome(result: .optional(id), text: id.map(Printer.id) ?? "(no row at \(NumberFormat.string(x)) \(NumberFormat.string(y)))")
        case .history:
            return try history()
        case .status:
            return try status()
        case .draw:
            let lines = Drawing.lines(try drawingLayout())
            return Outcome(result: .object([("lines", .array(lines.map(JSON.string)))]), text: lines.joined(separator: "\n"))
        case .exportSVG(let path):
            let doc = try open()
            try FileIO.write(SVGPicture.render(try currentLayout(), document: doc.document), to: resolve(path), shown: path, sparing: store)
            return Outcome(result: .object([("path", .string(path))]), text: "wrote \(path)")
        case .undo(let n):
            let doc = try open()
            return try historyMove("undone", steps: { try doc.undo(n) })
        case .redo(let n):
            let doc = try open()
            return try historyMove("redone", steps: { try doc.redo(n) })
        case .begin(let label):
            try open().begin(label)
            return Outcome(result: .object([("label", .optional(label))]),
                           text: "begin" + (label.map { " " + Printer.id($0) } ?? "") + ": the next operations make one undo step")
        case .commit:
            return try commit()
        case .rollback:
            let doc = try open()
            let (_, report) = try measure { try doc.rollback() }
            return Outcome(result: .object([("rolledBack", .bool(true))] + report.jsonFields),
                           text: (["rolled back"] + report.textLines).joined(separator: "\n"), events: report.transitions)
        case .verify:
            let problems = try open().verify()
            guard problems.isEmpty else {
                throw StackDocError("verify: the log does not replay to the stored document: " + problems.prefix(5).joined(separator: "; ")
                                    + (problems.count > 5 ? " (+\(problems.count - 5) more)" : ""))
            }
            return Outcome(result: .object([("verified", .bool(true))]), text: "ok: the log replays to the stored document")
        case .logExport(let path):
            let doc = try open()
            let lines = try LogScript.lines(doc)
            try FileIO.write(lines.joined(separator: "\n") + "\n", to: resolve(path), shown: path, sparing: store)
            let commands = lines.filter { !$0.hasPrefix("#") }.count
            return Outcome(result: .object([("path", .string(path)), ("commands", .number(Double(commands)))]),
                           text: "wrote \(commands) commands to \(path)")
        case .help(let topic):
            let text = try topic.map(Help.topic) ?? Help.overview()
            return Outcome(result: .object([("text", .string(text))]), text: text)
        case .quit:
            return Outcome(quit: true)
        }
    }

    // MARK: Documents

    func open() throws -> StoredDocument {
        guard let current else { throw StackDocError("no document is open (use 'new NAME', 'open NAME' or 'import PATH')") }
        return current
    }

    /// The whole layout (O(rows)): only for commands that need every row.
    func currentLayout() throws -> DocumentLayout {
        try open().wholeLayout()
    }

    /// The live layout of the open document.
    func liveLayout() throws -> LiveLayout {
        try open().liveLayout()
    }

    func opened(_ doc: StoredDocument, verb: String) -> Outcome {
        current = doc
        let layout = doc.liveLayout()
        let s = doc.document.settings
        let text = "\(verb) \(doc.name): \(doc.document.rowCount) rows, \(s.axis.rawValue), viewport \(ChangeReport.size(s.viewport)), content \(ChangeReport.size(layout.contentSize))"
        return Outcome(result: .object([("document", .string(doc.name)), ("rows", .number(Double(doc.document.rowCount))),
                                        ("axis", .string(s.axis.rawValue)), ("viewport", .size(s.viewport)),
                                        ("contentSize", .size(layout.contentSize))]),
                       text: text)
    }

    func docs() throws -> Outcome {
        let list = try store.documents()
        var table = TextTable(["name", "rows", "steps", "undone"], rightAligned: [1, 2, 3])
        for d in list { table.add([d.name, "\(d.rowCount)", "\(d.steps)", "\(d.steps - d.cursor)"]) }
        let json = JSON.array(list.map {
            .object([("name", .string($0.name)), ("rows", .number(Double($0.rowCount))),
                     ("steps", .number(Double($0.steps))), ("cursor", .number(Double($0.cursor)))])
        })
        return Outcome(result: json, text: list.isEmpty ? "(no documents)" : table.rendered)
    }

    // MARK: Changes

    /// Runs `body` (which changes the open document, whose live layout follows every change)
    /// and returns the live layout's report of what changed (no relayout of the whole document).
    func measure<T>(_ body: () throws -> T) throws -> (T, ChangeReport) {
        let doc = try open()
        _ = doc.liveLayout()  // kept by the document from now on
        let t0 = Timing.now()
        let value = try body()
        Timing.report(["store and layout": Timing.now() - t0])
        guard let report = doc.lastLayoutReport else {
            throw StackDocError("internal error: the document's layout did not follow the change")
        }
        return (value, ChangeReport(report))
    }

    func perform(_ edit: Edit) throws -> Outcome {
        let doc = try open()
        let cursorBefore = doc.cursor
        // Planning a scroll needs positions: the live layout has them.
        let planned = try doc.document.plan(edit, live: try liveLayout())
        let (_, report) = try measure { try doc.perform(edit, changes: planned) }
        let text = Printer.text(edit)
        let headline: String
        var fields: [(String, JSON)] = [("operation", .string(text))]
        if edit.isViewState {
            headline = "view: \(text)"
            fields.append(("step", .null))
        } else if let group = doc.openGroup {
            headline = "pending in group\(group.label.map { " " + Printer.id($0) } ?? ""): \(text)"
            fields.append(("step", .null))
        } else if doc.cursor > cursorBefore {
            headline = "step \(doc.cursor): \(text)"
            fields.append(("step", .number(Double(doc.cursor))))
        } else {
            headline = "no change: \(text)"
            fields.append(("step", .null))
        }
        return Outcome(result: .object(fields + report.jsonFields),
                       text: ([headline] + report.textLines).joined(separator: "\n"), events: report.transitions)
    }

    func historyMove(_ verb: String, steps: () throws -> HistoryMove) throws -> Outcome {
        let (move, report) = try measure(steps)
        let labels = move.steps.map { "step \($0.number): \(Session.label($0))" }
        return Outcome(result: .object([(verb, .array(move.steps.map { .object([("step", .number(Double($0.number))), ("label", .string(Session.label($0)))]) }))] + report.jsonFields),
                       text: (labels.map { "\(verb) \($0)" } + report.textLines).joined(separator: "\n"),
                       events: report.transitions)
    }

    func commit() throws -> Outcome {
        let doc = try open()
        let step = try doc.commit()
        guard let step else {
            return Outcome(result: .object([("step", .null)]), text: "committed: no change, no undo step")
        }
        return Outcome(result: .object([("step", .number(Double(step.number))), ("label", .string(Session.label(step))),
                                        ("operations", .number(Double(step.edits.count)))]),
                       text: "step \(step.number): \(Session.label(step)) (\(step.edits.count) operation\(step.edits.count == 1 ? "" : "s"))")
    }

    /// A step's label: its group label, or its operations' canonical text.
    static func label(_ step: HistoryStep) -> String {
        if let label = step.label { return label }
        let texts = step.edits.map(Printer.text)
        if texts.count <= 3 { return texts.joined(separator: "; ") }
        return texts.prefix(3).joined(separator: "; ") + "; … (\(texts.count) operations)"
    }
}
