/// The fields of `RowConfig`: the one declared table of them, in the order of the saved format's
/// row object (SPEC §5; `id` comes first and is not a field).
///
/// Every format that stores or shows a config derives from this table: the saved format's keys
/// and the importer's list of them (`DocumentImport.swift`), the export (`DocumentExport.swift`)
/// and with it `diff`, the log format (`StoreFormat/LogFormat.swift`, `LogFormat+Decoding.swift`), the
/// store's row record (`StoreFormat/RowFields.swift`, which writes a config's style as the snapshot
/// image does), the snapshot image (`StoreFormat/SnapshotImage.swift`)
/// and the REPL's `rows` and `row` output.
///
/// The fields of format 1 as first written (`type` … `sticky`, `separator`, `stack`) have a
/// shape of their own in each format (nested objects, split columns, presence bits): their
/// coding is spelled out there, and `kind` is `.format1`. Every field added since is *optional*:
/// a number or a text that is absent (nil) by default; each format stores it only when set,
/// generically, from the entry here — so a row without it is stored and shown exactly as before,
/// and old files, logs, databases and images read as "not set". A new field is:
///
/// 1. its stored property in `RowConfig` (Row.swift; the document's compact storage keeps it
///    without a line of its own, `RowStyle`),
/// 2. a case below, placed before `stack` (the saved format writes the optional fields between
///    `separator` and `stack`; the store and the image append them in table order), with its
///    `spec` (names, kind, rule), its arms in `number`/`setNumber` or `text`/`setText` and
///    its name in `RowConfig.forEachField`'s arm of the optional fields (below) — the one
///    table entry. The store needs no migration: its `row.fields` blob keeps the
///    optional fields by presence bits (schema 16).
///
/// The grammar (`RowSpecItem`, `RowConfig.applying`) and the engine mapping (`StyleCompiler`)
/// are the other two places; docs/guide.md, "A row field", walks through one.
public enum RowField: Int, CaseIterable, Sendable {
    /// `type`: the row's type name.
    case type
    /// `size`: `fixed N` or `fit`.
    case size
    /// `content`: the leaf's intrinsic content size.
    case content
    /// `insets`: the row's insets (nil: the live default).
    case insets
    /// `margin`: the row's margin.
    case margin
    /// `grow`: the flex grow factor.
    case grow
    /// `shrink`: the flex shrink factor.
    case shrink
    /// `align`: the row's cross alignment in its parent.
    case alignSelf
    /// `hidden`: the row takes no space.
    case hidden
    /// `sticky`: the row sticks to the viewport's leading edge (SPEC §2.7).
    case sticky
    /// `separator`: the row's separator overrides.
    case separator
    /// `min`: the minimum length along the parent's main axis (issue 14).
    case minMain
    /// `max`: the maximum length along the parent's main axis.
    case maxMain
    /// `min-cross`: the minimum length along the parent's cross axis.
    case minCross
    /// `max-cross`: the maximum length along the parent's cross axis.
    case maxCross
    /// `background`: the row's background colour.
    case background
    /// `highlight`: the row's highlight colour.
    case highlight
    /// `text`: the leaf's glyph run, in the REPL's words (`12 char 8 line 20`; issue 14).
    case text
    /// `aspect`: the row's aspect ratio, in the REPL's words (`16 9`; issue 14).
    case aspect
    /// `sticky N`: how far past the unobscured leading edge a sticky row sticks (SPEC §2.7).
    case stickyOffset
    /// `row-insets`: a stack's default insets for its rows, in the REPL's words (`T L B R`; issue 33).
    case rowInsets
    /// `scrolls`: a stack that scrolls on its own, and its offset along its axis (SPEC §2.8).
    case scrollOffset
    /// `row-separator`: a stack's separator overrides for its rows, in SEPSPEC words
    /// (`thickness 0.5 color #E0E0E0`; issue 33).
    case rowSeparator
    /// `stack`: the row's stack settings (nil: a leaf).
    case stack

    /// What kind of value a field holds.
    public enum Kind: Sendable, Equatable {
        /// A field of format 1 as first written, coded field by field in each format.
        case format1
        /// An optional number (`Double?`), checked by `rule`.
        case number(Rule)
        /// An optional text (`String?`), checked (and normalised) by `rule`.
        case text(Rule)
    }

    /// The document rule an optional field's value obeys (`Validation.check(_:_:_:)`).
    public enum Rule: Sendable, Equatable {
        /// A length: finite, ≥ 0, ≤ `DocumentLimits.maxLength` (`Validation.length`).
        case length
        /// A colour `#RRGGBB`, stored upper case (`Validation.color`).
        case color
        /// A text run in the REPL's words, `N char W line H` (`Validation.text`).
        case textRun
        /// An aspect ratio in the REPL's words, `W H` (`Validation.aspect`).
        case aspectRatio
        /// Edges in the REPL's words, `T L B R`, each a length (`Validation.edges`).
        case edges
        /// Separator overrides in SEPSPEC words (`SeparatorOverrides.words`), each value checked
        /// as `separator SEPSPEC` checks it.
        case separatorWords
    }

