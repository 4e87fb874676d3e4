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
    /// Deepest nesting of arrays and objects the JSON reader accepts.
    public static let maxJSONDepth = 512
}
