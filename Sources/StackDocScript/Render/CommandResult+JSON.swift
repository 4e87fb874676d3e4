import Layout
import Store

/// The JSON renderer: the `result` of a command's `--json` envelope (docs/repl.md, "Output"),
/// in StackDoc's one JSON value type (`JSONValue`, written by `JSONWriter`).
extension CommandResult {
    /// The result as compact JSON in pieces, as it is made (`appendJSON`'s bytes): a whole
    /// layout and `rows` (also under `--csv`) a block of rows at a time, anything else in one piece.
    /// - Parameter piece: Receives each piece, in order.
    /// - Throws: What `piece` throws (the pieces after it are not made).
    public func writeJSON(_ piece: ([UInt8]) throws -> Void) rethrows {
        switch self {
        case .wholeLayout(let listing), .csv(.wholeLayout(let listing)):
            try listing.writeJSON(piece)
        case .rows(let listing), .csv(.rows(let listing)):
            try listing.writeJSON(piece)
        default:
            var out: [UInt8] = []
            appendJSON(to: &out)
            try piece(out)
        }
    }

    /// Appends the result as compact JSON. `layout` and `export` stream their (possibly
    /// million-row) results straight into bytes; everything else is a `JSONValue`.
    /// - Parameter out: The buffer the compact JSON is appended to.
    public func appendJSON(to out: inout [UInt8]) {
        switch self {
        case .csv(let table):
            table.appendJSON(to: &out)  // --json keeps the query's own result
        case let .layout(layout, rows):
            out.append(contentsOf: LayoutOutput.jsonBytes(layout, rows: rows))
        case .wholeLayout(let listing):
            listing.writeJSON { out.append(contentsOf: $0) }
        case .rows(let listing):
            listing.writeJSON { out.append(contentsOf: $0) }
        case .document(let document):
            var bytes = document.exportJSONBytes(pretty: false)
            if bytes.last == 0x0A { bytes.removeLast() }
            out.append(contentsOf: bytes)
        default:
            JSONWriter.append(jsonValue, to: &out, pretty: false, indent: 0)
        }
    }