    /// A field's names and kind.
    public struct Spec: Sendable {
        /// The key in the saved format's row object, in `diff` and in the REPL's JSON output.
        public let json: String
        /// The key in the log format's config object (`StoreFormat/LogFormat.swift`).
        public let log: String
        /// The REPL word, used in messages (`row 'a' min: …`) and the REPL's text output.
        public let word: String
        /// The column of table `row` up to schema 15 (optional fields of then; migration 0016 reads
        /// it, `Store/LegacyRowColumns.swift`). Empty for a field added since, which has none.
        public let column: String
        /// The value kind.
        public let kind: Kind

        init(_ json: String, log: String? = nil, word: String? = nil, column: String = "", _ kind: Kind = .format1) {
            self.json = json
            self.log = log ?? json
            self.word = word ?? json
            self.column = column
            self.kind = kind
        }
    }

    /// The field's names and kind: its entry in the table.
    public var spec: Spec {
        switch self {
        case .type: return Spec("type")
        case .size: return Spec("size")
        case .content: return Spec("content")
        case .insets: return Spec("insets")
        case .margin: return Spec("margin")
        case .grow: return Spec("grow")
        case .shrink: return Spec("shrink")
        case .alignSelf: return Spec("alignSelf", word: "align")
        case .hidden: return Spec("hidden")
        case .sticky: return Spec("sticky")
        case .separator: return Spec("separator")
        case .minMain: return Spec("min", log: "minMain", column: "min_main", .number(.length))
        case .maxMain: return Spec("max", log: "maxMain", column: "max_main", .number(.length))
        case .minCross: return Spec("minCross", word: "min-cross", column: "min_cross", .number(.length))
        case .maxCross: return Spec("maxCross", word: "max-cross", column: "max_cross", .number(.length))
        case .background: return Spec("background", column: "background", .text(.color))
        case .highlight: return Spec("highlight", column: "highlight", .text(.color))
        case .text: return Spec("text", column: "text", .text(.textRun))
        case .aspect: return Spec("aspect", column: "aspect", .text(.aspectRatio))
        case .stickyOffset: return Spec("stickyOffset", word: "sticky", .number(.length))
        case .rowInsets: return Spec("rowInsets", word: "row-insets", .text(.edges))
        case .scrollOffset: return Spec("scrollOffset", word: "scrolls", .number(.length))
        case .rowSeparator: return Spec("rowSeparator", word: "row-separator", .text(.separatorWords))
        case .stack: return Spec("stack")
        }
    }

    /// The value of a `.number` field of `c` (nil for every other field).
    @inline(__always)
    public func number(_ c: RowConfig) -> Double? {
        switch self {
        case .minMain: return c.minMain
        case .maxMain: return c.maxMain
        case .minCross: return c.minCross
        case .maxCross: return c.maxCross
        case .stickyOffset: return c.stickyOffset
        case .scrollOffset: return c.scrollOffset
        default: return nil
        }
    }

    /// Sets a `.number` field of `c` (nothing for every other field).
    @inline(__always)
    public func setNumber(_ v: Double?, _ c: inout RowConfig) {
        switch self {
        case .minMain: c.minMain = v
        case .maxMain: c.maxMain = v
        case .minCross: c.minCross = v
        case .maxCross: c.maxCross = v
        case .stickyOffset: c.stickyOffset = v
        case .scrollOffset: c.scrollOffset = v
        default: break
        }
    }

    /// The value of a `.text` field of `c` (nil for every other field).
    @inline(__always)
    public func text(_ c: RowConfig) -> String? {
        switch self {
        case .background: return c.background
        case .highlight: return c.highlight
        case .text: return c.text?.words
        case .aspect: return c.aspect.map(TextRun.ratioWords)
        case .rowInsets: return c.rowInsets.map(TextRun.edgeWords)
        case .rowSeparator: return c.rowSeparator.map(\.words)
        default: return nil
        }
    }

    /// Sets a `.text` field of `c` (nothing for every other field).
    @inline(__always)
    public func setText(_ v: String?, _ c: inout RowConfig) {
        switch self {
        case .background: c.background = v
        case .highlight: c.highlight = v
        case .text: c.text = v.flatMap(TextRun.init(words:))
        case .aspect: c.aspect = v.flatMap(TextRun.ratio(words:))
        case .rowInsets: c.rowInsets = v.flatMap(TextRun.edges(words:))
        case .rowSeparator: c.rowSeparator = v.flatMap(SeparatorOverrides.init(words:))
        default: break
        }
    }
}

extension RowField {
    /// The optional fields (every field whose kind is not `.format1`), in table order.
    public static let optional: [RowField] = allCases.filter { $0.kind != .format1 }

    /// The field's kind (`spec.kind`, without building the spec: for the bulk paths).
    @inline(__always)
    public var kind: Kind { RowField.kinds[rawValue] }
    private static let kinds = allCases.map(\.spec.kind)

