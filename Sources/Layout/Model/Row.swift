/// A row id: unique in its document, `[A-Za-z_][A-Za-z0-9_.-]{0,63}` (SPEC §2.2).
public typealias RowID = String

/// The settings that make a row a nested stack (SPEC §2.2 `stack`); its rows live in the
/// document's child lists.
public struct StackSettings: Hashable, Sendable, Codable {
    /// The direction of the stack's rows.
    public var axis: Axis
    /// The main-axis distribution of free space.
    public var justify: Justify
    /// The cross alignment of the stack's rows.
    public var align: Align
    /// The gap between the stack's rows, in points.
    public var spacing: Double

    /// Stack settings; the defaults are those of `stack vertical`.
    public init(axis: Axis = .vertical, justify: Justify = .start, align: Align = .stretch, spacing: Double = 0) {
        self.axis = axis
        self.justify = justify
        self.align = align
        self.spacing = spacing
    }
}

/// The text of a text row (SPEC §2.3, issue 14): `count` glyph boxes of `glyphWidth` ×
/// `lineHeight` that wrap at the row's content width, as many per line as fit (at least one).
public struct TextRun: Hashable, Sendable, Codable {
    /// Number of glyphs (0 … `DocumentLimits.maxGlyphs`).
    public var count: Int
    /// The width of one glyph box (`char W`, > 0; 8 by default).
    public var glyphWidth: Double
    /// The height of one line (`line H`, ≥ 0; 20 by default).
    public var lineHeight: Double

    /// The log's names: `count`, `char`, `line`.
    enum CodingKeys: String, CodingKey {
        case count, glyphWidth = "char", lineHeight = "line"
    }

    /// A run of `count` glyphs of `glyphWidth` × `lineHeight`.
    public init(count: Int, glyphWidth: Double = 8, lineHeight: Double = 20) {
        self.count = count
        self.glyphWidth = glyphWidth
        self.lineHeight = lineHeight
    }

    /// The fitted height at content width `width`:
    /// ceil(count ÷ max(1, floor(width ÷ glyphWidth))) × lineHeight (0 without glyphs).
    public func height(atWidth width: Double) -> Double {
        FlexText.height(count: Double(count), glyphWidth: glyphWidth, lineHeight: lineHeight, atWidth: width)
    }

    /// The lines the run wraps into at content width `width` (0 without glyphs) and the glyphs
    /// a full line holds (`draw` and SVG show the wrapped lines).
    public func lines(atWidth width: Double) -> (lines: Int, perLine: Int) {
        let perLine = FlexText.perLine(glyphWidth: glyphWidth, atWidth: width)
        let lines = FlexText.lines(count: Double(count), glyphWidth: glyphWidth, atWidth: width)
        return (Int(lines), Int(min(perLine, Double(DocumentLimits.maxGlyphs))))
    }

    /// The run in the REPL's words, every member written: `12 char 8 line 20` (the value of
    /// the `text` field in the saved format, the log, the store and the row output).
    public var words: String {
        "\(count) char \(JSONNumber.format(glyphWidth)) line \(JSONNumber.format(lineHeight))"
    }

    /// Reads `N [char W] [line H]` (the defaults for what is left out); nil when it is not that
    /// shape. Values are not checked here (`Validation.text`).
    public init?(words: String) {
        let w = words.split(separator: " ")
        guard let first = w.first, let n = Int(first) else { return nil }
        self.init(count: n)
        var i = 1
        while i < w.count {
            guard i + 1 < w.count, let v = Double(w[i + 1]), v.isFinite else { return nil }
            switch w[i] {
            case "char": glyphWidth = v
            case "line": lineHeight = v
            default: return nil
            }
            i += 2
        }
    }

    /// An aspect ratio W:H in the REPL's words, `16 9`.
    public static func ratioWords(_ s: Size) -> String { "\(JSONNumber.format(s.width)) \(JSONNumber.format(s.height))" }

    /// Reads `W H`; nil when it is not two numbers.
    public static func ratio(words: String) -> Size? {
        let w = words.split(separator: " ")
        guard w.count == 2, let a = Double(w[0]), let b = Double(w[1]), a.isFinite, b.isFinite else { return nil }
        return Size(width: a, height: b)
    }

