/// The documented limits of a StackDoc document (docs/format.md). Planning and import enforce
/// them with a `StackDocError`; nothing else ever has to handle a document beyond them.
public enum DocumentLimits {
    /// Deepest row nesting: a root row is at depth 1, a row of a stack at depth d is at d + 1.
    public static let maxDepth = 32
    /// Most rows a document may hold, at every depth.
    public static let maxRows = 1_000_000
    /// Longest row id, document name and type label, in characters (all ASCII).
    public static let maxNameLength = 64
    /// Largest length, size, inset, spacing, thickness, grow or shrink factor accepted (points).
    public static let maxLength: Double = 1_000_000_000
    /// Most glyphs of a text row (`text N`).
    public static let maxGlyphs = 10_000_000
    /// Largest glyph width, line height and aspect-ratio term (`char W`, `line H`, `aspect W H`).
    public static let maxGlyphLength: Double = 10_000
    /// Smallest glyph width and aspect-ratio term: one layout unit (1/64 pt), so that a line and
    /// a ratio never divide by zero after snapping.
    public static let minGlyphLength: Double = 1.0 / 64
    /// Deepest nesting of arrays and objects the JSON reader accepts.
    public static let maxJSONDepth = 512
    /// Largest saved document (`stackdoc/1` file) read, in bytes: 1 GiB. A document at the row
    /// limit exports to about 150–250 MB; readers refuse a bigger file before reading it.
    public static let maxJSONBytes = 1 << 30

    /// The message for a `stackdoc/1` text of `bytes` bytes, or nil when it is within the limit.
    public static func jsonSizeProblem(_ bytes: Int) -> String? {
        bytes <= maxJSONBytes ? nil : "the document is \(bytes) bytes, more than the limit of \(maxJSONBytes) bytes (1 GiB)"
    }
}
