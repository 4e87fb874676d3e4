import Layout
import Store

/// One command of the language: how it is written, what it does, and how it is read. `help`
/// and the parser both come from `CommandTable.all`, so help cannot drift from the parser:
/// every command the parser knows has an entry, and a test parses every entry's examples.
struct CommandSpec: Sendable {
    let name: String
    let aliases: [String]
    let group: String
    /// One line per form, as SPEC §4.1 writes them.
    let usage: [String]
    let summary: String
    let details: String
    /// Lines that parse (checked by a test).
    let examples: [String]
    let parse: @Sendable (inout WordReader) throws -> Command

    init(_ name: String, aliases: [String] = [], group: String, usage: [String], summary: String,
         details: String = "", examples: [String], parse: @escaping @Sendable (inout WordReader) throws -> Command) {
        self.name = name
        self.aliases = aliases
        self.group = group
        self.usage = usage
        self.summary = summary
        self.details = details
        self.examples = examples
        self.parse = parse
    }
}

enum CommandTable {
    static let groups = ["Documents", "Rows", "View", "Queries", "History", "Session"]

    /// The command whose name or alias is `word` (case-insensitive).
    static func find(_ word: String) -> CommandSpec? {
        byName[word.keywordFolded]
    }

    /// Every name and alias, each to the first command in `all` that has it.
    private static let byName: [String: CommandSpec] = {
        var table: [String: CommandSpec] = [:]
        for spec in all {
            for name in [spec.name] + spec.aliases where table[name] == nil { table[name] = spec }
        }
        return table
    }()