    /// Edges in the REPL's words, `T L B R` (a stack's `rowInsets` in the saved format and the log).
    public static func edgeWords(_ e: Edges) -> String {
        [e.top, e.left, e.bottom, e.right].map(JSONNumber.format).joined(separator: " ")
    }

    /// Reads `T L B R`; nil when it is not four finite numbers.
    public static func edges(words: String) -> Edges? {
        let w = words.split(separator: " ").compactMap { Double($0) }
        guard w.count == 4, words.split(separator: " ").count == 4, w.allSatisfy(\.isFinite) else { return nil }
        return Edges(top: w[0], left: w[1], bottom: w[2], right: w[3])
    }
}

/// Everything about a row except its id, its place and its children (SPEC §2.2).
public struct RowConfig: Hashable, Sendable {
    /// The row's type (`view` by default), a name (SPEC §2.2).
    public var type: String
    /// How the content length along the parent's main axis is decided.
    public var size: RowSize
    /// Intrinsic content size of a leaf row.
    public var content: Size
    /// `nil` inherits the document's live `defaults.insets`.
    public var insets: Edges?
    /// Space around the row, outside its frame.
    public var margin: Edges
    /// The row's share of free space (flex-grow, ≥ 0).
    public var grow: Double
    /// The row's share of missing space (flex-shrink, ≥ 0).
    public var shrink: Double
    /// The row's own cross alignment.
    public var alignSelf: AlignSelf
    /// Hidden rows take no space, have no frame and are `hidden` in visibility.
    public var hidden: Bool
    /// The row's separator overrides over the document default.
    public var separator: SeparatorOverrides
    /// Non-nil makes the row a nested stack.
    public var stack: StackSettings?
    /// Sticks to the unobscured rectangle's leading edge while its parent's content box allows,
    /// as CSS `position: sticky` with `top` (vertical parent) or `left` (horizontal parent)
    /// (SPEC §2.7).
    public var sticky: Bool
    /// `min N` / `max N`: the border box's minimum / maximum length along the parent's main axis
    /// (CSS `min-height`/`max-height` in a vertical parent, widths in a horizontal one); nil is
    /// none (`min-*: auto`, `max-*: none`). A min larger than the max wins, as in CSS (issue 14).
    public var minMain: Double?
    /// `max N`: the border box's maximum length along the parent's main axis (nil: none).
    public var maxMain: Double?
    /// `min-cross N` / `max-cross N`: the same along the parent's cross axis.
    public var minCross: Double?
    /// `max-cross N`: the border box's maximum length along the parent's cross axis (nil: none).
    public var maxCross: Double?
    /// `background #RRGGBB`: the row's background colour (ScrollStackController's row background;
    /// stored upper case, nil = none). No effect on layout (issue 14).
    public var background: String?
    /// `highlight #RRGGBB`: the colour of the row while it is highlighted (touched). No effect on
    /// layout (issue 14).
    public var highlight: String?
    /// `text N [char W] [line H]`: the leaf's content is N glyph boxes that wrap at its content
    /// width, so its height follows its width (replaces `content` in layout; nil: none).
    public var text: TextRun?
    /// `aspect W H`: the leaf's border box keeps width ÷ height = W ÷ H (CSS `aspect-ratio`
    /// with `box-sizing: border-box`; nil: none).
    public var aspect: Size?
    /// `sticky N`: how far below (a vertical parent) or right of (a horizontal parent) the
    /// unobscured rectangle's leading edge a sticky row sticks — CSS `top`/`left` of
    /// `position: sticky` beyond that edge (SPEC §2.7); nil is 0. Only a sticky row uses it;
    /// `sticky off` drops it.
    public var stickyOffset: Double?
    /// The stack-only fields few rows set (`rowInsets`, `scrollOffset`, `rowSeparator`; the
    /// properties of those names read and write them, RowConfig+StackOnly.swift), behind one
    /// reference: nil exactly when none is set, so a common row's config holds 8 bytes for them,
    /// not 136 (every bulk path copies, compares and validates a config per row). A new field
    /// that only some rows set goes there too; one stored here goes in `customMirror` and
    /// `init(from:)`/`encode(to:)` as well (`RowConfigLayoutTests` checks both).
    var stackOnly: StackOnlyBox?