    /// The result as a JSON value (the same text `appendJSON` writes).
    public var jsonValue: JSONValue {
        switch self {
        case .opened(let d):
            return object([("document", .string(d.name)), ("rows", int(d.rows)), ("axis", .string(d.axis.rawValue)),
                           ("viewport", d.viewport.jsonValue), ("contentSize", d.contentSize.jsonValue)])
        case .closed(let name):
            return object([("closed", .string(name))])
        case .documents(let list):
            return .array(list.map {
                object([("name", .string($0.name)), ("rows", int($0.rowCount)), ("steps", int($0.steps)), ("cursor", int($0.cursor))])
            })
        case .dropped(let name):
            return object([("dropped", .string(name))])
        case .document(let document):
            return document.jsonValue()
        case .wrote(let path):
            return object([("path", .string(path))])
        case let .wroteLog(path, commands):
            return object([("path", .string(path)), ("commands", int(commands))])
        case .importBegun(let name):
            return object([("import", .string(name)), ("rows", int(0))])
        case let .importPending(name, operation, rows):
            return object([("import", .string(name)), ("operation", .string(operation)), ("rows", int(rows))])
        case let .importRolledBack(name, rows):
            return object([("import", .string(name)), ("rolledBack", .bool(true)), ("rows", int(rows))])
        case let .edited(operation, outcome, report):
            let step: JSONValue
            if case .step(let n) = outcome { step = int(n) } else { step = .null }
            return object([("operation", .string(operation)), ("step", step)] + report.jsonMembers)
        case let .layout(layout, rows):
            return LayoutOutput.jsonValue(layout, rows: rows)
        case .wholeLayout(let listing):
            var rows: [RowLayout] = []
            listing.forEachBlock { rows += $0 }
            return LayoutOutput.jsonValue(listing.header, rows: rows)
        case let .visible(rows, shown):
            return .array(rows.map { r in
                object([("id", .string(r.id)), ("visibility", .string(r.visibility.rawValue)), ("percent", .number(r.percent))]
                       + (shown[r.id].flatMap { m in r.frame.map { [("shownFrame", m.moved($0).jsonValue), ("stuck", .bool(m.stuck))] } } ?? []))
            })
        case .rows(let listing):
            return .array(listing.entries.map { object(Self.configMembers($0)) })
        case .row(let d):
            let r = d.layout
            return object(Self.configMembers(d.entry) + [
                ("frame", rect(r?.frame)), ("contentFrame", rect(r?.content)), ("separatorFrame", rect(r?.separator)),
                ("visibility", optional(r?.visibility.rawValue)), ("percent", .number(r?.percent ?? 0)),
            ] + (d.displacement.flatMap { m in r?.frame.map { [("shownFrame", m.moved($0).jsonValue), ("stuck", .bool(m.stuck))] } } ?? []))
        case .rowsOfType(_, let ids):
            return .array(ids.map(JSONValue.string))
        case .hit(_, _, let row):
            return optional(row)
        case let .history(steps, group, marks):
            return object([
                ("steps", .array(steps.map {
                    object([("step", int($0.number)), ("label", .string($0.shownLabel)), ("applied", .bool($0.applied)),
                            ("entries", object([("first", int($0.firstSeq)), ("last", int($0.lastSeq))])),
                            ("origin", optional($0.origin)), ("restored", $0.restoredFrom.map(int) ?? .null),
                            ("operations", .array($0.edits.map { .string(Printer.text($0)) }))]
                           + Self.compensationJSON($0))
                })),
                ("marks", .array(marks.map(Self.markJSON))),
                ("group", group.map { object([("label", optional($0.label))]) } ?? .null),
            ])
        case .marked(let m):
            return Self.markJSON(m)
        case .marks(let marks):
            return .array(marks.map(Self.markJSON))
        case .writingAs(let origin):
            return object([("origin", optional(origin))])
        case .diff(let d):
            return DiffJSON.value(d)
        case let .restored(result, report):
            return object([("restored", int(result.target)), ("step", result.step.map { int($0.number) } ?? .null)] + report.jsonMembers)
        case .compacted(let c):
            return object([("base", int(c.base)), ("previousBase", int(c.previousBase)), ("droppedEntries", int(c.droppedEntries)),
                           ("droppedSteps", int(c.droppedSteps)), ("droppedSnapshots", int(c.droppedSnapshots)), ("keptEntries", int(c.keptEntries)),
                           ("droppedMarks", .array(c.droppedMarks.map(JSONValue.string)))])
        case .csv(let table):
            return table.jsonValue
        case let .databaseStatus(database, documents):
            return object([("database", .string(database)), ("document", .null), ("documents", int(documents))])
        case .status(let s):
            let st = s.document
            return object([
                ("database", .string(s.database)), ("document", .string(st.name)), ("rows", int(st.rowCount)),
                ("axis", .string(s.axis.rawValue)), ("viewport", s.viewport.jsonValue),
                ("viewportInsets", s.viewportInsets.jsonValue),
            ] + (s.safeArea == .zero ? [] : [("safeArea", s.safeArea.jsonValue)]) + [
                ("keyboard", s.keyboard == 0 ? .null : .number(s.keyboard)),
                ("offset", .number(s.offset)),
            ] + (s.nestedScrolls.isEmpty ? [] : [("scrolls", .array(s.nestedScrolls.map { n in
                object([("id", .string(n.id)), ("axis", .string(n.axis.rawValue)), ("offset", .number(n.offset)),
                        ("maxOffset", .number(n.maxOffset))])
            }))]) + [
                ("content", s.contentSize.jsonValue), ("steps", int(st.steps)), ("cursor", int(st.cursor)),
                ("log", int(st.logEntries)), ("group", st.groupOpen ? object([("label", optional(st.groupLabel))]) : .null),
            ])
        case .drawing(let lines):
            return object([("lines", .array(lines.map(JSONValue.string)))])
        case let .historyMove(verb, steps, compensating, report):
            let list = JSONValue.array(steps.map { object([("step", int($0.number)), ("label", .string($0.shownLabel))]) })
            let made = compensating.map { [("compensating", object([("step", int($0.number)), ("label", .string($0.shownLabel))]))] } ?? []
            return object([(verb.rawValue, list)] + made + report.jsonMembers)
        case .begun(let label):
            return object([("label", optional(label))])
        case .committed(let step):
            guard let step else { return object([("step", .null)]) }
            return object([("step", int(step.number)), ("label", .string(step.shownLabel)), ("operations", int(step.edits.count))])
        case .rolledBack(let report):
            return object([("rolledBack", .bool(true))] + report.jsonMembers)
        case .verified:
            return object([("verified", .bool(true))])
        case .snapshotsRebuilt(let repair):
            return object([("rebuilt", .array(repair.rebuilt.map { int($0.seq) })), ("deleted", .array(repair.deleted.map { int($0.seq) }))])
        case .help(let text), .echo(let text):
            return object([("text", .string(text))])
        case .watched(let watch):
            return object([("changes", int(watch.count)), ("seconds", watch.seconds.map(JSONValue.number) ?? .null),
                           ("interrupted", .bool(watch.interrupted))]
                          + (watch.changes.isEmpty ? [] : [("list", .array(watch.changes.map(\.jsonValue)))]))
        case .quit:
            return .null
        case .shell(.read(let path)):
            return object([("read", .string(path))])
        case .shell(.output(let path)):
            return object([("output", path.map(JSONValue.string) ?? .null)])
        case .shell(.once(let path)):
            return object([("once", .string(path))])
        case .shell(.timer(let on)):
            return object([("timer", .bool(on))])
        }
    }