    /// The optional field whose saved-format key is `key`, if any.
    public static func optional(json key: String) -> RowField? { optional.first { $0.spec.json == key } }

    /// The value of an optional field, whatever its kind.
    public enum Value: Hashable, Sendable {
        /// A `.number` field's value.
        case number(Double)
        /// A `.text` field's value.
        case text(String)

        /// The number of a `.number` value (nil for a text).
        public var number: Double? {
            if case let .number(n) = self { return n }
            return nil
        }

        /// The text of a `.text` value (nil for a number).
        public var text: String? {
            if case let .text(t) = self { return t }
            return nil
        }
    }

    /// The value of this optional field of `c`, nil when not set (and for the format-1 fields).
    @inline(__always)
    public func value(_ c: RowConfig) -> Value? {
        if let n = number(c) { return .number(n) }
        return text(c).map(Value.text)
    }

    /// True when this optional field is set in `c`.
    @inline(__always)
    public func isSet(_ c: RowConfig) -> Bool { number(c) != nil || text(c) != nil }

    /// Sets this optional field of `c` to `v` (nil: not set); a value of the wrong kind is ignored.
    @inline(__always)
    public func set(_ v: Value?, _ c: inout RowConfig) {
        switch v {
        case nil: setNumber(nil, &c); setText(nil, &c)
        case let .number(n)?: setNumber(n, &c)
        case let .text(t)?: setText(t, &c)
        }
    }
}

/// One field of a config with its value, as every writer of a whole config walks them
/// (`RowConfig.forEachField`): a case per field of format 1 as first written, each in its own
/// shape, and one case for every optional field. A writer switches over it without `default`,
/// so a field of a new shape stops every writer compiling until it says how to write it.
public enum RowFieldValue: Sendable {
    /// `type`.
    case type(String)
    /// `size`.
    case size(RowSize)
    /// `content`.
    case content(Size)
    /// `insets` (nil: the live default).
    case insets(Edges?)
    /// `margin`.
    case margin(Edges)
    /// `grow`.
    case grow(Double)
    /// `shrink`.
    case shrink(Double)
    /// `alignSelf`.
    case alignSelf(AlignSelf)
    /// `hidden`.
    case hidden(Bool)
    /// `sticky`.
    case sticky(Bool)
    /// `separator`: the overrides.
    case separator(SeparatorOverrides)
    /// An optional field's value (`RowField.optional`; nil: not set).
    case optional(RowField.Value?)
    /// `stack` (nil: a leaf).
    case stack(StackSettings?)
}

extension RowConfig {
    /// Calls `body` with every field of the config and its value, in table order (`RowField`):
    /// the one list of the fields that the saved format's writer (`jsonMembers`) and `log
    /// export`'s ROWSPEC writer (`specItems`) walk, so that neither can leave a field out.
    /// - Parameter body: Called once per field, in table order.
    /// - Throws: What `body` throws (the walk stops there).
    public func forEachField(_ body: (RowField, RowFieldValue) throws -> Void) rethrows {
        for field in RowField.allCases {
            let value: RowFieldValue
            switch field {
            case .type: value = .type(type)
            case .size: value = .size(size)
            case .content: value = .content(content)
            case .insets: value = .insets(insets)
            case .margin: value = .margin(margin)
            case .grow: value = .grow(grow)
            case .shrink: value = .shrink(shrink)
            case .alignSelf: value = .alignSelf(alignSelf)
            case .hidden: value = .hidden(hidden)
            case .sticky: value = .sticky(sticky)
            case .separator: value = .separator(separator)
            case .minMain, .maxMain, .minCross, .maxCross, .background, .highlight, .text, .aspect, .stickyOffset, .rowInsets,
                 .scrollOffset, .rowSeparator:
                value = .optional(field.value(self))
            case .stack: value = .stack(stack)
            }
            try body(field, value)
        }
    }
}

/// One member of a stack row's settings with its value, as every writer of the settings walks
/// them (`StackSettings.forEachField`; a writer switches over it without `default`).
public enum StackFieldValue: Sendable {
    /// `axis`.
    case axis(Axis)
    /// `justify`.
    case justify(Justify)
    /// `align` (the REPL's `align-items`).
    case align(Align)
    /// `spacing`.
    case spacing(Double)
}

extension StackSettings {
    /// Calls `body` with every member and its value, in the saved format's order: the one list
    /// the saved format's writer (`jsonMembers`) and `log export`'s ROWSPEC writer
    /// (`RowConfig.specItems`) walk. A new member is a case of `StackFieldValue` and a call here.
    /// - Parameter body: Called once per member, in order.
    /// - Throws: What `body` throws (the walk stops there).
    public func forEachField(_ body: (StackFieldValue) throws -> Void) rethrows {
        try body(.axis(axis))
        try body(.justify(justify))
        try body(.align(align))
        try body(.spacing(spacing))
    }
}