    /// A configuration; every parameter defaults to the value of a row added without ROWSPEC.
    public init(type: String = "view", size: RowSize = .fit, content: Size = .zero, insets: Edges? = nil,
                margin: Edges = .zero, grow: Double = 0, shrink: Double = 0, alignSelf: AlignSelf = .auto,
                hidden: Bool = false, separator: SeparatorOverrides = SeparatorOverrides(),
                stack: StackSettings? = nil, sticky: Bool = false, minMain: Double? = nil, maxMain: Double? = nil,
                minCross: Double? = nil, maxCross: Double? = nil, background: String? = nil,
                highlight: String? = nil, text: TextRun? = nil, aspect: Size? = nil,
                stickyOffset: Double? = nil, rowInsets: Edges? = nil, scrollOffset: Double? = nil,
                rowSeparator: SeparatorOverrides? = nil) {
        self.type = type
        self.size = size
        self.content = content
        self.insets = insets
        self.margin = margin
        self.grow = grow
        self.shrink = shrink
        self.alignSelf = alignSelf
        self.hidden = hidden
        self.separator = separator
        self.stack = stack
        self.sticky = sticky
        self.minMain = minMain
        self.maxMain = maxMain
        self.minCross = minCross
        self.maxCross = maxCross
        self.background = background
        self.highlight = highlight
        self.text = text
        self.aspect = aspect
        self.stickyOffset = stickyOffset
        self.stackOnly = StackOnlyBox(StackOnlyFields(rowInsets: rowInsets, scrollOffset: scrollOffset, rowSeparator: rowSeparator))
    }

    /// True when `self` and `other` are alike in every field but `size`, `content` and
    /// `hidden` (which a row record carries itself): the same style (`RowStyle`, the store's
    /// `RowStyleKey`). Compares in place, without the copies of the configs that comparing two
    /// styles makes. (A new field goes here too: `RowConfigStyleTests` lists every field by
    /// reflection and checks each one, alone and with all the others set from
    /// `EveryRowField.config`, against `RowStyle`'s equality.)
    public func hasSameStyle(as other: RowConfig) -> Bool {
        type == other.type && insets == other.insets && margin == other.margin && grow == other.grow
            && shrink == other.shrink && alignSelf == other.alignSelf && separator == other.separator
            && stack == other.stack && sticky == other.sticky && minMain == other.minMain && maxMain == other.maxMain
            && minCross == other.minCross && maxCross == other.maxCross && background == other.background
            && highlight == other.highlight && text == other.text && aspect == other.aspect
            && stickyOffset == other.stickyOffset && stackOnly == other.stackOnly
    }

    /// True when the row sets any of the size limits of issue 14 (`min`, `max`, `min-cross`,
    /// `max-cross`).
    public var hasSizeLimits: Bool { minMain != nil || maxMain != nil || minCross != nil || maxCross != nil }

    /// True when the row sets any optional field (`RowField.optional`: those of issue 14 and
    /// every field added since): such a row is written with them, every other row exactly as
    /// before.
    public var hasOptionalFields: Bool { RowField.optional.contains { $0.isSet(self) } }

    /// True when the row's height follows its width: text or an aspect ratio (issue 14).
    public var hasHeightForWidth: Bool { text != nil || aspect != nil }

    /// The insets layout uses: the row's own, or the document's default.
    public func effectiveInsets(_ defaults: DocumentDefaults) -> Edges { insets ?? defaults.insets }
}

/// A row and its nested rows as one value: the shape of the saved JSON format (SPEC §5) and of
/// whole subtrees moving in and out of a document.
public struct RowTree: Hashable, Sendable, Codable {
    /// The row's id.
    public var id: RowID
    /// The row's configuration.
    public var config: RowConfig
    /// Child rows; only meaningful when `config.stack` is non-nil.
    public var rows: [RowTree]

    /// A row with its configuration and nested rows.
    public init(id: RowID, config: RowConfig = RowConfig(), rows: [RowTree] = []) {
        self.id = id
        self.config = config
        self.rows = rows
    }
}
