import Layout
import Store

/// The canonical text of a command: what `log export` writes. Parsing the text gives the same
/// command back (a property test checks this on random commands).
public enum Printer {
    /// The canonical text of an operation (`add a b fixed 50 after x`).
    public static func text(_ edit: Edit) -> String {
        switch edit {
        case let .add(ids, spec, position, parent):
            // Built in place (a script of a big document prints one per row): the words of
            // `join(["add"] + ids + specs + [position] + [in parent])`.
            var line = "add"
            for (i, row) in ids.enumerated() { append(i == 0 ? id(row) : idBeforeSpecs(row), to: &line) }
            for item in spec { append(text(item), to: &line) }
            if let position { append(text(position), to: &line) }
            if let parent { append("in " + id(parent), to: &line) }
            return line
        case let .remove(ids):
            return join(["remove"] + ids.map(id))
        case let .clear(parent):
            return join(["clear", parent.map { "in " + id($0) }])
        case let .replace(old, new, spec):
            return join(["replace", id(old), "with", id(new)] + spec.map(text))
        case let .move(row, position, parent):
            let where_: String
            switch position {
            case .top: where_ = "to top"
            case .bottom: where_ = "to bottom"
            case .index(let i): where_ = "to \(i)"
            case .after(let r): where_ = "after " + id(r)
            case .before(let r): where_ = "before " + id(r)
            }
            return join(["move", id(row), where_, parent.map { "in " + id($0) }])
        case let .hide(ids):
            return join(["hide"] + ids.map(id))
        case let .show(ids):
            return join(["show"] + ids.map(id))
        case let .setRows(rows, spec):
            return join(["set"] + rows.enumerated().map { $0.offset == 0 ? id($0.element) : idBeforeSpecs($0.element) } + spec.map(text))
        case let .set(row, spec):
            return join(["set", id(row)] + spec.map(text))
        case let .setStack(setting):
            switch setting {
            case .axis(let a): return "set stack axis \(a.rawValue)"
            case .padding(let e): return "set stack padding \(edges(e))"
            case .spacing(let n): return "set stack spacing \(num(n))"
            case .justify(let j): return "set stack justify \(j.rawValue)"
            case .align(let a): return "set stack align \(a.rawValue)"
            }
        case let .defaults(spec):
            switch spec {
            case .insets(let e): return "defaults insets \(edges(e))"
            case .separator(let specs): return join(["defaults separator"] + specs.map(text))
            case .autoHide(let on): return "defaults autohide \(on ? "on" : "off")"
            }
        case let .scroll(spec):
            switch spec {
            case .offset(let v): return "scroll \(num(v))"
            case .by(let v): return "scroll by \(num(v))"
            case let .to(row, position): return "scroll to \(id(row)) \(position.rawValue)"
            case let .focus(row): return "focus \(id(row))"
            case let .stack(row, v):
                // A stack id that reads as a number (or as `by`/`to`) is quoted: bare, it is the root's offset.
                let bare = WordReader.parseNumber(row) == nil && row != "by" && row != "to"
                return "scroll \(bare ? id(row) : Tokenizer.quote(row, always: true)) \(num(v))"
            }
        case let .viewport(size):
            return "viewport \(num(size.width)) \(num(size.height))"
        case let .obscured(.insets(size?, insets)):
            return "viewport \(num(size.width)) \(num(size.height)) insets \(edges(insets))"
        case let .obscured(.insets(nil, insets)):
            return "viewport insets \(edges(insets))"
        case let .obscured(.safeArea(size?, safeArea)):
            return "viewport \(num(size.width)) \(num(size.height)) safe-area \(edges(safeArea))"
        case let .obscured(.safeArea(nil, safeArea)):
            return "viewport safe-area \(edges(safeArea))"
        case let .obscured(.keyboard(height)):
            return height.map { "keyboard \(num($0))" } ?? "keyboard off"
        }
    }

