import Layout

/// One word group of ROWSPEC or SEPSPEC: its keyword, how it is written, what it does, and how
/// it is read. The parser and `help rowspec` / `help sepspec` both come from these tables.
struct SpecWord<Value>: Sendable {
    let keyword: String
    let usage: String
    let summary: String
    let parse: @Sendable (inout WordReader) throws -> Value
}

enum RowSpecWords {
    /// Every ROWSPEC word group (SPEC §4.1), in the order help lists them.
    static let table: [SpecWord<RowSpecItem>] = [
        SpecWord(keyword: "type", usage: "type T", summary: "the row's type label (queryable with 'find type T')") { r in
            .type(try r.value("a type name", after: "type"))
        },
        SpecWord(keyword: "fixed", usage: "fixed N", summary: "content length N along the parent's main axis") { r in
            .fixed(try r.number(after: "fixed"))
        },
        SpecWord(keyword: "fit", usage: "fit", summary: "content length from 'content' (leaf) or from the rows (stack); the default") { _ in
            .fit
        },
        SpecWord(keyword: "content", usage: "content W H", summary: "intrinsic content size of a leaf row") { r in
            .content(try r.size(after: "content"))
        },
        SpecWord(keyword: "insets", usage: "insets T L B R | insets default",
                 summary: "space between the row's edges and its content; 'default' follows the document default") { r in
            if r.consume("default") { return .insetsDefault }
            return .insets(try r.edges(after: "insets"))
        },
        SpecWord(keyword: "margin", usage: "margin T L B R", summary: "space outside the row") { r in
            .margin(try r.edges(after: "margin"))
        },
        SpecWord(keyword: "grow", usage: "grow G", summary: "flex grow factor along the parent's main axis") { r in
            .grow(try r.number(after: "grow"))
        },
        SpecWord(keyword: "shrink", usage: "shrink S", summary: "flex shrink factor along the parent's main axis") { r in
            .shrink(try r.number(after: "shrink"))
        },
        SpecWord(keyword: "align", usage: "align start|center|end|stretch|auto",
                 summary: "the row's own cross-axis alignment (alignSelf)") { r in
            .align(try r.choice(AlignSelf.self, after: "align"))
        },
        SpecWord(keyword: "align-items", usage: "align-items start|center|end|stretch",
                 summary: "a stack row's cross alignment of its rows (a leaf needs 'stack A' too)") { r in
            .alignItems(try r.choice(Align.self, after: "align-items"))
        },
        SpecWord(keyword: "hidden", usage: "hidden", summary: "the row stays in the document and takes no space") { _ in
            .hidden
        },
        SpecWord(keyword: "sticky", usage: "sticky [on|off|N|none]",
                 summary: "sticks to the viewport's unobscured leading edge while its stack's box allows (CSS position: sticky); 'sticky N' sticks N below it (right of it in a horizontal stack: CSS top/left N), 'none' drops N; 'off' unsticks") { r in
            if r.consume("off") { return .sticky(false) }
            if r.consume("none") { return .stickyOffset(nil) }
            if let t = r.peek(), !t.quoted, WordReader.parseNumber(t.text) != nil {
                return .stickyOffset(try r.number(after: "sticky"))
            }
            _ = r.consume("on")
            return .sticky(true)
        },
        SpecWord(keyword: "scrolls", usage: "scrolls [on|off|N|none]",
                 summary: "a stack row scrolls on its own along its axis (CSS overflow: auto), clipping its rows to its box; 'scroll STACK N' scrolls it; 'scrolls N' also sets its offset (what log export writes); 'off' or 'none' stops it") { r in
            if r.consume("off") { return .scrolls(false) }
            if r.consume("none") { return .scrollOffset(nil) }
            if let t = r.peek(), !t.quoted, WordReader.parseNumber(t.text) != nil {
                return .scrollOffset(try r.number(after: "scrolls"))
            }
            _ = r.consume("on")
            return .scrolls(true)
        },
        SpecWord(keyword: "row-insets", usage: "row-insets T L B R|none",
                 summary: "a stack row's default insets for the rows inside it that set none (at any depth, until a nested stack sets its own); 'none' follows the parent's again") { r in
            if r.consume("none") { return .rowInsets(nil) }
            return .rowInsets(try r.edges(after: "row-insets"))
        },
        SpecWord(keyword: "row-separator", usage: "row-separator SEPSPEC",
                 summary: "one of a stack row's separator overrides for the rows inside it (at any depth; a nested stack's lie over it, a row's own over those); 'row-separator default' drops them") { r in
            .rowSeparator(try SeparatorWords.parseOne(&r, after: "row-separator"))
        },
        SpecWord(keyword: "stack", usage: "stack vertical|horizontal|none",
                 summary: "makes the row a nested stack with this axis; 'none' makes an empty stack a leaf again") { r in
            if r.consume("none") { return .unstack }
            do {
                return .stack(try r.choice(Axis.self, after: "stack"))
            } catch {
                throw r.expected("vertical|horizontal|none", after: "stack")
            }
        },
        SpecWord(keyword: "justify", usage: "justify start|end|center|spaceBetween|spaceAround|spaceEvenly",
                 summary: "a stack row's main-axis distribution (a leaf needs 'stack A' too)") { r in
            .justify(try r.choice(Justify.self, after: "justify"))
        },
        SpecWord(keyword: "spacing", usage: "spacing N", summary: "a stack row's gap between rows (a leaf needs 'stack A' too)") { r in
            .spacing(try r.number(after: "spacing"))
        },
        SpecWord(keyword: "min", usage: "min N|none",
                 summary: "minimum border-box length along the parent's main axis (CSS min-height/min-width)") { r in
            .min(try r.optionalNumber(after: "min"))
        },
        SpecWord(keyword: "max", usage: "max N|none",
                 summary: "maximum border-box length along the parent's main axis (a larger min wins)") { r in
            .max(try r.optionalNumber(after: "max"))
        },
        SpecWord(keyword: "min-cross", usage: "min-cross N|none", summary: "minimum border-box length along the parent's cross axis") { r in
            .minCross(try r.optionalNumber(after: "min-cross"))
        },
        SpecWord(keyword: "max-cross", usage: "max-cross N|none", summary: "maximum border-box length along the parent's cross axis") { r in
            .maxCross(try r.optionalNumber(after: "max-cross"))
        },
        SpecWord(keyword: "background", usage: "background #RRGGBB|none",
                 summary: "the row's background colour (painted by 'export svg'; no effect on layout)") { r in
            .background(r.consume("none") ? nil : try r.value("a colour #RRGGBB or 'none'", after: "background"))
        },
        SpecWord(keyword: "highlight", usage: "highlight #RRGGBB|none",
                 summary: "the row's colour while highlighted (touched); no effect on layout") { r in
            .highlight(r.consume("none") ? nil : try r.value("a colour #RRGGBB or 'none'", after: "highlight"))
        },
        SpecWord(keyword: "text", usage: "text N [char W] [line H] | text none",
                 summary: "a leaf of N glyphs of W x H (default 8 x 20) wrapping at its content width: its height follows its width") { r in
            if r.consume("none") { return .text(nil) }
            var run = TextRun(count: try r.count("a number of glyphs (a whole number)", after: "text"))
            while true {
                if r.consume("char") {
                    run.glyphWidth = try r.number("a glyph width", after: "char")
                } else if r.consume("line") {
                    run.lineHeight = try r.number("a line height", after: "line")
                } else {
                    return .text(run)
                }
            }
        },
        SpecWord(keyword: "aspect", usage: "aspect W H | aspect none",
                 summary: "a leaf whose border box keeps width:height = W:H (CSS aspect-ratio)") { r in
            if r.consume("none") { return .aspect(nil) }
            let v = try r.numbers(2, names: ["the ratio's width", "the ratio's height"], after: "aspect")
            return .aspect(Size(width: v[0], height: v[1]))
        },
        SpecWord(keyword: "separator", usage: "separator SEPSPEC", summary: "one separator override (repeat 'separator' for more)") { r in
            .separator(try SeparatorWords.parseOne(&r, after: "separator"))
        },
    ]

