import Layout
import Store

/// `log export`: a document's log as a script of canonical commands. Running the script on an
/// empty database rebuilds the document (its `export` is identical) with the same history.
enum LogScript {
    /// The script's lines; `cancellation` is asked at each log entry (an import's rows are
    /// loaded under the store's own).
    static func lines(_ doc: StoredDocument, cancellation: Cancellation = .never) throws -> [String] {
        var lines = ["# stackdoc log of '\(doc.name)': run with  stackdoc --db :memory: FILE"]
        // Each command is one log entry of the rebuilt document; an import (always entry 1) is
        // an `import begin … import commit` block, which is one entry too. A compacted history
        // starts with such a block of the rows of its base snapshot (the state after entry
        // `historyBase`), which becomes entry 1, followed by the kept entries: a restore names
        // its target entry shifted by as many.
        var shift = 0
        if let base = try doc.compactedBase() {
            lines.append("# history compacted: it starts from the document after log entry \(doc.historyBase)")
            lines += try importLines(base, cancellation: cancellation)
            shift = 1 - doc.historyBase
        }
        var origins = OriginLines()
        for entry in try doc.log() {
            try cancellation.check()
            if let line = origins.line(before: entry) { lines.append(line) }
            switch entry.kind {
            case .newDocument:
                lines.append(newLine(doc.name, entry.settings ?? DocumentSettings()))
            case .importDocument:
                lines += try importLines(try doc.importedDocument(at: entry.seq), cancellation: cancellation)
            case .op, .view:
                guard let edit = entry.edit else { throw StackDocError("log entry \(entry.seq) has no operation") }
                lines.append(Printer.text(edit))
            case .undo:
                lines.append("undo \(entry.count ?? 1)")
            case .redo:
                lines.append("redo \(entry.count ?? 1)")
            case .begin:
                lines.append(Printer.text(Command.begin(label: entry.label)))
            case .commit:
                lines.append("commit")
            case .mark:
                lines.append(Printer.text(Command.mark(entry.label ?? "")))
            case .restore:
                guard let target = entry.target else { throw StackDocError("log entry \(entry.seq) has no target") }
                lines.append(Printer.text(Command.restore(.entry(target + shift))))
            }
        }
        return lines
    }

    /// The `as NAME` / `as none` lines that give each entry of the rebuilt log the origin it
    /// has: one before the first entry that records an origin, and one wherever it changes. The
    /// entry that creates the document (`new`, an import) records none and needs none.
    struct OriginLines {
        /// The origin the lines so far leave the session writing as (`.some(nil)`: `as none`);
        /// nil before the first `as`.
        private var current: String??

        mutating func line(before entry: LogEntry) -> String? {
            switch entry.kind {
            case .newDocument, .importDocument: return nil
            default: break
            }
            if let current, current == entry.origin { return nil }
            current = .some(entry.origin)
            return Printer.text(Command.writeAs(origin: entry.origin))
        }
    }

    static func newLine(_ name: String, _ s: DocumentSettings) -> String {
        Printer.text(Command.new(name: name, axis: s.axis, viewport: s.viewport, insets: s.viewportInsets == .zero ? nil : s.viewportInsets))
    }

    /// An imported document as an `import begin NAME AXIS viewport W H … import commit` block:
    /// its settings, its rows in document order, its offset; running it stores the same
    /// document as one `import` log entry (Session+ImportBlock).
    static func importLines(_ d: Document, cancellation: Cancellation = .never) throws -> [String] {
        let s = d.settings
        let base = DocumentSettings()
        var lines = [Printer.text(Command.importBegin(name: d.name, axis: s.axis, viewport: s.viewport))]
        var edits: [Edit] = []
        if s.padding != base.padding { edits.append(.setStack(.padding(s.padding))) }
        if s.spacing != base.spacing { edits.append(.setStack(.spacing(s.spacing))) }
        if s.justify != base.justify { edits.append(.setStack(.justify(s.justify))) }
        if s.align != base.align { edits.append(.setStack(.align(s.align))) }
        let dd = s.defaults, bd = base.defaults
        if dd.insets != bd.insets { edits.append(.defaults(.insets(dd.insets))) }
        var sep: [SeparatorSpec] = []
        if dd.separator.hidden != bd.separator.hidden { sep.append(dd.separator.hidden ? .hidden : .shown) }
        if dd.separator.insets != bd.separator.insets { sep.append(.insets(dd.separator.insets)) }
        if dd.separator.thickness != bd.separator.thickness { sep.append(.thickness(dd.separator.thickness)) }
        if dd.separator.color != bd.separator.color { sep.append(.color(dd.separator.color)) }
        if !sep.isEmpty { edits.append(.defaults(.separator(sep))) }
        if dd.autoHideLastSeparator != bd.autoHideLastSeparator { edits.append(.defaults(.autoHide(dd.autoHideLastSeparator))) }
        try d.forEachRow { id, parent, _, config in
            if edits.count % Cancellation.interval == 0 { try cancellation.check() }
            edits.append(.add(ids: [id], spec: spec(config), position: nil, parent: parent))
        }
        try cancellation.check()
        // View state last, the offset after the obscured edges it is clamped with.
        if s.viewportInsets != base.viewportInsets { edits.append(.obscured(.insets(viewport: nil, insets: s.viewportInsets))) }
        if s.keyboard != base.keyboard { edits.append(.obscured(.keyboard(s.keyboard))) }
        if s.offset != 0 { edits.append(.scroll(.offset(s.offset))) }
        lines += edits.map(Printer.text)
        lines.append(Printer.text(Command.importCommit))
        return lines
    }

    /// ROWSPEC words that give a fresh row exactly `c`.
    static func spec(_ c: RowConfig) -> [RowSpecItem] {
        let base = RowConfig()
        var items: [RowSpecItem] = []
        if c.type != base.type { items.append(.type(c.type)) }
        if case .fixed(let n) = c.size { items.append(.fixed(n)) }
        if c.content != base.content { items.append(.content(c.content)) }
        if let insets = c.insets { items.append(.insets(insets)) }
        if c.margin != base.margin { items.append(.margin(c.margin)) }
        if c.grow != base.grow { items.append(.grow(c.grow)) }
        if c.shrink != base.shrink { items.append(.shrink(c.shrink)) }
        if c.alignSelf != base.alignSelf { items.append(.align(c.alignSelf)) }
        if c.hidden { items.append(.hidden) }
        if let stack = c.stack {
            let b = StackSettings()
            items.append(.stack(stack.axis))
            if stack.justify != b.justify { items.append(.justify(stack.justify)) }
            if stack.align != b.align { items.append(.alignItems(stack.align)) }
            if stack.spacing != b.spacing { items.append(.spacing(stack.spacing)) }
        }
        if let h = c.separator.hidden { items.append(.separator(h ? .hidden : .shown)) }
        if let i = c.separator.insets { items.append(.separator(.insets(i))) }
        if let t = c.separator.thickness { items.append(.separator(.thickness(t))) }
        if let col = c.separator.color { items.append(.separator(.color(col))) }
        for field in RowField.optional {
            if let value = field.value(c), let item = RowSpecItem(field, value) { items.append(item) }
        }
        if let t = c.text { items.append(.text(t)) }
        if let a = c.aspect { items.append(.aspect(a)) }
        return items
    }
}