    /// The canonical words of one ROWSPEC item (`fixed 50`).
    public static func text(_ item: RowSpecItem) -> String {
        switch item {
        case .type(let t): return "type " + Tokenizer.quote(t)
        case .fixed(let n): return "fixed \(num(n))"
        case .fit: return "fit"
        case .content(let s): return "content \(num(s.width)) \(num(s.height))"
        case .insets(let e): return "insets \(edges(e))"
        case .insetsDefault: return "insets default"
        case .margin(let e): return "margin \(edges(e))"
        case .grow(let n): return "grow \(num(n))"
        case .shrink(let n): return "shrink \(num(n))"
        case .align(let a): return "align \(a.rawValue)"
        case .alignItems(let a): return "align-items \(a.rawValue)"
        case .sticky(let on): return on ? "sticky" : "sticky off"
        case .scrolls(let on): return on ? "scrolls" : "scrolls off"
        case .hidden: return "hidden"
        case .stack(let a): return "stack \(a.rawValue)"
        case .unstack: return "stack none"
        case .justify(let j): return "justify \(j.rawValue)"
        case .spacing(let n): return "spacing \(num(n))"
        case .separator(let s): return "separator " + text(s)
        case .text(let t): return t.map(textWords) ?? "text none"
        case .aspect(let a): return a.map { "aspect \(num($0.width)) \(num($0.height))" } ?? "aspect none"
        case .rowInsets(let e): return e.map { "row-insets \(edges($0))" } ?? "row-insets none"
        case .rowSeparator(let s): return "row-separator " + text(s)
        default:
            // The optional fields (`RowField.optional`): the word, then the value or `none`.
            guard let (field, value) = item.optionalField else { return "" }
            switch value {
            case let .number(n)?: return field.spec.word + " " + num(n)
            case let .text(t)?: return field.spec.word + " " + Tokenizer.quote(t)
            case nil: return field.spec.word + " none"
            }
        }
    }

    /// `text N char W line H` (every member, so that the words mean the same whatever the
    /// defaults are).
    static func textWords(_ t: TextRun) -> String {
        "text \(t.count) char \(num(t.glyphWidth)) line \(num(t.lineHeight))"
    }

    /// The canonical words of one SEPSPEC item (`color #FF0000`).
    public static func text(_ spec: SeparatorSpec) -> String {
        switch spec {
        case .hidden: return "hidden"
        case .shown: return "shown"
        case .insets(let e): return "insets \(edges(e))"
        case .thickness(let n): return "thickness \(num(n))"
        case .color(let c): return "color " + Tokenizer.quote(c)
        case .default: return "default"
        }
    }

    /// The canonical words of a position (`at top`, `after x`).
    public static func text(_ position: Position) -> String {
        switch position {
        case .top: return "at top"
        case .bottom: return "at bottom"
        case .index(let i): return "at \(i)"
        case .after(let r): return "after " + id(r)
        case .before(let r): return "before " + id(r)
        }
    }

    /// The canonical text of any command (the `command` field of the JSON envelope).
    /// A history reference as the parser reads it back (a mark name quoted when it is a keyword).
    static func ref(_ r: HistoryRef) -> String {
        if case .mark(let name) = r { return id(name) }
        return r.description
    }

    /// `NAME [AXIS] [viewport W H]` of `new` and `import begin`.
    static func documentWords(_ name: String, _ axis: Axis?, _ viewport: Size?) -> [String?] {
        [id(name), axis?.rawValue, viewport.map { "viewport \(num($0.width)) \(num($0.height))" }]
    }

