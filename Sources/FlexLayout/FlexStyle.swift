/// `flex-direction` (single line, left to right).
public enum FlexDirection: Hashable, Sendable {
    /// Items laid out along the horizontal axis.
    case row
    /// Items laid out along the vertical axis.
    case column
}

/// `justify-content`.
public enum JustifyContent: Hashable, Sendable {
    /// Where the free space of the main axis goes: after the items (`flexStart`), before them
    /// (`flexEnd`), equally on both sides (`center`), between them (`spaceBetween`), around each
    /// (`spaceAround`), or in equal gaps including the ends (`spaceEvenly`).
    case flexStart, flexEnd, center, spaceBetween, spaceAround, spaceEvenly
}

/// `align-items` (and the resolved value of `align-self`).
public enum AlignItems: Hashable, Sendable {
    /// Where an item sits on the cross axis: at its start, at its end, centered, or stretched to
    /// the line's cross size.
    case flexStart, flexEnd, center, stretch
}

/// `align-self`; `auto` takes the container's `align-items`.
public enum AlignSelfValue: Hashable, Sendable {
    /// `auto` takes the container's `align-items`; the others as in `AlignItems`.
    case auto, flexStart, flexEnd, center, stretch
}

/// The glyph run of a text node (`FlexStyle.text`): `count` boxes of `glyphWidth` ×
/// `lineHeight`, as many per line as fit the content width (at least one).
public struct FlexText: Hashable, Sendable {
    /// Number of glyph boxes (≥ 0).
    public var count: Int
    /// Width of one glyph box (> 0).
    public var glyphWidth: Double
    /// Height of one line (≥ 0).
    public var lineHeight: Double

    /// A run of `count` glyph boxes of `glyphWidth` × `lineHeight`.
    public init(count: Int, glyphWidth: Double, lineHeight: Double) {
        self.count = count
        self.glyphWidth = glyphWidth
        self.lineHeight = lineHeight
    }

    /// The fitted height of `count` glyph boxes at content width `width`, the one rule of text
    /// rows (issue 14): ceil(count ÷ max(1, floor(width ÷ glyphWidth))) × lineHeight, 0 without
    /// glyphs; a width narrower than one glyph still holds one a line.
    /// - Parameters:
    ///   - count: Number of glyph boxes.
    ///   - glyphWidth: Width of one glyph box (> 0).
    ///   - lineHeight: Height of one line.
    ///   - width: The content width.
    @inline(__always)
    public static func height(count: Double, glyphWidth: Double, lineHeight: Double, atWidth width: Double) -> Double {
        lines(count: count, glyphWidth: glyphWidth, atWidth: width) * lineHeight
    }

    /// The glyphs a line holds at content width `width`: max(1, floor(width ÷ glyphWidth)).
    /// - Parameters:
    ///   - glyphWidth: Width of one glyph box (> 0).
    ///   - width: The content width.
    @inline(__always)
    public static func perLine(glyphWidth: Double, atWidth width: Double) -> Double {
        Swift.max(1, (Swift.max(0, width) / glyphWidth).rounded(.down))
    }

    /// The number of lines `count` glyph boxes wrap into at content width `width` (0 without
    /// glyphs): ceil(count ÷ `perLine`).
    /// - Parameters:
    ///   - count: Number of glyph boxes.
    ///   - glyphWidth: Width of one glyph box (> 0).
    ///   - width: The content width.
    @inline(__always)
    public static func lines(count: Double, glyphWidth: Double, atWidth width: Double) -> Double {
        guard count > 0 else { return 0 }
        return (count / perLine(glyphWidth: glyphWidth, atWidth: width)).rounded(.up)
    }
}

/// A length that is either `auto` or a number of points.
public enum Dimension: Hashable, Sendable {
    /// Sized by the algorithm (from content, flex and stretching).
    case auto
    /// A definite length in points.
    case points(Double)
}

/// The CSS properties the engine implements. Every node is a `display: flex` box with
/// `box-sizing: border-box`; omitted properties have their CSS initial values.
public struct FlexStyle: Hashable, Sendable {
    /// `display: none` when false.
    public var display: Bool = true
    /// `flex-direction`: the main axis of the node's children.
    public var direction: FlexDirection = .row
    /// `justify-content`: the free space of the main axis.
    public var justifyContent: JustifyContent = .flexStart
    /// `align-items`: how the children sit on the cross axis.
    public var alignItems: AlignItems = .stretch
    /// `align-self`: overrides the parent's `align-items` for this node.
    public var alignSelf: AlignSelfValue = .auto
    /// `width` (border-box).
    public var width: Dimension = .auto
    /// `height` (border-box).
    public var height: Dimension = .auto
    /// `min-width`; `auto` is the automatic minimum size (CSS Flexbox §4.5).
    public var minWidth: Dimension = .auto
    /// `min-height`; `auto` is the automatic minimum size (CSS Flexbox §4.5).
    public var minHeight: Dimension = .auto
    /// `max-width`; `auto` is `none`. A min size larger than the max wins (CSS).
    public var maxWidth: Dimension = .auto
    /// `max-height`; `auto` is `none`. A min size larger than the max wins (CSS).
    public var maxHeight: Dimension = .auto
    /// `flex-grow`: the node's share of positive free space.
    public var flexGrow: Double = 0
    /// `flex-shrink`: the node's share of negative free space (weighted by its base size).
    public var flexShrink: Double = 1
    /// `flex-basis`: the main size before flexing (`auto`: the width or height).
    public var flexBasis: Dimension = .auto
    /// `margin`, outside the border box.
    public var margin: Edges = .zero
    /// `padding`, inside the border box.
    public var padding: Edges = .zero
    /// `row-gap`: space between children in a column.
    public var rowGap: Double = 0
    /// `column-gap`: space between children in a row.
    public var columnGap: Double = 0
    /// The size of a fixed box that a node without children holds in its content box (a
    /// replaced element's natural size, or a `div` with that width and height): it is the node's
    /// content size, so an `auto` size, the automatic minimum size and the intrinsic sizes of
    /// its ancestors follow it. Ignored for nodes with children.
    public var intrinsicSize: Size = Size(width: 0, height: 0)
    /// Text: the content box of a node without children holds `count` glyph boxes of
    /// `glyphWidth` × `lineHeight` that wrap at the content width (a wrapping flex container of
    /// the boxes): max-content width one line, min-content width one glyph, and the height
    /// follows the width. Replaces `intrinsicSize` when set. Ignored for nodes with children.
    public var text: FlexText? = nil
    /// `aspect-ratio: width / height` of the border box (`box-sizing: border-box`) of a node
    /// without children; nil is `auto`. Ignored for nodes with children.
    public var aspectRatio: Size? = nil

    /// A style with every property at its CSS initial value (and `display: flex`).
    public init() {}
}