    static let keywords: [String] = table.map(\.keyword)

    /// Each keyword's place in `table` (the first, should one repeat).
    private static let places: [String: Int] = {
        var places: [String: Int] = [:]
        for (i, word) in keywords.enumerated() where places[word] == nil { places[word] = i }
        return places
    }()

    /// The ROWSPEC group `token` starts, if it does.
    static func entry(_ token: Token?) -> SpecWord<RowSpecItem>? {
        guard let token, !token.quoted, let i = places[token.folded] else { return nil }
        return table[i]
    }

    /// True when the next word starts a ROWSPEC group.
    static func startsSpec(_ token: Token?) -> Bool {
        entry(token) != nil
    }

    /// The ROWSPEC keyword an unquoted word where a row id may go is a typo of (`fixd` →
    /// `fixed`), if it is one: a word without digits that is no keyword, at an edit distance of
    /// at most 2 from one (1 for words of up to 5 letters, as for command names). Such a word is
    /// an id only when quoted (`add a "fixd"`); the printer quotes it so.
    static func lookalike(_ word: String) -> String? {
        let typed = word.keywordFolded
        guard typed.count <= 32, !typed.utf8.contains(where: WordReader.isASCIIDigit),
              places[typed] == nil, !Keywords.all.contains(typed) else { return nil }
        let limit = typed.count <= 5 ? 1 : 2
        var best: (keyword: String, distance: Int)?
        for keyword in keywords where abs(keyword.count - typed.count) <= limit {
            let d = CommandTable.editDistance(typed, keyword)
            if d <= limit, d < (best?.distance ?? Int.max) { best = (keyword, d) }
        }
        return best?.keyword
    }