    /// A row's configuration as `rows` and `row` give it.
    static func configMembers(_ e: RowEntry) -> [(String, JSONValue)] {
        let c = e.config
        var size: JSONValue = .string("fit")
        if case .fixed(let n) = c.size { size = object([("fixed", .number(n))]) }
        var sep: [(String, JSONValue)] = []
        if let h = c.separator.hidden { sep.append(("hidden", .bool(h))) }
        if let i = c.separator.insets { sep.append(("insets", i.jsonValue)) }
        if let t = c.separator.thickness { sep.append(("thickness", .number(t))) }
        if let col = c.separator.color { sep.append(("color", .string(col))) }
        let stack: JSONValue = c.stack.map {
            object([("axis", .string($0.axis.rawValue)), ("justify", .string($0.justify.rawValue)),
                    ("align", .string($0.align.rawValue)), ("spacing", .number($0.spacing))])
        } ?? .null
        return [("id", .string(e.id)), ("parent", optional(e.parent)), ("index", int(e.index)), ("type", .string(c.type)),
                ("size", size), ("content", c.content.jsonValue), ("insets", c.insets?.jsonValue ?? .null)]
            // Issue 33: the stack whose default insets a row without its own takes (absent: the document's).
            + (c.insets == nil ? e.insetsFrom.map { [("insetsFrom", JSONValue.string($0))] } ?? [] : []) + [
                ("margin", c.margin.jsonValue), ("grow", .number(c.grow)), ("shrink", .number(c.shrink)),
                ("alignSelf", .string(c.alignSelf.rawValue)), ("hidden", .bool(c.hidden)), ("sticky", .bool(c.sticky)),
                ("separator", object(sep))]
            // The nearest stack whose separator overrides for its rows lie under the row's own.
            + (e.separatorFrom.map { [("separatorFrom", JSONValue.string($0))] } ?? [])
            + optionalMembers(c) + [("stack", stack)]
    }

    /// The optional fields (`RowField.optional`) that the row sets, with the saved format's names.
    /// A text run and an aspect ratio are objects of numbers (`{"glyphs":300,"char":8,"line":20}`,
    /// `{"width":16,"height":9}`), not the saved format's words, so a client reads them as they are.
    static func optionalMembers(_ c: RowConfig) -> [(String, JSONValue)] {
        RowField.optional.compactMap { field in
            switch field {
            case .text:
                return c.text.map { t in
                    (field.spec.json, object([("glyphs", int(t.count)), ("char", .number(t.glyphWidth)), ("line", .number(t.lineHeight))]))
                }
            case .aspect:
                return c.aspect.map { (field.spec.json, $0.jsonValue) }
            default:
                return field.value(c).map { (field.spec.json, $0.jsonValue) }
            }
        }
    }

    /// A mark: name, log entry, undo step, reachable by undo/redo, origin.
    /// A compensating step's `reverts` (`{"undo": [entries…]}` or `"redo"`) and a reverted
    /// step's `revertedBy`; nothing for any other step, so a single writer's history reads as
    /// before.
    static func compensationJSON(_ s: HistoryStep) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if let r = s.reverts {
            let ranges = JSONValue.array(r.steps.map { object([("first", .number(Double($0.lowerBound))), ("last", .number(Double($0.upperBound)))]) })
            members.append(("reverts", object([(r.undo ? "undo" : "redo", ranges)])))
        }
        if let by = s.revertedBy { members.append(("revertedBy", .number(Double(by)))) }
        return members
    }

    static func markJSON(_ m: HistoryMark) -> JSONValue {
        object([("mark", .string(m.name)), ("entry", int(m.seq)), ("step", int(m.cursor)), ("reachable", .bool(m.reachable)),
                ("origin", optional(m.origin))])
    }
}

extension RemoteChange {
    /// A change another session committed: its log entry, kind, command, step, origin, label,
    /// rows and settings changed, and (when caught up entry by entry) the layout report's members.
    public var jsonValue: JSONValue {
        object([("entry", int(entry.seq)), ("kind", .string(entry.kind.rawValue)), ("command", .string(command)),
                ("step", step.map(int) ?? .null), ("origin", optional(entry.origin)), ("label", optional(entry.label)),
                ("rows", int(rows)), ("settingsChanged", .bool(changedSettings))]
               + (layout.map { ChangeReport($0).jsonMembers } ?? []))
    }

    /// `watch`'s line for it with `--json`: `{"change":{…}}`.
    public var jsonLine: String { JSONWriter.compact(object([("change", jsonValue)])) }
}

extension ChangeReport {
    /// The JSON members of the report (added to a change's result).
    var jsonMembers: [(String, JSONValue)] {
        [("changed", .array(changedVisible.map(JSONValue.string))),
         ("changedCount", int(changedCount)),
         ("moved", .array(moved.map(LayoutOutput.movedJSON))),
         ("removed", .array(removed.prefix(1000).map(JSONValue.string))),
         ("offset", .number(offset.after)),
         ("contentSize", contentSize.after.jsonValue)]
    }
}

/// An object from ordered members.
fileprivate func object(_ members: [(String, JSONValue)]) -> JSONValue {
    .object(members.map { JSONMember($0.0, $0.1) })
}

/// A count as a JSON number.
fileprivate func int(_ n: Int) -> JSONValue { .number(Double(n)) }

/// A string or null.
fileprivate func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }

/// A rect or null.
fileprivate func rect(_ r: Rect?) -> JSONValue { r?.jsonValue ?? .null }
