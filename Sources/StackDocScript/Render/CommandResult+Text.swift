import Layout
import Store

/// The text renderer: what a command prints in text mode (docs/repl.md, "Output"). Every user
/// value goes through `Printer.id` or `Printer.label` (one escaping rule), every number, size,
/// rect and percentage through `Format`.
extension CommandResult {
    /// The text output in pieces of whole lines, as it is made: joined by line breaks they are
    /// `text` (nothing for an empty one). A whole layout and `rows` (also as CSV) come a block of
    /// rows at a time, an exported document about a megabyte of lines at a time; any other result is one
    /// piece.
    /// - Parameter piece: Receives each piece, in order.
    /// - Throws: What `piece` throws (the pieces after it are not made).
    public func writeText(_ piece: (String) throws -> Void) rethrows {
        switch self {
        case .wholeLayout(let listing):
            try listing.writeTable(piece)
        case .csv(.wholeLayout(let listing)):
            try listing.writeCSV(piece)
        case .rows(let listing):
            try listing.writeTable(piece)
        case .csv(.rows(let listing)):
            try listing.writeCSV(piece)
        case .document(let document):
            try Self.writeLines(of: document, piece)
        default:
            let text = text
            if !text.isEmpty { try piece(text) }
        }
    }

    /// `export` to standard output: the pretty text (as `DocumentFormat.encode`) cut after its
    /// last line break in each chunk the writer makes, so a million rows never become one string.
    private static func writeLines(of document: Document, _ piece: (String) throws -> Void) rethrows {
        var pending: [UInt8] = []
        try document.exportJSONPieces(pretty: true) { chunk in
            chunk.withUnsafeBytes { pending.append(contentsOf: $0) }
            guard let end = pending.lastIndex(of: 0x0A) else { return }
            try piece(String(decoding: pending[..<end], as: UTF8.self))
            pending.removeSubrange(...end)
        }
        if !pending.isEmpty { try piece(String(decoding: pending, as: UTF8.self)) }
    }

