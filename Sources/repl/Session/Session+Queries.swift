import Layout
import Store

/// The query commands: nothing here changes the document.
extension Session {
    func layout(_ selection: LayoutSelection) throws -> Outcome {
        guard selection.visibleOnly || selection.range != nil else {
            let layout = try currentLayout()
            return Outcome(result: .raw(LayoutOutput.json(layout, rows: nil)), text: LayoutOutput.table(layout, rows: nil))
        }
        // Only the rows asked for, from the live layout: O(log n + k) on any document.
        let live = try liveLayout()
        var subset: [RowLayout]
        if let range = selection.range {
            let lower = min(range.lowerBound, live.rowCount)
            let upper = min(range.upperBound, live.rowCount - 1)
            subset = lower <= upper ? live.rows(inOrder: lower..<(upper + 1)) : []
            if selection.visibleOnly { subset = subset.filter { $0.visibility == .entire || $0.visibility == .partial } }
        } else {
            subset = live.visibleRows()
        }
        let layout = Session.partialLayout(live, rows: subset)
        return Outcome(result: .raw(LayoutOutput.json(layout, rows: subset)), text: LayoutOutput.table(layout, rows: subset))
    }

    /// A layout holding `rows` and their ancestors (for nesting depths), with the live layout's
    /// header fields.
    static func partialLayout(_ live: LiveLayout, rows: [RowLayout]) -> DocumentLayout {
        var all: [RowID: RowLayout] = [:]
        for r in rows { all[r.id] = r }
        for r in rows {
            var parent = r.parent
            while let p = parent, all[p] == nil, let row = live.row(p) {
                all[p] = row
                parent = row.parent
            }
        }
        let ordered = all.values.map { (live.position(of: $0.id) ?? 0, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        return DocumentLayout(document: live.document, axis: live.settings.axis, viewport: live.settings.viewport,
                              offset: live.offset, contentSize: live.contentSize, rows: ordered)
    }

    /// What `draw` needs: the rows meeting the viewport, plus one hidden-marked child of every
    /// such stack row that has rows (the drawing tells stack rows by their children).
    func drawingLayout() throws -> DocumentLayout {
        let live = try liveLayout()
        let document = try open().document
        let o = live.offset
        let main = live.settings.axis == .vertical ? live.settings.viewport.height : live.settings.viewport.width
        var rows = live.rows(from: o, to: o + main)
        let parents = Set(rows.compactMap(\.parent))
        for r in rows where !parents.contains(r.id) {
            guard let child = document.child(at: 0, of: r.id), var marker = live.row(child) else { continue }
            marker.visibility = .hidden
            rows.append(marker)
        }
        return DocumentLayout(document: live.document, axis: live.settings.axis, viewport: live.settings.viewport,
                              offset: o, contentSize: live.contentSize, rows: rows)
    }

    func visible() throws -> Outcome {
        let shown = try liveLayout().visibleRows()
        var table = TextTable(["id", "type", "visibility", "percent", "frame"], rightAligned: [3])
        for r in shown {
            table.add([Printer.id(r.id), Printer.id(r.type), r.visibility.rawValue, Session.percent(r.percent), Session.rect(r.frame)])
        }
        let json = JSON.array(shown.map {
            .object([("id", .string($0.id)), ("visibility", .string($0.visibility.rawValue)), ("percent", .number($0.percent))])
        })
        return Outcome(result: json, text: shown.isEmpty ? "(no visible rows)" : table.rendered)
    }

    func rows() throws -> Outcome {
        let document = try open().document
        var table = TextTable(["id", "parent", "index", "type", "size", "content", "insets", "margin", "grow", "shrink", "align", "flags"],
                              rightAligned: [2, 8, 9])
        var json: [JSON] = []
        var depth: [RowID: Int] = [:]
        document.forEachRow { id, parent, index, c in
            let d = parent.map { (depth[$0] ?? 0) + 1 } ?? 0
            if c.stack != nil { depth[id] = d }
            table.add([String(repeating: "  ", count: d) + Printer.id(id), parent.map(Printer.id) ?? "-", "\(index)", Printer.id(c.type),
                       Session.size(c.size), ChangeReport.size(c.content), c.insets.map(Session.edges) ?? "default",
                       Session.edges(c.margin), NumberFormat.string(c.grow), NumberFormat.string(c.shrink), c.alignSelf.rawValue,
                       Session.flags(c)])
            json.append(Session.configJSON(id: id, parent: parent, index: index, c))
        }
        return Outcome(result: .array(json), text: document.rowCount == 0 ? "(no rows)" : table.rendered)
    }

    func row(_ id: RowID) throws -> Outcome {
        let document = try open().document
        guard let c = document.config(of: id), let parent = document.parent(of: id), let index = document.index(of: id) else {
            throw StackDocError(.noSuchRow(id))
        }
        let r = try liveLayout().row(id)
        let defaults = document.settings.defaults
        let sep = c.separator.resolved(over: defaults.separator)
        var lines: [(String, String)] = [
            ("id", Printer.id(id)), ("parent", parent.map(Printer.id) ?? "-"), ("index", "\(index)"), ("type", Printer.id(c.type)),
            ("size", Session.size(c.size)), ("content", ChangeReport.size(c.content)),
            ("insets", c.insets.map(Session.edges) ?? "default (\(Session.edges(defaults.insets)))"),
            ("margin", Session.edges(c.margin)), ("grow", NumberFormat.string(c.grow)), ("shrink", NumberFormat.string(c.shrink)),
            ("align", c.alignSelf.rawValue), ("hidden", c.hidden ? "yes" : "no"),
            ("separator", "\(sep.hidden ? "hidden" : "shown"), insets \(Session.edges(sep.insets)), thickness \(NumberFormat.string(sep.thickness)), color \(sep.color)\(c.separator.isEmpty ? " (default)" : "")"),
        ]
        if let s = c.stack {
            lines.append(("stack", "\(s.axis.rawValue), justify \(s.justify.rawValue), align-items \(s.align.rawValue), spacing \(NumberFormat.string(s.spacing)), \(document.children(of: id).count) rows"))
        }
        lines += [("frame", Session.rect(r?.frame)), ("content frame", Session.rect(r?.content)),
                  ("separator frame", Session.rect(r?.separator)),
                  ("visibility", r.map { "\($0.visibility.rawValue) \(Session.percent($0.percent))%" } ?? "-")]
        let width = lines.map(\.0.count).max() ?? 0
        var json = Session.configFields(id: id, parent: parent, index: index, c)
        json += [("frame", .rect(r?.frame)), ("contentFrame", .rect(r?.content)), ("separatorFrame", .rect(r?.separator)),
                 ("visibility", .optional(r?.visibility.rawValue)), ("percent", .number(r?.percent ?? 0))]
        return Outcome(result: .object(json), text: lines.map { "\($0.0.padded(to: width))  \($0.1)" }.joined(separator: "\n"))
    }

    func history() throws -> Outcome {
        let doc = try open()
        let steps = try doc.history()
        var table = TextTable(["step", "state", "label"], rightAligned: [0])
        for s in steps {
            table.add(["\(s.number)", s.applied ? "applied" : "undone", Printer.label(Session.label(s))])
        }
        var text = steps.isEmpty ? "(no undo steps)" : table.rendered
        if let group = doc.openGroup {
            text += "\nopen group\(group.label.map { " " + Printer.id($0) } ?? ""): commit or rollback"
        }
        let json = JSON.array(steps.map {
            .object([("step", .number(Double($0.number))), ("label", .string(Session.label($0))), ("applied", .bool($0.applied)),
                     ("operations", .array($0.edits.map { .string(Printer.text($0)) }))])
        })
        return Outcome(result: json, text: text)
    }

    func status() throws -> Outcome {
        let doc = try open()
        let st = try doc.status()
        let layout = try liveLayout()
        let s = doc.document.settings
        let pairs: [(String, String, JSON)] = [
            ("database", store.path, .string(store.path)),
            ("document", Printer.id(st.name), .string(st.name)),
            ("rows", "\(st.rowCount)", .number(Double(st.rowCount))),
            ("axis", s.axis.rawValue, .string(s.axis.rawValue)),
            ("viewport", ChangeReport.size(s.viewport), .size(s.viewport)),
            ("offset", NumberFormat.string(layout.offset), .number(layout.offset)),
            ("content", ChangeReport.size(layout.contentSize), .size(layout.contentSize)),
            ("steps", "\(st.steps) (\(st.cursor) applied, \(st.steps - st.cursor) undone)", .number(Double(st.steps))),
            ("cursor", "\(st.cursor)", .number(Double(st.cursor))),
            ("log", "\(st.logEntries) entries", .number(Double(st.logEntries))),
            ("group", st.groupOpen ? "open" + (st.groupLabel.map { " " + Printer.id($0) } ?? "") : "none",
             st.groupOpen ? .object([("label", .optional(st.groupLabel))]) : .null),
        ]
        let width = pairs.map(\.0.count).max() ?? 0
        return Outcome(result: .object(pairs.map { ($0.0, $0.2) }),
                       text: pairs.map { "\($0.0.padded(to: width))  \($0.1)" }.joined(separator: "\n"))
    }

    // MARK: Formatting helpers

    static func rect(_ r: Rect?) -> String {
        guard let r else { return "-" }
        let n = NumberFormat.string
        return "\(n(r.x)),\(n(r.y)) \(n(r.width))x\(n(r.height))"
    }

    static func edges(_ e: Edges) -> String {
        Printer.edges(e).replacingSpaces(with: ",")
    }

    static func size(_ s: RowSize) -> String {
        switch s {
        case .fit: return "fit"
        case .fixed(let n): return "fixed \(NumberFormat.string(n))"
        }
    }

    /// One decimal, rounded down, so a partial row never reads as 100 (or an offscreen one as 0).
    static func percent(_ p: Double) -> String {
        var shown = (p * 10).rounded(.down) / 10
        if shown == 0, p > 0 { shown = 0.1 }
        return NumberFormat.string(shown)
    }

    static func flags(_ c: RowConfig) -> String {
        var f: [String] = []
        if c.hidden { f.append("hidden") }
        if let s = c.stack { f.append("stack \(s.axis.rawValue)") }
        if !c.separator.isEmpty { f.append("separator*") }
        return f.joined(separator: ",")
    }

    static func configFields(id: RowID, parent: RowID?, index: Int, _ c: RowConfig) -> [(String, JSON)] {
        var size: JSON = .string("fit")
        if case .fixed(let n) = c.size { size = .object([("fixed", .number(n))]) }
        var sep: [(String, JSON)] = []
        if let h = c.separator.hidden { sep.append(("hidden", .bool(h))) }
        if let i = c.separator.insets { sep.append(("insets", .edges(i))) }
        if let t = c.separator.thickness { sep.append(("thickness", .number(t))) }
        if let col = c.separator.color { sep.append(("color", .string(col))) }
        let stack: JSON = c.stack.map {
            .object([("axis", .string($0.axis.rawValue)), ("justify", .string($0.justify.rawValue)),
                     ("align", .string($0.align.rawValue)), ("spacing", .number($0.spacing))])
        } ?? .null
        return [("id", .string(id)), ("parent", .optional(parent)), ("index", .number(Double(index))), ("type", .string(c.type)),
                ("size", size), ("content", .size(c.content)), ("insets", c.insets.map(JSON.edges) ?? .null),
                ("margin", .edges(c.margin)), ("grow", .number(c.grow)), ("shrink", .number(c.shrink)),
                ("alignSelf", .string(c.alignSelf.rawValue)), ("hidden", .bool(c.hidden)), ("separator", .object(sep)),
                ("stack", stack)]
    }

    static func configJSON(id: RowID, parent: RowID?, index: Int, _ c: RowConfig) -> JSON {
        .object(configFields(id: id, parent: parent, index: index, c))
    }
}

extension String {
    func replacingSpaces(with replacement: Character) -> String {
        String(map { $0 == " " ? replacement : $0 })
    }
}
