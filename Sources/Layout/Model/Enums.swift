/// The direction rows follow in a stack (SPEC §2.1 `axis`).
public enum Axis: String, CaseIterable, Hashable, Sendable, Codable {
    /// Rows from top to bottom.
    case vertical
    /// Rows from left to right.
    case horizontal
}

/// Main-axis distribution of rows when there is free space (SPEC §2.1 `justify`).
public enum Justify: String, CaseIterable, Hashable, Sendable, Codable {
    /// Free space after the rows (`start`), before them (`end`), on both sides (`center`), between
    /// them (`spaceBetween`), around each (`spaceAround`), or in equal gaps including the ends
    /// (`spaceEvenly`).
    case start, end, center, spaceBetween, spaceAround, spaceEvenly
}

/// Cross-axis alignment of the rows of a stack (SPEC §2.1 `align`).
public enum Align: String, CaseIterable, Hashable, Sendable, Codable {
    /// Rows at the cross axis's start, centered, at its end, or stretched to the stack's cross size.
    case start, center, end, stretch
}

/// A row's own cross-axis alignment; `auto` takes the parent stack's `align` (SPEC §2.2).
public enum AlignSelf: String, CaseIterable, Hashable, Sendable, Codable {
    /// `auto` follows the parent stack's `align`; the others as in `Align`.
    case auto, start, center, end, stretch
}

/// How a row's content length along its parent's main axis is decided (SPEC §2.2 `size`).
public enum RowSize: Hashable, Sendable, Codable {
    /// From `content` (leaf) or from the children (stack).
    case fit
    /// A fixed content length in points.
    case fixed(Double)
}