    /// The text output; empty prints nothing.
    public var text: String {
        switch self {
        case .opened(let d):
            return "\(d.verb.rawValue) \(Printer.id(d.name)): \(Format.count(d.rows, "row")), \(d.axis.rawValue), viewport \(Format.size(d.viewport)), content \(Format.size(d.contentSize))"
        case .closed(let name):
            return "closed \(Printer.id(name))"
        case .documents(let list):
            guard !list.isEmpty else { return "(no documents)" }
            var table = TextTable(["name", "rows", "steps", "undone"], rightAligned: [1, 2, 3])
            for d in list { table.add([Printer.id(d.name), "\(d.rowCount)", "\(d.steps)", "\(d.steps - d.cursor)"]) }
            return table.rendered
        case .dropped(let name):
            return "dropped \(Printer.id(name))"
        case .document(let document):
            return DocumentFormat.encode(document)
        case .wrote(let path):
            return "wrote \(Printer.label(path))"
        case let .wroteLog(path, commands):
            return "wrote \(Format.count(commands, "command")) to \(Printer.label(path))"
        case .importBegun(let name):
            return "import of \(Printer.id(name)) begun: edits build it until 'import commit'"
        case let .importPending(name, operation, _):
            return "pending in import \(Printer.id(name)): \(operation)"
        case let .importRolledBack(name, rows):
            return "import of \(Printer.id(name)) rolled back: \(Format.count(rows, "row")) dropped, nothing stored"
        case let .edited(operation, outcome, report):
            let headline: String
            switch outcome {
            case .view: headline = "view: \(operation)"
            case .pending(let label): headline = "pending in group\(label.map { " " + Printer.id($0) } ?? ""): \(operation)"
            case .step(let n): headline = "step \(n): \(operation)"
            case .noChange: headline = "no change: \(operation)"
            }
            return ([headline] + report.textLines).joined(separator: "\n")
        case let .layout(layout, rows):
            return LayoutOutput.table(layout, rows: rows)
        case .wholeLayout(let listing):
            var pieces: [String] = []
            listing.writeTable { pieces.append($0) }
            return pieces.joined(separator: "\n")
        case let .visible(rows, shown):
            return Self.visibleTable(rows, shown: shown)
        case .rows(let listing):
            var pieces: [String] = []
            listing.writeTable { pieces.append($0) }
            return pieces.joined(separator: "\n")
        case .row(let detail):
            return Self.rowFields(detail)
        case let .rowsOfType(type, ids):
            return ids.isEmpty ? "(no rows of type \(Printer.id(type)))" : ids.map(Printer.id).joined(separator: "\n")
        case let .hit(x, y, row):
            return row.map(Printer.id) ?? "(no row at \(Format.number(x)) \(Format.number(y)))"
        case let .history(steps, group, marks):
            var table = TextTable(["step", "state", "entries", "origin", "label"], rightAligned: [0])
            for s in steps {
                table.add(["\(s.number)", s.applied ? (s.revertedBy == nil ? "applied" : "reverted") : "undone", Self.entries(s.firstSeq, s.lastSeq),
                           Printer.label(s.origin ?? "-"), Printer.label(s.shownLabel)])
            }
            var text = steps.isEmpty ? "(no undo steps)" : table.rendered
            if !marks.isEmpty { text += "\n" + Self.marksTable(marks) }
            if let group { text += "\nopen group\(group.label.map { " " + Printer.id($0) } ?? ""): commit or rollback" }
            return text
        case .marked(let m):
            return "mark \(Printer.id(m.name)): log entry \(m.seq), undo step \(m.cursor)"
        case .marks(let marks):
            return marks.isEmpty ? "(no marks)" : Self.marksTable(marks)
        case .writingAs(let origin):
            return origin.map { "origin: \(Printer.label($0))" } ?? "origin: - (the later log entries record none)"
        case .diff(let d):
            return DiffText.lines(d).joined(separator: "\n")
        case let .restored(result, report):
            let head = result.step.map { "step \($0.number): \(Printer.label($0.shownLabel))" }
                ?? (result.changes.isEmpty ? "no change: the document equals log entry \(result.target) already" : "pending in group: restore of log entry \(result.target)")
            return ([head] + report.textLines).joined(separator: "\n")
        case .compacted(let c):
            guard c.base != c.previousBase else { return "nothing to compact: the history starts at log entry \(c.base + 1) already" }
            func n(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
            var lines = ["history compacted: it starts at log entry \(c.base + 1) (\(n(c.droppedEntries, "entry", "entries")), \(n(c.droppedSteps, "undo step", "undo steps")) and \(n(c.droppedSnapshots, "snapshot", "snapshots")) dropped; \(n(c.keptEntries, "entry", "entries")) kept)"]
            if !c.droppedMarks.isEmpty { lines.append("marks dropped: " + c.droppedMarks.map(Printer.id).joined(separator: " ")) }
            return lines.joined(separator: "\n")
        case .status(let s):
            return Self.statusFields(s)
        case .csv(let table):
            return table.csv
        case let .databaseStatus(database, documents):
            return Self.fields([("database", Printer.label(database)), ("document", "none open ('open NAME' or 'new NAME')"),
                           ("documents", "\(documents)")])
        case .drawing(let lines):
            return lines.joined(separator: "\n")
        case let .historyMove(verb, steps, compensating, report):
            let lines = steps.map { "\(verb.rawValue) step \($0.number): \(Printer.label($0.shownLabel))" }
            let made = compensating.map { ["as step \($0.number): \(Printer.label($0.shownLabel)) (others wrote since)"] } ?? []
            return (lines + made + report.textLines).joined(separator: "\n")
        case .begun(let label):
            return "begin" + (label.map { " " + Printer.id($0) } ?? "") + ": the next operations make one undo step"
        case .committed(let step):
            guard let step else { return "committed: no change, no undo step" }
            let count = step.edits.count
            return "step \(step.number): \(Printer.label(step.shownLabel)) (\(Format.count(count, "operation")))"
        case .rolledBack(let report):
            return (["rolled back"] + report.textLines).joined(separator: "\n")
        case .verified:
            return "ok: the log replays to the stored document"
        case .snapshotsRebuilt(let repair):
            guard !repair.rebuilt.isEmpty || !repair.deleted.isEmpty else { return "no damaged snapshot: nothing rebuilt" }
            var parts: [String] = []
            if !repair.rebuilt.isEmpty {
                parts.append("rebuilt \(Format.count(repair.rebuilt.count, "snapshot")) from the log (after log \(repair.rebuilt.count == 1 ? "entry" : "entries") \(repair.rebuilt.map { String($0.seq) }.joined(separator: ", ")))")
            }
            if !repair.deleted.isEmpty {
                parts.append("deleted \(Format.count(repair.deleted.count, "snapshot")) of entries past the log (\(repair.deleted.map { String($0.seq) }.joined(separator: ", ")))")
            }
            return parts.joined(separator: "; ")
        case .help(let text), .echo(let text):
            return text
        case .watched(let watch):
            return (watch.changes.flatMap(\.textLines) + [watch.summary]).joined(separator: "\n")
        case .quit, .shell:
            return ""
        }
    }

    /// `name  value` lines with the names padded to one width.
    /// `7` or `3...5`: the log entries of a step.
    static func entries(_ first: Int, _ last: Int) -> String {
        first == last ? "\(first)" : "\(first)...\(last)"
    }

    /// The marks: name, log entry, undo step, and whether undo/redo can still reach them.
    static func marksTable(_ marks: [HistoryMark]) -> String {
        var table = TextTable(["mark", "entry", "step", "origin"], rightAligned: [1, 2])
        for m in marks {
            table.add([Printer.id(m.name), "\(m.seq)", m.reachable ? "\(m.cursor)" : "\(m.cursor) (gone)", Printer.label(m.origin ?? "-")])
        }
        return table.rendered
    }

    static func fields(_ pairs: [(String, String)]) -> String {
        let width = pairs.map(\.0.count).max() ?? 0
        return pairs.map { "\($0.0.padded(to: width))  \($0.1)" }.joined(separator: "\n")
    }

    static func visibleTable(_ rows: [RowLayout], shown: [RowID: StuckRow]) -> String {
        guard !rows.isEmpty else { return "(no visible rows)" }
        var table = TextTable(["id", "type", "visibility", "percent", "frame"], rightAligned: [3])
        for r in rows {
            table.add([Printer.id(r.id), Printer.id(r.type), r.visibility.rawValue, Format.percent(r.percent),
                       LayoutOutput.frameText(r.frame, shown: shown[r.id])])
        }
        return table.rendered
    }

    static func flags(_ c: RowConfig) -> String {
        var f: [String] = []
        if c.hidden { f.append("hidden") }
        if c.sticky && c.stickyOffset == nil { f.append("sticky") } // else `sticky N` below
        if let s = c.stack { f.append("stack \(s.axis.rawValue)") }
        if !c.separator.isEmpty { f.append("separator*") }
        f += RowConfigText.optionalFields(c).map { "\($0.0) \($0.1)" }
        return f.joined(separator: ",")
    }

    /// The row detail's `sticky` line: `no`, `yes`, or `yes, 44 past the edge` (`sticky 44`).
    static func sticky(_ c: RowConfig) -> String {
        guard c.sticky else { return "no" }
        return c.stickyOffset.map { "yes, \(Format.number($0)) past the edge" } ?? "yes"
    }

    static func rowFields(_ d: RowDetail) -> String {
        let c = d.entry.config, r = d.layout
        let sep = c.separator.resolved(over: d.stackSeparator ?? d.defaults.separator)
        // Where the fields it does not set come from: the document's default or a stack's.
        let sepFrom = d.entry.separatorFrom.map { "in \(Printer.id($0))" } ?? "default"
        var lines: [(String, String)] = [
            ("id", Printer.id(d.entry.id)), ("parent", d.entry.parent.map(Printer.id) ?? "-"), ("index", "\(d.entry.index)"),
            ("type", Printer.id(c.type)), ("size", Format.rowSize(c.size)), ("content", Format.size(c.content)),
            ("insets", c.insets.map(Format.edges) ?? d.entry.insetsFrom.map { "in \(Printer.id($0)) (\(Format.edges(d.stackInsets ?? d.defaults.insets)))" }
                ?? "default (\(Format.edges(d.defaults.insets)))"),
            ("margin", Format.edges(c.margin)), ("grow", Format.number(c.grow)), ("shrink", Format.number(c.shrink)),
            ("align", c.alignSelf.rawValue), ("hidden", c.hidden ? "yes" : "no"), ("sticky", Self.sticky(c)),
            ("separator", "\(sep.hidden ? "hidden" : "shown"), insets \(Format.edges(sep.insets)), thickness \(Format.number(sep.thickness)), color \(sep.color)\(c.separator.isEmpty ? " (\(sepFrom))" : d.entry.separatorFrom == nil ? "" : " (over \(sepFrom))")"),
        ]
        lines += RowConfigText.optionalFields(c, except: [.stickyOffset])
        if let s = c.stack {
            lines.append(("stack", "\(s.axis.rawValue), justify \(s.justify.rawValue), align-items \(s.align.rawValue), spacing \(Format.number(s.spacing)), \(Format.count(d.childCount, "row"))"))
        }
        lines += [("frame", Format.rect(r?.frame)), ("content frame", Format.rect(r?.content)),
                  ("separator frame", Format.rect(r?.separator)),
                  ] + (d.displacement.flatMap { m in r?.frame.map { [("shown frame", Format.rect(m.moved($0)) + (m.stuck ? " (stuck)" : " (moved)"))] } } ?? []) + [
                  ("visibility", r.map(LayoutOutput.visibilityText) ?? "-")]
        return fields(lines)
    }

    static func statusFields(_ s: StatusInfo) -> String {
        let st = s.document
        return fields([
            ("database", Printer.label(s.database)),
            ("document", Printer.id(st.name)),
            ("rows", "\(st.rowCount)"),
            ("axis", s.axis.rawValue),
            ("viewport", Format.size(s.viewport)),
            ("insets", Format.edges(s.viewportInsets)),
        ] + (s.safeArea == .zero ? [] : [("safe area", Format.edges(s.safeArea))]) + [
            ("keyboard", s.keyboard == 0 ? "off" : Format.number(s.keyboard)),
            ("offset", Format.number(s.offset)),
        ] + s.nestedScrolls.map { n in
            ("scrolls", "\(Printer.id(n.id)) \(Format.number(n.offset)) of \(Format.number(n.maxOffset)) (\(n.axis.rawValue))")
        } + [
            ("content", Format.size(s.contentSize)),
            ("steps", "\(st.steps) (\(st.cursor) applied, \(st.steps - st.cursor) undone)"),
            ("cursor", "\(st.cursor)"),
            ("log", Format.count(st.logEntries, "entry", plural: "entries")),
            ("group", st.groupOpen ? "open" + (st.groupLabel.map { " " + Printer.id($0) } ?? "") : "none"),
        ])
    }
}