    /// The canonical text of `command`, as `log export` writes it and the JSON `command`
    /// field shows it (parsing it gives `command` back).
    public static func text(_ command: Command) -> String {
        switch command {
        case let .new(name, axis, viewport, insets, safeArea):
            return join(["new"] + documentWords(name, axis, viewport) + [insets.map { "insets " + edges($0) },
                                                                        safeArea.map { "safe-area " + edges($0) }])
        case .open(let name): return "open " + id(name)
        case .close: return "close"
        case .docs: return "docs"
        case .drop(let name): return "drop " + id(name)
        case let .importDocument(path, name): return join(["import", id(path), name.map { "as " + id($0) }])
        case let .importBegin(name, axis, viewport):
            return join(["import begin"] + documentWords(name, axis, viewport))
        case .importCommit: return "import commit"
        case .importRollback: return "import rollback"
        case .export(let path): return join(["export", path.map(id)])
        case .edit(let edit): return text(edit)
        case .layout(let selection):
            return join(["layout", selection.visibleOnly ? "--visible" : nil,
                         selection.range.map { "--range \($0.lowerBound)..\($0.upperBound)" }])
        case .visible: return "visible"
        case .rows: return "rows"
        case .row(let r): return "row " + id(r)
        case .findType(let t): return "find type " + id(t)
        case let .hit(x, y): return "hit \(num(x)) \(num(y))"
        case .history: return "history"
        case .historyLast(let n): return "history \(n)"
        case .status: return "status"
        case .watch(let seconds): return join(["watch", seconds.map(num)])
        case .draw(let scale):
            switch scale {
            case .fit: return "draw"
            case .width(let n): return "draw --width \(n)"
            case .points(let s): return "draw --scale " + num(s)
            }
        case let .exportSVG(path, viewport): return "export svg " + id(path) + (viewport ? " --viewport" : "")
        case .undo(let n): return "undo \(n)"
        case .redo(let n): return "redo \(n)"
        case .undoAll(let n): return "undo --all \(n)"
        case .redoAll(let n): return "redo --all \(n)"
        case .begin(let label): return join(["begin", label.map { Tokenizer.quote($0) }])
        case .commit: return "commit"
        case .rollback: return "rollback"
        case .verify: return "verify"
        case .rebuildSnapshots: return "verify --rebuild-snapshots"
        case .logExport(let path): return "log export " + id(path)
        case .mark(let name): return join(["mark", name.map(id)])
        case .undoTo(let mark): return "undo to " + id(mark)
        case .redoTo(let mark): return "redo to " + id(mark)
        case .undoMine(let n): return "undo --mine \(n)"
        case .writeAs(let origin):
            // An origin named none is quoted: the bare word means no origin.
            return "as " + (origin.map { $0.lowercased() == "none" ? "\"\($0)\"" : id($0) } ?? "none")
        case let .diff(a, b): return join(["diff", ref(a), b.map(ref)])
        case .echo(let text): return join(["echo", text.isEmpty ? nil : Tokenizer.quote(text)])
        case .restore(let r): return "restore " + ref(r)
        case .compactHistory(let r): return join(["history compact", r.map { "before " + ref($0) }])
        case let .at(query, r): return text(query) + " --at " + ref(r)
        case .help(let topic): return join(["help", topic.map { Tokenizer.quote($0, keywordSafe: true) }])
        case .quit: return "quit"
        case .shell(.read(let path)): return "read " + id(path)
        case .shell(.output(let path)): return join(["output", path.map(id)])
        case .shell(.once(let path)): return "once " + id(path)
        case .shell(.timer(let on)): return "timer " + (on ? "on" : "off")
        case .csv(let query): return text(query) + " --csv"
        }
    }

    /// A value word (id, name, path): quoted when it would otherwise read as a keyword, a
    /// comment or several words.
    public static func id(_ value: String) -> String { Tokenizer.quote(value) }

    /// A row id where a ROWSPEC may start instead (the second and later ids of `add` and
    /// `set`): quoted also when it looks like a ROWSPEC keyword (`"fixd"`), which the parser
    /// refuses bare there.
    static func idBeforeSpecs(_ value: String) -> String {
        RowSpecWords.lookalike(value) == nil ? Tokenizer.quote(value) : Tokenizer.quote(value, always: true)
    }

    /// Free text (a group label, a path in a message line): as given when every character may
    /// be written raw, else in the language's quoted form with escapes (`"a\u{1b}b"`), so that a
    /// hostile label never reaches the terminal raw (issue 10: one escaping rule).
    public static func label(_ text: String) -> String {
        text.unicodeScalars.contains(where: \.isEscapedInText) ? Tokenizer.quote(text, keywordSafe: true) : text
    }

    static func num(_ v: Double) -> String { Format.number(v) }

    static func edges(_ e: Edges) -> String {
        "\(num(e.top)) \(num(e.left)) \(num(e.bottom)) \(num(e.right))"
    }

    private static func append(_ word: String, to line: inout String) {
        line.append(" ")
        line.append(word)
    }

    private static func join(_ parts: [String?]) -> String {
        parts.compactMap { $0 }.joined(separator: " ")
    }
}
