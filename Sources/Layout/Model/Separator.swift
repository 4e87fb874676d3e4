/// A fully resolved separator style (SPEC §2.1 `defaults.separator`, §2.4).
public struct SeparatorStyle: Hashable, Sendable, Codable {
    /// True when no separator is drawn.
    public var hidden: Bool
    /// The separator's insets from the row's edges.
    public var insets: Edges
    /// The separator's thickness in points.
    public var thickness: Double
    /// `#RRGGBB`, upper-case hex digits.
    public var color: String

    /// A style; the defaults are the spec's `standard`.
    public init(hidden: Bool = false,
                insets: Edges = Edges(top: 0, left: 15, bottom: 0, right: 0),
                thickness: Double = 1,
                color: String = "#C6C6C8") {
        self.hidden = hidden
        self.insets = insets
        self.thickness = thickness
        self.color = color
    }

    /// The spec's default separator: shown, insets 0,15,0,0, thickness 1, `#C6C6C8`.
    public static let standard = SeparatorStyle()
}

/// A row's per-field separator overrides; `nil` fields follow the document's live default.
public struct SeparatorOverrides: Hashable, Sendable, Codable {
    /// Overrides `hidden` (nil: the default's).
    public var hidden: Bool?
    /// Overrides `insets` (nil: the default's).
    public var insets: Edges?
    /// Overrides `thickness` (nil: the default's).
    public var thickness: Double?
    /// Overrides `color` (nil: the default's).
    public var color: String?

    /// Overrides of the given fields; nil fields follow the default.
    public init(hidden: Bool? = nil, insets: Edges? = nil, thickness: Double? = nil, color: String? = nil) {
        self.hidden = hidden
        self.insets = insets
        self.thickness = thickness
        self.color = color
    }

    /// True when nothing is overridden.
    public var isEmpty: Bool { hidden == nil && insets == nil && thickness == nil && color == nil }

    /// The effective style: each overridden field replaces the default's.
    public func resolved(over base: SeparatorStyle) -> SeparatorStyle {
        SeparatorStyle(hidden: hidden ?? base.hidden,
                       insets: insets ?? base.insets,
                       thickness: thickness ?? base.thickness,
                       color: color ?? base.color)
    }
}

extension SeparatorOverrides {
    /// The overrides in SEPSPEC words, in field order (`hidden|shown`, `insets T L B R`,
    /// `thickness N`, `color #RRGGBB`): how a stack's `rowSeparator` is stored and shown.
    public var words: String {
        var w: [String] = []
        if let hidden { w.append(hidden ? "hidden" : "shown") }
        if let insets { w.append("insets " + TextRun.edgeWords(insets)) }
        if let thickness { w.append("thickness " + JSONNumber.format(thickness)) }
        if let color { w.append("color " + color) }
        return w.joined(separator: " ")
    }

    /// Reads `words`' form: each field at most once, in any order; nil for anything else (an
    /// unknown word, a missing or non-finite number, nothing at all).
    public init?(words: String) {
        var o = SeparatorOverrides()
        var w = words.split(separator: " ", omittingEmptySubsequences: false).map(String.init)[...]
        guard !words.isEmpty else { return nil }
        while let word = w.popFirst() {
            switch word {
            case "hidden", "shown":
                guard o.hidden == nil else { return nil }
                o.hidden = word == "hidden"
            case "insets":
                guard o.insets == nil, w.count >= 4, let e = TextRun.edges(words: w.prefix(4).joined(separator: " ")) else { return nil }
                o.insets = e
                w = w.dropFirst(4)
            case "thickness":
                guard o.thickness == nil, let t = w.popFirst().flatMap(Double.init), t.isFinite else { return nil }
                o.thickness = t
            case "color":
                guard o.color == nil, let c = w.popFirst(), !c.isEmpty else { return nil }
                o.color = c
            default:
                return nil
            }
        }
        self = o
    }
}