    /// Throws when `token` is an unquoted look-alike of a ROWSPEC keyword (`lookalike`).
    static func refuseLookalike(_ token: Token) throws {
        guard !token.quoted, let keyword = lookalike(token.text) else { return }
        throw CommandError(.syntax(.lookalikeKeyword(token.text, keyword: keyword)))
    }

    /// Throws when a word is left after the ROWSPEC groups (naming the keyword it looks like).
    static func finish(_ r: WordReader) throws {
        guard let t = r.peek() else { return }
        try refuseLookalike(t)
        throw r.expected(expectation)
    }

    /// Reads ROWSPEC groups while the next word starts one.
    static func parseMany(_ r: inout WordReader) throws -> [RowSpecItem] {
        var items: [RowSpecItem] = []
        while let entry = entry(r.peek()) {
            _ = r.next()
            items.append(try entry.parse(&r))
        }
        return items
    }

    /// What a ROWSPEC may start with, for messages.
    static let expectation = "a row spec (\(keywords.joined(separator: ", ")))"
}

enum SeparatorWords {
    /// Every SEPSPEC word group (SPEC §4.1).
    static let table: [SpecWord<SeparatorSpec>] = [
        SpecWord(keyword: "hidden", usage: "hidden", summary: "no separator") { _ in .hidden },
        SpecWord(keyword: "shown", usage: "shown", summary: "a separator (unless it is the last row and autohide is on)") { _ in .shown },
        SpecWord(keyword: "insets", usage: "insets T L B R", summary: "separator insets") { r in
            .insets(try r.edges(after: "insets"))
        },
        SpecWord(keyword: "thickness", usage: "thickness N", summary: "separator thickness in points") { r in
            .thickness(try r.number(after: "thickness"))
        },
        SpecWord(keyword: "color", usage: "color #RRGGBB", summary: "separator color") { r in
            guard let t = r.peek(), Tokenizer.isColorLiteral(t.text) else {
                throw r.expected("a color #RRGGBB", after: "color")
            }
            _ = r.next()
            return .color(t.text)
        },
        SpecWord(keyword: "default", usage: "default", summary: "drop every override: follow the document default") { _ in .default },
    ]

    static let keywords: [String] = table.map(\.keyword)
    static let expectation = "a separator spec (\(keywords.joined(separator: ", ")))"

    /// Exactly one SEPSPEC group.
    static func parseOne(_ r: inout WordReader, after: String) throws -> SeparatorSpec {
        guard let word = r.peek(), let entry = table.first(where: { word.isKeyword($0.keyword) }) else {
            throw r.expected(expectation, after: after)
        }
        _ = r.next()
        return try entry.parse(&r)
    }

    /// One or more SEPSPEC groups to the end of the line (`defaults separator …`).
    static func parseMany(_ r: inout WordReader, after: String) throws -> [SeparatorSpec] {
        var specs = [try parseOne(&r, after: after)]
        // Up to the end or `in` (`defaults separator SEPSPEC… in STACK`).
        while !r.atEnd, r.peek()?.isKeyword("in") != true { specs.append(try parseOne(&r, after: r.previous)) }
        return specs
    }
}
