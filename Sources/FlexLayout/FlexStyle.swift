/// `flex-direction` (single line, left to right).
public enum FlexDirection: Hashable, Sendable {
    case row
    case column
}

/// `justify-content`.
public enum JustifyContent: Hashable, Sendable {
    case flexStart, flexEnd, center, spaceBetween, spaceAround, spaceEvenly
}

/// `align-items` (and the resolved value of `align-self`).
public enum AlignItems: Hashable, Sendable {
    case flexStart, flexEnd, center, stretch
}

/// `align-self`; `auto` takes the container's `align-items`.
public enum AlignSelfValue: Hashable, Sendable {
    case auto, flexStart, flexEnd, center, stretch
}

/// A length that is either `auto` or a number of points.
public enum Dimension: Hashable, Sendable {
    case auto
    case points(Double)
}

/// The CSS properties the engine implements. Every node is a `display: flex` box with
/// `box-sizing: border-box`; omitted properties have their CSS initial values.
public struct FlexStyle: Hashable, Sendable {
    /// `display: none` when false.
    public var display: Bool = true
    public var direction: FlexDirection = .row
    public var justifyContent: JustifyContent = .flexStart
    public var alignItems: AlignItems = .stretch
    public var alignSelf: AlignSelfValue = .auto
    public var width: Dimension = .auto
    public var height: Dimension = .auto
    public var minWidth: Dimension = .auto
    public var minHeight: Dimension = .auto
    /// `max-width` / `max-height`; `auto` is `none`. A min size larger than the max wins (CSS).
    public var maxWidth: Dimension = .auto
    public var maxHeight: Dimension = .auto
    public var flexGrow: Double = 0
    public var flexShrink: Double = 1
    public var flexBasis: Dimension = .auto
    public var margin: Edges = .zero
    public var padding: Edges = .zero
    public var rowGap: Double = 0
    public var columnGap: Double = 0
    /// The size of a fixed box that a node without children holds in its content box (a
    /// replaced element's natural size, or a `div` with that width and height): it is the node's
    /// content size, so an `auto` size, the automatic minimum size and the intrinsic sizes of
    /// its ancestors follow it. Ignored for nodes with children.
    public var intrinsicSize: Size = Size(width: 0, height: 0)

    public init() {}
}