    /// The command a mistyped word most likely meant (`hid` → `hide`, sqlite3's `.read` →
    /// `read`): the nearest name or alias at an edit distance of at most 2 (1 for words of up to
    /// 5 letters), or nil.
    static func suggestion(for word: String) -> String? {
        var typed = word.lowercased()
        if typed.hasPrefix(".") || typed.hasPrefix("\\") { typed.removeFirst() }
        guard !typed.isEmpty, typed.count <= 32 else { return nil }
        let limit = typed.count <= 5 ? 1 : 2
        var best: (name: String, distance: Int)?
        for name in all.flatMap({ [$0.name] + $0.aliases }) {
            let d = editDistance(typed, name)
            if d <= limit, d < (best?.distance ?? Int.max) { best = (name, d) }
        }
        return best?.name
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    static let all: [CommandSpec] = documents + rowCommands + view + queries + history + session

    // MARK: Documents

    static let documents: [CommandSpec] = [
        CommandSpec("new", group: "Documents", usage: ["new NAME [vertical|horizontal] [viewport W H [insets T L B R] [safe-area T L B R]]"],
                    summary: "create a document and open it",
                    details: "NAME is [A-Za-z0-9_.-]{1,64} and unique in the database. The axis defaults to vertical, the viewport to 390 × 844; 'insets' are its obscured edges and 'safe-area' its safe area, as 'viewport W H insets T L B R' and 'viewport W H safe-area T L B R' set them. When 'new' fails, no document is open afterwards (the lines after it never edit the one open before).",
                    examples: ["new feed", "new strip horizontal viewport 800 120", "new phone viewport 390 844 insets 47 0 34 0",
                               "new phone viewport 390 844 safe-area 47 0 34 0"]) { r in
            let (name, axis, viewport) = try newDocument(&r, after: "new", insets: true)
            var insets: Edges?, safeArea: Edges?
            if viewport != nil, r.consume("insets") { insets = try r.edges(after: "insets") }
            if viewport != nil, r.consume("safe-area") { safeArea = try r.edges(after: "safe-area") }
            return .new(name: name, axis: axis, viewport: viewport, insets: insets, safeArea: safeArea)
        },
        CommandSpec("open", group: "Documents", usage: ["open NAME"], summary: "open a document of the database",
                    details: "When 'open' fails, no document is open afterwards (the lines after it never edit the one open before).",
                    examples: ["open feed"]) { r in
            .open(name: try r.value("a document name", after: "open"))
        },
        CommandSpec("close", group: "Documents", usage: ["close"], summary: "close the open document",
                    examples: ["close"]) { _ in .close },
        CommandSpec("docs", group: "Documents", usage: ["docs"], summary: "list the documents of the database",
                    examples: ["docs"]) { _ in .docs },
        CommandSpec("drop", group: "Documents", usage: ["drop NAME"], summary: "delete a document and its history",
                    examples: ["drop feed"]) { r in
            .drop(name: try r.value("a document name", after: "drop"))
        },
        CommandSpec("import", group: "Documents",
                    usage: ["import PATH [as NAME]", "import begin NAME [vertical|horizontal] [viewport W H]", "import commit", "import rollback"],
                    summary: "create a document from a stackdoc/1 JSON file (or an 'import begin' block) and open it",
                    details: "The document takes the file's name unless 'as NAME' is given. 'import begin NAME' starts a document in memory (as 'new' would make it, stored nowhere yet); the lines up to 'import commit' are edits that build it ('add', 'set stack', 'defaults', 'scroll'…; each prints 'pending in import'), and 'import commit' stores it exactly as 'import' stores a file: one transaction and one log entry (like any import, not an undo step), and opens it. 'import rollback' drops it. Inside the block nothing else runs. 'log export' writes an imported document as such a block. Quote a file named begin, commit or rollback: import \"begin\".",
                    examples: ["import saved.json", "import saved.json as copy", "import begin feed viewport 390 844", "import commit", "import rollback"]) { r in
            if r.consume("begin") {
                let (name, axis, viewport) = try newDocument(&r, after: "begin")
                return .importBegin(name: name, axis: axis, viewport: viewport)
            }
            if r.consume("commit") { return .importCommit }
            if r.consume("rollback") { return .importRollback }
            let path = try r.value("a file path", after: "import")
            var name: String?
            if r.consume("as") { name = try r.value("a document name", after: "as") }
            return .importDocument(path: path, name: name)
        },
        CommandSpec("export", group: "Documents", usage: ["export [PATH] [--at REF]", "export svg PATH [--viewport]"],
                    summary: "write the open document as stackdoc/1 JSON (to standard output without PATH), or as an SVG picture",
                    details: "'export svg PATH' draws the whole content at 1 unit per point: every row's frame coloured by its visibility (entire green, partial orange with its percentage, offscreen grey; stack rows dashed), content frames, separators, ids, text rows' wrapped lines, aspect rows' diagonals, sticky rows' leading edges, the viewport outlined in red with its obscured insets greyed and the keyboard shaded, and beside it a legend and the hidden rows. Ids are clipped to their boxes, or written beside a box too small for them, dark on light fills and light on dark ones; a row wider than the viewport is drawn whole. '--viewport' draws just what the viewport shows, at screen scale (the picture is the viewport's size). Quote a JSON file named svg: export \"svg\".",
                    examples: ["export", "export saved.json", "export svg picture.svg", "export svg screen.svg --viewport", "export --at 3", "export old.json --at v1"]) { r in
            if r.consume("svg") {
                let path = try r.value("a file path", after: "svg")
                return .exportSVG(path: path, viewport: r.consume("--viewport"))
            }
            var at = try atRef(&r)
            if r.atEnd { return withAt(.export(path: nil), at) }
            let path = try r.value("a file path", after: "export")
            if at == nil { at = try atRef(&r) }
            return withAt(.export(path: path), at)
        },
    ]

    /// `NAME [vertical|horizontal] [viewport W H]` of `new` and `import begin` (with `insets`,
    /// it stops before an `insets` or a `safe-area` after the viewport, which `new` reads).
    static func newDocument(_ r: inout WordReader, after: String, insets: Bool = false) throws -> (String, Axis?, Size?) {
        let name = try r.value("a document name", after: after)
        var axis: Axis?
        var viewport: Size?
        while !r.atEnd {
            if insets, viewport != nil, let t = r.peek(), t.isKeyword("insets") || t.isKeyword("safe-area") { break }
            if axis == nil, let t = r.peek(), !t.quoted, Axis.allCases.contains(where: { $0.rawValue == t.text.lowercased() }) {
                axis = try r.choice(Axis.self)
            } else if viewport == nil, r.consume("viewport") {
                viewport = try r.size(after: "viewport")
            } else {
                throw r.expected(axis == nil ? "vertical, horizontal or 'viewport W H'" : "'viewport W H'")
            }
        }
        return (name, axis, viewport)
    }

    // MARK: Rows

    static let positionHelp = "at top|bottom|INDEX | after ROW | before ROW"

    static func isPositionStart(_ t: Token?) -> Bool {
        guard let t else { return false }
        return t.isKeyword("at") || t.isKeyword("after") || t.isKeyword("before")
    }

    /// `at top|bottom|INDEX | after ROW | before ROW`.
    static func parsePosition(_ r: inout WordReader) throws -> Position {
        if r.consume("at") {
            if r.consume("top") { return .top }
            if r.consume("bottom") { return .bottom }
            return .index(try r.count("top, bottom or an index (a whole number ≥ 0)", after: "at"))
        }
        if r.consume("after") { return .after(try r.value("a row id", after: "after")) }
        if r.consume("before") { return .before(try r.value("a row id", after: "before")) }
        throw r.expected("'at', 'after' or 'before'")
    }

    /// Row ids up to the first keyword of `stopWords` or ROWSPEC.
    static func parseIDs(_ r: inout WordReader, after: String, stopAtSpecs: Bool) throws -> [RowID] {
        var ids: [RowID] = []
        while let t = r.peek() {
            if stopAtSpecs && (RowSpecWords.startsSpec(t) || isPositionStart(t) || t.isKeyword("in")) { break }
            // After the first id a ROWSPEC may start: a typo of one of its words is refused.
            if stopAtSpecs, !ids.isEmpty { try RowSpecWords.refuseLookalike(t) }
            ids.append(t.text)
            _ = r.next()
        }
        if ids.isEmpty { throw r.expected("a row id", after: after) }
        return ids
    }

    static let rowCommands: [CommandSpec] = [
        CommandSpec("add", group: "Rows",
                    usage: ["add ROW [ROW …] [ROWSPEC…] [at top|bottom|INDEX | after ROW | before ROW] [in ROW]"],
                    summary: "add rows (several ids add several rows in the given order)",
                    details: "Rows go to the bottom of the stack unless a position is given; 'in ROW' adds them to a stack row. ROWSPEC applies to every new row; see 'help rowspec'. Quote an id that is also a keyword: add \"top\".",
                    examples: ["add header fixed 60", "add a b c content 390 44 at top",
                               "add title type label fixed 20 after header in card", "add card stack vertical spacing 8"]) { r in
            let ids = try parseIDs(&r, after: "add", stopAtSpecs: true)
            var specs: [RowSpecItem] = []
            var position: Position?
            var parent: RowID?
            while let t = r.peek() {
                if RowSpecWords.startsSpec(t) {
                    specs += try RowSpecWords.parseMany(&r)
                } else if isPositionStart(t) {
                    if position != nil { throw CommandError(.syntax(.secondPosition(command: "add", at: t.text))) }
                    position = try parsePosition(&r)
                } else if t.isKeyword("in") {
                    if parent != nil { throw CommandError(.syntax(.secondParent(command: "add"))) }
                    _ = r.next()
                    parent = try r.value("a stack row id", after: "in")
                } else {
                    try RowSpecWords.refuseLookalike(t)
                    throw r.expected("\(RowSpecWords.expectation), a position (\(positionHelp)) or 'in ROW'")
                }
            }
            return .edit(.add(ids: ids, spec: specs, position: position, parent: parent))
        },
        CommandSpec("remove", group: "Rows", usage: ["remove ROW [ROW …]"],
                    summary: "remove rows with everything inside them (all or nothing)",
                    examples: ["remove a", "remove a b c"]) { r in
            .edit(.remove(ids: try parseIDs(&r, after: "remove", stopAtSpecs: false)))
        },
        CommandSpec("clear", group: "Rows", usage: ["clear [in ROW]"],
                    summary: "remove every row of the document, or of a stack row",
                    examples: ["clear", "clear in card"]) { r in
            if r.consume("in") { return .edit(.clear(parent: try r.value("a stack row id", after: "in"))) }
            return .edit(.clear(parent: nil))
        },
        CommandSpec("replace", group: "Rows", usage: ["replace ROW with NEWROW [ROWSPEC…]"],
                    summary: "put a new row in a row's place",
                    details: "The old row (with its rows) goes; NEWROW takes its parent and index, with ROWSPEC applied to a fresh row.",
                    examples: ["replace a with b fixed 30"]) { r in
            let id = try r.value("a row id", after: "replace")
            try r.expect("with", after: id)
            let newID = try r.value("the new row's id", after: "with")
            let specs = try RowSpecWords.parseMany(&r)
            try RowSpecWords.finish(r)
            return .edit(.replace(id: id, newID: newID, spec: specs))
        },
        CommandSpec("move", group: "Rows", usage: ["move ROW to INDEX|top|bottom | after ROW | before ROW [in ROW]", "move ROW in ROW"],
                    summary: "move a row (with its rows) to another place, possibly into another stack",
                    details: "INDEX counts the rows of the target stack (hidden ones included) after the row has left its old place. 'move ROW in STACK' appends it to the stack (as 'to bottom in STACK').",
                    examples: ["move a to top", "move a to 2 in card", "move a after b", "move a before b", "move a in card"]) { r in
            let id = try r.value("a row id", after: "move")
            let position: Position
            if r.consume("to") {
                if r.consume("top") { position = .top }
                else if r.consume("bottom") { position = .bottom }
                else { position = .index(try r.count("top, bottom or an index (a whole number ≥ 0)", after: "to")) }
            } else if r.consume("after") {
                position = .after(try r.value("a row id", after: "after"))
            } else if r.consume("before") {
                position = .before(try r.value("a row id", after: "before"))
            } else if let t = r.peek(), t.isKeyword("in") {
                position = .bottom  // `move ROW in STACK`: appended
            } else {
                throw r.expected("'to', 'after', 'before' or 'in'")
            }
            var parent: RowID?
            if r.consume("in") { parent = try r.value("a stack row id", after: "in") }
            return .edit(.move(id: id, position: position, parent: parent))
        },
        CommandSpec("hide", group: "Rows", usage: ["hide ROW [ROW …]"], summary: "hide rows (they keep their place and take no space)",
                    examples: ["hide a", "hide a b"]) { r in
            .edit(.hide(ids: try parseIDs(&r, after: "hide", stopAtSpecs: false)))
        },
        CommandSpec("show", group: "Rows", usage: ["show ROW [ROW …]"], summary: "show hidden rows again",
                    examples: ["show a", "show a b"]) { r in
            .edit(.show(ids: try parseIDs(&r, after: "show", stopAtSpecs: false)))
        },
        CommandSpec("set", group: "Rows",
                    usage: ["set ROW [ROW …] ROWSPEC…", "set stack axis A | padding T L B R | spacing N | justify J | align A"],
                    summary: "change rows' config, or a setting of the document's root stack",
                    details: "Several rows take the same ROWSPEC in one operation and one undo step, all or nothing: one unknown id and nothing changes. ROWSPEC groups apply left to right, a later one wins; see 'help rowspec'. 'set stack' takes one setting; quote a row named stack: set \"stack\" fixed 10.",
                    examples: ["set a fixed 120 insets 0 0 0 0", "set a separator hidden separator thickness 2", "set a b c insets 0 0 0 0",
                               "set stack axis horizontal", "set stack padding 8 0 8 0", "set stack spacing 4",
                               "set stack justify center", "set stack align start"]) { r in
            if let t = r.peek(), t.isKeyword("stack") {
                _ = r.next()
                if r.consume("axis") { return .edit(.setStack(.axis(try r.choice(Axis.self, after: "axis")))) }
                if r.consume("padding") { return .edit(.setStack(.padding(try r.edges(after: "padding")))) }
                if r.consume("spacing") { return .edit(.setStack(.spacing(try r.number(after: "spacing")))) }
                if r.consume("justify") { return .edit(.setStack(.justify(try r.choice(Justify.self, after: "justify")))) }
                if r.consume("align") { return .edit(.setStack(.align(try r.choice(Align.self, after: "align")))) }
                throw r.expected("axis, padding, spacing, justify or align", after: "stack")
            }
            let first = try r.value("a row id or 'stack'", after: "set")
            let afterFirst = r
            var ids = [first]
            while let t = r.peek(), !RowSpecWords.startsSpec(t) {
                try RowSpecWords.refuseLookalike(t)
                ids.append(t.text)
                _ = r.next()
            }
            let specs = try RowSpecWords.parseMany(&r)
            // No spec at all: the word after the first id should have started one.
            if specs.isEmpty { throw afterFirst.expected(RowSpecWords.expectation) }
            try RowSpecWords.finish(r)
            return .edit(ids.count == 1 ? .set(id: ids[0], spec: specs) : .setRows(ids: ids, spec: specs))
        },
        CommandSpec("defaults", group: "Rows",
                    usage: ["defaults insets T L B R [in STACK] | separator SEPSPEC… [in STACK] | autohide on|off"],
                    summary: "change the document's live defaults (rows that override nothing follow them)",
                    details: "'autohide' hides the separator of the last visible row of each stack. 'in STACK' sets the defaults of the rows inside that stack instead, at any depth: their insets until a nested stack sets its own (the same as 'set STACK row-insets T L B R'), their separator overrides under a nested stack's and a row's own (the same as 'set STACK row-separator SEPSPEC …'). See 'help sepspec'.",
                    examples: ["defaults insets 8 16 8 16", "defaults insets 0 0 0 0 in field",
                               "defaults separator thickness 0.5 color #E0E0E0", "defaults separator insets 0 0 0 0 in field",
                               "defaults autohide off"]) { r in
            if r.consume("insets") {
                let e = try r.edges(after: "insets")
                if r.consume("in") { return .edit(.set(id: try r.value("a stack row id", after: "in"), spec: [.rowInsets(e)])) }
                return .edit(.defaults(.insets(e)))
            }
            if r.consume("separator") {
                let specs = try SeparatorWords.parseMany(&r, after: "separator")
                if r.consume("in") { return .edit(.set(id: try r.value("a stack row id", after: "in"), spec: specs.map(RowSpecItem.rowSeparator))) }
                return .edit(.defaults(.separator(specs)))
            }
            if r.consume("autohide") {
                if r.consume("on") { return .edit(.defaults(.autoHide(true))) }
                if r.consume("off") { return .edit(.defaults(.autoHide(false))) }
                throw r.expected("on or off", after: "autohide")
            }
            throw r.expected("insets, separator or autohide", after: "defaults")
        },
    ]

    // MARK: View

    static let view: [CommandSpec] = [
        CommandSpec("scroll", group: "View",
                    usage: ["scroll OFFSET", "scroll by D", "scroll to ROW [top|middle|bottom|auto]", "scroll STACK OFFSET"],
                    summary: "move the viewport along the main axis (clamped to the content)",
                    details: "'scroll to ROW' puts the row at the top of the viewport unless another position is given; 'auto' moves as little as shows the row, and a row inside stacks that scroll on their own ('scrolls') scrolls them first, the innermost first. 'scroll STACK OFFSET' scrolls such a stack along its axis (clamped to its content). Scrolling is logged and replayed but is not an undo step.",
                    examples: ["scroll 200", "scroll by -50", "scroll to footer", "scroll to footer bottom", "scroll car 120"]) { r in
            if r.consume("by") { return .edit(.scroll(.by(try r.number("a distance (a number)", after: "by")))) }
            if r.consume("to") {
                let row = try r.value("a row id", after: "to")
                if r.atEnd { return .edit(.scroll(.to(row, .top))) }
                return .edit(.scroll(.to(row, try r.choice(ScrollPosition.self))))
            }
            if let t = r.peek(), t.quoted || WordReader.parseNumber(t.text) == nil {
                let stack = try r.value("a stack row id", after: "scroll")
                return .edit(.scroll(.stack(stack, try r.number("an offset (a number)", after: stack))))
            }
            return .edit(.scroll(.offset(try r.number("an offset (a number), 'by D', 'to ROW' or 'STACK OFFSET'", after: "scroll"))))
        },
        CommandSpec("viewport", group: "View", usage: ["viewport W H", "viewport W H insets T L B R", "viewport insets T L B R",
                                                       "viewport W H safe-area T L B R", "viewport safe-area T L B R"],
                    summary: "resize the viewport and set its obscured edges or its safe area (logged and replayed, not an undo step)",
                    details: "'insets T L B R' are the edges bars cover: visibility is computed against the rest (the unobscured rectangle), 'scroll to' and 'focus' aim at it, sticky rows stick below its top (or right of its left) edge, and the content can scroll until its end meets the unobscured bottom. 'safe-area T L B R' are obscured edges too that also extend the scroll range (UIScrollView's adjusted content inset): at offset 0 the first row rests below the top one, at the largest offset the last row ends above the bottom one. An edge both set is obscured as far as the larger reaches. 'viewport W H' keeps both; 'viewport insets …' and 'viewport safe-area …' keep the size.",
                    examples: ["viewport 320 568", "viewport 390 844 insets 47 0 34 0", "viewport insets 0 0 0 0",
                               "viewport 390 844 safe-area 47 0 34 0", "viewport safe-area 0"]) { r in
            if r.consume("insets") { return .edit(.obscured(.insets(viewport: nil, insets: try r.edges(after: "insets")))) }
            if r.consume("safe-area") { return .edit(.obscured(.safeArea(viewport: nil, safeArea: try r.edges(after: "safe-area")))) }
            let size = try r.size(after: "viewport")
            if r.consume("insets") { return .edit(.obscured(.insets(viewport: size, insets: try r.edges(after: "insets")))) }
            if r.consume("safe-area") { return .edit(.obscured(.safeArea(viewport: size, safeArea: try r.edges(after: "safe-area")))) }
            return .edit(.viewport(size))
        },
        CommandSpec("keyboard", group: "View", usage: ["keyboard H", "keyboard off"],
                    summary: "a keyboard H points tall covers the viewport's bottom edge (logged and replayed, not an undo step)",
                    details: "The obscured bottom edge is the larger of the keyboard and the bottom inset. 'keyboard 0' is 'keyboard off'.",
                    examples: ["keyboard 336", "keyboard off"]) { r in
            if r.consume("off") { return .edit(.obscured(.keyboard(nil))) }
            return .edit(.obscured(.keyboard(try r.number("a height (a number) or 'off'", after: "keyboard"))))
        },
        CommandSpec("focus", group: "View", usage: ["focus ROW"],
                    summary: "scroll the row into view above the keyboard (the 'auto' rule against the unobscured rectangle)",
                    details: "Leaves the offset alone when the row lies inside the unobscured part of the viewport; otherwise the smallest move that shows it (its top edge at the unobscured top when it is longer than the unobscured part). Logged and replayed, not an undo step.",
                    examples: ["focus email"]) { r in
            .edit(.scroll(.focus(try r.value("a row id", after: "focus"))))
        },
    ]

    // MARK: Queries

    static let queries: [CommandSpec] = [
        CommandSpec("layout", group: "Queries", usage: ["layout [--visible] [--range FIRST..LAST] [--csv] [--at REF]"],
                    summary: "the layout table: index, id, type, frame, visibility, and the content size",
                    details: "On big documents print only what you need: '--visible' keeps the rows the viewport shows (entire or partial); '--range FIRST..LAST' keeps the rows at those document-order positions (0-based, inclusive, every row at every depth counted). Both together keep the rows that pass both. The content size is always printed. '--csv' prints the rows as CSV for spreadsheets (with --json the result stays the SPEC one).",
                    examples: ["layout", "layout --visible", "layout --range 0..99", "layout --visible --range 10..20", "layout --visible --csv", "layout --at now~2"]) { r in
            var selection = LayoutSelection()
            var csv = false
            var at: HistoryRef?
            while let t = r.peek() {
                if t.isKeyword("--csv") {
                    _ = r.next()
                    csv = true
                    continue
                }
                if at == nil, let ref = try atRef(&r) {
                    at = ref
                } else if t.isKeyword("--visible") {
                    _ = r.next()
                    selection.visibleOnly = true
                } else if t.isKeyword("--range") {
                    _ = r.next()
                    selection.range = try parseRange(&r)
                } else {
                    throw r.expected("--visible, --range FIRST..LAST, --csv or --at REF")
                }
            }
            let query = withAt(.layout(selection), at)
            return csv ? .csv(query) : query
        },
        CommandSpec("visible", group: "Queries", usage: ["visible [--csv]"],
                    summary: "the rows the viewport shows, with their visibility and percentage",
                    details: "'--csv' prints the table as CSV for spreadsheets (with --json the result stays the JSON one).",
                    examples: ["visible", "visible --csv"]) { r in
            r.consume("--csv") ? .csv(.visible) : .visible
        },
        CommandSpec("rows", group: "Queries", usage: ["rows [--csv] [--at REF]"],
                    summary: "every row's config: depth, id, type, size, content, insets, flags",
                    details: "'--csv' prints the table as CSV for spreadsheets (with --json the result stays the JSON one).",
                    examples: ["rows", "rows --csv", "rows --at 4"]) { r in
            let csv = r.consume("--csv")
            let query = withAt(.rows, try atRef(&r))
            return csv || r.consume("--csv") ? .csv(query) : query
        },
        CommandSpec("row", group: "Queries", usage: ["row ROW"], summary: "one row's config and layout",
                    examples: ["row header"]) { r in
            .row(try r.value("a row id", after: "row"))
        },
        CommandSpec("find", group: "Queries", usage: ["find type T"], summary: "the ids of every row of type T, in document order",
                    examples: ["find type label"]) { r in
            try r.expect("type", after: "find")
            return .findType(try r.value("a type name", after: "type"))
        },
        CommandSpec("hit", group: "Queries", usage: ["hit X Y"],
                    summary: "the deepest row whose frame contains the point (content coordinates)",
                    examples: ["hit 100 250"]) { r in
            let v = try r.numbers(2, names: ["X", "Y"], after: "hit")
            return .hit(x: v[0], y: v[1])
        },
        CommandSpec("history", group: "Queries", usage: ["history [N]", "history compact [before REF]"],
                    summary: "the undo steps (number, log entries, state, origin, label) and the marks; 'compact' drops old entries",
                    details: "'history N' shows the last N steps (with every mark). Each step names the log entries it covers: a log entry number is a REF of '--at', 'diff' and 'restore' (the document right after that entry). The origin is who made the step ('--as NAME' or 'as NAME', else the user name; '-' when none was recorded). 'history compact before REF' drops the log entries before REF's entry ('history compact': all of them), for long-lived documents: the document and the history from REF on stay exact; the state the kept entries start from is stored as a snapshot that open, replay, 'verify' and 'log export' start from; undo cannot go past it; '--at', 'diff' and 'restore' refuse the dropped entries; the marks among them are dropped (it says which). Refused inside a group, and for a point that a later undo, redo or restore reaches behind (it names the entry). " + refHelp,
                    examples: ["history", "history 5", "history compact before v1", "history compact"]) { r in
            if let t = r.peek(), !t.isKeyword("compact") { return .historyLast(try positiveCount(&r, after: "history")) }
            guard r.consume("compact") else { return .history }
            guard r.consume("before") else { return .compactHistory(nil) }
            return .compactHistory(try r.ref(after: "before"))
        },
        CommandSpec("watch", group: "Queries", usage: ["watch [SECONDS]"],
                    summary: "print each change another session commits to the open document as it arrives, for SECONDS or until Ctrl-C",
                    details: "First the changes committed since this session last looked, then each one within 100 ms of its commit: its log entry, step, origin, label and what it changed. This session's own changes are never shown. SECONDS is a number ≥ 0 ('watch 0' only catches up); without it the watch lasts until Ctrl-C, which ends the watch and not stackdoc (in a script too: the script goes on). With --json each change is one line {\"change\":…} before the command's reply. At the prompt, changes other sessions committed since the last command are announced in one line before the next prompt.",
                    examples: ["watch 30", "watch 0", "watch"]) { r in
            guard !r.atEnd else { return .watch(seconds: nil) }
            let what = "a number of seconds ≥ 0"
            let saved = r
            let seconds = try r.number(what, after: "watch")
            guard seconds >= 0, seconds <= Session.longestWatch else { throw saved.expected(what, after: "watch") }
            return .watch(seconds: seconds)
        },
        CommandSpec("status", group: "Queries", usage: ["status"],
                    summary: "the database, the open document, its size, offset, history position and open transaction",
                    examples: ["status"]) { _ in .status },
        CommandSpec("draw", group: "Queries", usage: ["draw [--width N | --scale S] [--at REF]"],
                    summary: "a character picture of the viewport",
                    details: "Scale: one line is twice as many points down as one column is across, the viewport's top-left at the picture's top-left; the first line names the scale. By default one column is 10 points, or the smallest whole number of points that fits the viewport in 80 columns (and 200 lines). '--width N' makes the viewport N columns wide (1 to \(Drawing.maxCells)); '--scale S' makes one column S points (S > 0); the picture may have at most \(Drawing.maxCells) columns and lines. Each row is a box of + - | with its id inside; rows cut by the viewport edge are cut at the edge (no closing border there). Nested rows draw inside their stack, which keeps its id in its top border; an id that another would cover moves right or down in its box, and ids of different rows on one line are separated by a blank. When ids are cut to fit their boxes, a last line names a finer '--scale' that shows them. A text row's id is followed by its line count ('caption [3 lines]') and its wrapped lines show as ~, an aspect row's by its ratio ('photo [16:9]'), a sticky row's by [sticky] ([stuck] while it is moved), when they fit.",
                    examples: ["draw", "draw --width 40", "draw --scale 5", "draw --at v1", "draw --width 120 --at v1"]) { r in
            var scale = DrawScale.fit
            if r.consume("--width") {
                let what = "a width in columns (a whole number from 1 to \(Drawing.maxCells))"
                let saved = r
                let n = try r.count(what, after: "--width")
                guard (1...Drawing.maxCells).contains(n) else { throw saved.expected(what, after: "--width") }
                scale = .width(n)
            } else if r.consume("--scale") {
                let what = "points per column (a number > 0)"
                let saved = r
                let s = try r.number(what, after: "--scale")
                guard s > 0 else { throw saved.expected(what, after: "--scale") }
                scale = .points(s)
            }
            return withAt(.draw(scale), try atRef(&r))
        },
        CommandSpec("diff", group: "Queries", usage: ["diff REF [REF]"],
                    summary: "what changed from the first point of the history to the second (now by default)",
                    details: "Rows added, removed, moved (old → new parent and index) and changed (each config field, old → new), their frames in both versions laid out at the current viewport, and the settings that differ. Only rows the changes between the two points touched are compared, so a diff costs what changed, not the document's size. " + refHelp,
                    examples: ["diff 3", "diff v1 v2", "diff now~5 now"]) { r in
            let a = try r.ref(after: "diff")
            return .diff(a, r.atEnd ? nil : try r.ref(after: Printer.ref(a)))
        },
    ]

    /// What REF means (help of every command that takes one).
    static let refHelp = "REF is a log entry number (the document right after it; 'history' shows each step's entries), a mark name, 'now', or 'now~N' (N entries before the last)."

    /// `--at REF` when it comes next (nil otherwise).
    static func atRef(_ r: inout WordReader) throws -> HistoryRef? {
        guard r.consume("--at") else { return nil }
        return try r.ref(after: "--at")
    }

    /// `query`, answered at `at` when given.
    static func withAt(_ query: Command, _ at: HistoryRef?) -> Command {
        at.map { .at(query, $0) } ?? query
    }

    static func parseRange(_ r: inout WordReader) throws -> ClosedRange<Int> {
        let what = "a range FIRST..LAST (whole numbers, FIRST ≤ LAST)"
        guard let t = r.peek(), !t.quoted else { throw r.expected(what, after: "--range") }
        let parts = t.text.split(separator: ".", omittingEmptySubsequences: false).count == 3 ? t.text.split(separator: ".", omittingEmptySubsequences: false).enumerated().filter { $0.offset != 1 }.map { String($0.element) } : []
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a <= b,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else {
            throw r.expected(what, after: "--range")
        }
        _ = r.next()
        return a...b
    }

    // MARK: History

    static let history: [CommandSpec] = [
        CommandSpec("undo", group: "History", usage: ["undo [N]", "undo --all [N]", "undo to MARK", "undo --mine [N]"], summary: "revert your last N undo steps (1 by default)",
                    details: "'undo' reverts the last N steps of this session's origin ('--as NAME' or 'as NAME', else the user name): as the document's last steps when nobody else wrote since, else as a new step that reverts only the rows and fields your steps changed, refused when a later step of someone else changed the same (the error names it). 'undo --all [N]' reverts the document's last N steps whoever made them. 'undo to MARK' reverts the steps made since the mark, in one command. 'undo --mine [N]' reverts your last N steps only when no step of another origin came after them (the error names the step that blocks it).",
                    examples: ["undo", "undo 3", "undo --all", "undo to v1", "undo --mine", "undo --mine 2"]) { r in
            if r.consume("to") { return .undoTo(mark: try markName(&r, after: "to")) }
            if r.consume("--all") { return .undoAll(r.atEnd ? 1 : try positiveCount(&r, after: "--all")) }
            if r.consume("--mine") { return .undoMine(r.atEnd ? 1 : try positiveCount(&r, after: "--mine")) }
            return .undo(r.atEnd ? 1 : try positiveCount(&r, after: "undo"))
        },
        CommandSpec("redo", group: "History", usage: ["redo [N]", "redo --all [N]", "redo to MARK"], summary: "re-apply your last N undone steps (1 by default)",
                    details: "'redo' re-applies the last N steps of this session's origin that 'undo' reverted: as the document's next steps when they are, else as a new step, refused when a later step of someone else changed the same rows and fields. 'redo --all [N]' re-applies the document's next N undone steps whoever made them. 'redo to MARK' re-applies the undone steps up to the mark, in one command.",
                    examples: ["redo", "redo 3", "redo --all", "redo to v1"]) { r in
            if r.consume("to") { return .redoTo(mark: try markName(&r, after: "to")) }
            if r.consume("--all") { return .redoAll(r.atEnd ? 1 : try positiveCount(&r, after: "--all")) }
            return .redo(r.atEnd ? 1 : try positiveCount(&r, after: "redo"))
        },
        CommandSpec("mark", group: "History", usage: ["mark NAME", "mark"],
                    summary: "put a named point on the history ('mark' alone lists the marks)",
                    details: "A mark is logged and replayed ('log export' keeps it) but is not an undo step. Names are 1 to 64 characters of A-Z a-z 0-9 _ . - starting with a letter or _, unique in the document, and not 'now'. 'undo to NAME' and 'redo to NAME' move there; '--at NAME', 'diff NAME' and 'restore NAME' use it as a REF.",
                    examples: ["mark", "mark v1", "mark before-cleanup"]) { r in
            .mark(r.atEnd ? nil : try markName(&r, after: "mark"))
        },
        CommandSpec("as", group: "History", usage: ["as NAME", "as none"],
                    summary: "record the later steps, marks and other log entries as made by NAME",
                    details: "The origin 'history' shows per step and 'undo --mine' goes by: 'as NAME' does from here on what '--as NAME' does from the start, until the next 'as' (one in a file that 'read' runs stays in effect after it). NAME is 1 to 64 characters of A-Z a-z 0-9 _ . - : @ (quoted, \"none\" is a name). 'as none' records no origin, as the entries written before origins were recorded. 'log export' writes 'as NAME' before each entry whose origin differs from the one before, so the rebuilt history has the same origins.",
                    examples: ["as ann", "as build-bot:42", "as none", "as \"none\""]) { r in
            if r.consume("none") { return .writeAs(origin: nil) }
            let what = "an origin (1 to 64 characters of A-Z a-z 0-9 _ . - : @) or none"
            guard let t = r.peek(), StoredDocument.isValidOrigin(t.text) else { throw r.expected(what, after: "as") }
            _ = r.next()
            return .writeAs(origin: t.text)
        },
        CommandSpec("restore", group: "History", usage: ["restore REF"],
                    summary: "make the document equal to an earlier point, as one new undo step",
                    details: "The rows and settings become those at REF; the view (viewport, offset) stays. The history is kept ('undo' takes the restore back). " + refHelp,
                    examples: ["restore 3", "restore v1", "restore now~2"]) { r in
            .restore(try r.ref(after: "restore"))
        },
        CommandSpec("begin", group: "History", usage: ["begin [LABEL]"],
                    summary: "start a transaction: the operations up to 'commit' make one undo step",
                    details: "The words after 'begin' are the step's label.",
                    examples: ["begin", "begin add the header"]) { r in
            let words = r.rest()
            return .begin(label: words.isEmpty ? nil : words.joined(separator: " "))
        },
        CommandSpec("commit", group: "History", usage: ["commit"], summary: "end the transaction: its operations become one undo step",
                    examples: ["commit"]) { _ in .commit },
        CommandSpec("rollback", group: "History", usage: ["rollback"], summary: "abandon the transaction's operations",
                    examples: ["rollback"]) { _ in .rollback },
        CommandSpec("verify", group: "History", usage: ["verify", "verify --rebuild-snapshots"],
                    summary: "replay the log from the empty document and compare with the stored state",
                    details: "It also compares every snapshot (a cache of the document after a log entry, which open and time travel start from) with the replay at its entry. A damaged snapshot is named apart (the snapshot after log entry N): the log and the document may be fine, since every read skips such a snapshot; 'verify --rebuild-snapshots' writes the damaged ones again from the log's replay (and deletes one of an entry past the log). On the prompt, Ctrl-C cancels a long verify (as it does 'log export', 'import' and 'export'): nothing changes and the prompt comes back.",
                    examples: ["verify", "verify --rebuild-snapshots"]) { r in
            r.consume("--rebuild-snapshots") ? .rebuildSnapshots : .verify
        },
        CommandSpec("log", group: "History", usage: ["log export PATH"],
                    summary: "write the document's log as a script of canonical commands",
                    details: "Running the script on an empty database ('stackdoc --db :memory: PATH') rebuilds the document: its 'export' is identical. Undone steps are written, then undone ('undo N'), so 'redo' works after a replay; rolled-back operations are left out. Each entry keeps its origin: 'as NAME' (or 'as none') comes before the first entry and wherever the origin changes, so the rebuilt history shows the same origins and 'undo --mine' answers alike. Ctrl-C on the prompt cancels it; no file is written.",
                    examples: ["log export feed.sd"]) { r in
            try r.expect("export", after: "log")
            return .logExport(path: try r.value("a file path", after: "export"))
        },
    ]

    static func markName(_ r: inout WordReader, after: String) throws -> String {
        guard let t = r.peek(), HistoryRef.isValidMarkName(t.text) else {
            throw r.expected("a mark name (A-Z a-z 0-9 _ . -, starting with a letter or _, not 'now')", after: after)
        }
        _ = r.next()
        return t.text
    }

    static func positiveCount(_ r: inout WordReader, after: String) throws -> Int {
        let what = "a count (a whole number ≥ 1)"
        let saved = r
        let n = try r.count(what, after: after)
        if n < 1 { throw saved.expected(what, after: after) }
        return n
    }

    // MARK: Session

    static let session: [CommandSpec] = [
        CommandSpec("help", group: "Session", usage: ["help [COMMAND [WORD]]"],
                    summary: "list the commands, or describe one ('help rowspec', 'help sepspec' for the spec words)",
                    details: "A second word picks one form of a command: help export svg, help set stack, help scroll to, help scroll by, help log export.",
                    examples: ["help", "help add", "help rowspec", "help export svg", "help scroll by"]) { r in
            guard !r.atEnd else { return .help(topic: nil) }
            var words = [try r.value("a command name")]
            if !r.atEnd { words.append(try r.value("a word of the command")) }
            return .help(topic: words.joined(separator: " "))
        },
        CommandSpec("read", group: "Session", usage: ["read PATH"],
                    summary: "run a script's commands as if typed (sqlite3 .read, psql \\i)",
                    details: "Each command is its own undo step unless the script uses begin/commit. A relative PATH is resolved against the directory of the file that reads it (the current directory at the prompt); ~ is the home directory. Scripts may read scripts, 16 deep at most; a script already being read is not read again (the read fails, naming the cycle). Errors name the file and line: error: inner.sd:3: MESSAGE. Ctrl-C at the prompt stops the script after the running command.",
                    examples: ["read setup.sd", "read ~/feeds/base.sd"]) { r in
            .shell(.read(path: try r.value("a file path", after: "read")))
        },
        CommandSpec("output", group: "Session", usage: ["output [PATH]"],
                    summary: "send every later command's output to a file (replaced), or back to standard output",
                    details: "Like sqlite3's .output: 'output PATH' writes the output of the commands after it to PATH until 'output' alone; errors still go to standard error. With --json each of those commands also answers on standard output with a line saying where its result went. The open database is never written over.",
                    examples: ["output layout.txt", "output"]) { r in
            .shell(.output(path: r.atEnd ? nil : try r.value("a file path", after: "output")))
        },
        CommandSpec("once", group: "Session", usage: ["once PATH"],
                    summary: "send the next command's output to a file (replaced)",
                    details: "Like sqlite3's .once; the command after it writes its result to PATH and answers on standard output with a line saying where it went; later ones write where they wrote before.",
                    examples: ["once rows.txt"]) { r in
            .shell(.once(path: try r.value("a file path", after: "once")))
        },
        CommandSpec("timer", group: "Session", usage: ["timer on|off"],
                    summary: "print each command's wall time after its output",
                    details: "Text: 'time: 1.92 ms' and, for a change, the part spent in the store and the layout ('time: 1.92 ms (store and layout 1.41 ms)'). With --json the envelope gains \"ms\" (the wall time). The numbers STACKDOC_TIMING=1 prints, as a command.",
                    examples: ["timer on", "timer off"]) { r in
            if r.consume("on") { return .shell(.timer(true)) }
            if r.consume("off") { return .shell(.timer(false)) }
            throw r.expected("on or off", after: "timer")
        },
        CommandSpec("echo", group: "Session", usage: ["echo TEXT"],
                    summary: "print TEXT (its words joined by single spaces; quote to keep more)",
                    details: "For a script's own headings and separators, also with -q and --csv (echo prints data, not a report).",
                    examples: ["echo layout after the scroll:", "echo \"two  spaces\""]) { r in
            .echo(r.rest().joined(separator: " "))
        },
        CommandSpec("quit", aliases: ["exit"], group: "Session", usage: ["quit"],
                    summary: "leave stackdoc (Ctrl-D does the same on a terminal)",
                    examples: ["quit", "exit"]) { _ in .quit },
    ]
}

/// Every keyword of the language; the printer quotes an id or name that equals one.
enum Keywords {
    static let all: Set<String> = {
        var words = Set(CommandTable.all.flatMap { [$0.name] + $0.aliases })
        words.formUnion(RowSpecWords.keywords)
        words.formUnion(SeparatorWords.keywords)
        words.formUnion(["at", "after", "before", "in", "top", "bottom", "middle", "auto", "with", "to", "by",
                         "as", "svg", "axis", "padding", "autohide", "on", "off", "default", "vertical",
                         "horizontal", "viewport", "--visible", "--range", "--csv", "stack", "--at", "--mine",
                         "--viewport", "--width", "--scale"])
        return words
    }()
}
