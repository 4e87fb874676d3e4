/// Four edge lengths, written top, left, bottom, right (SPEC §2.1).
public struct Edges: Hashable, Sendable, Codable {
    /// The top edge.
    public var top: Double
    /// The left edge.
    public var left: Double
    /// The bottom edge.
    public var bottom: Double
    /// The right edge.
    public var right: Double

    /// Edges from four lengths, in the order SPEC §2.1 writes them.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same length on all four edges.
    public init(all value: Double) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    /// No length on any edge.
    public static let zero = Edges(all: 0)

    /// Sum of the two edges along the horizontal axis (left + right).
    public var horizontal: Double { left + right }
    /// Sum of the two edges along the vertical axis (top + bottom).
    public var vertical: Double { top + bottom }
}

/// A width and a height in points.
public struct Size: Hashable, Sendable, Codable {
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double

    /// A size of `width` × `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The empty size.
    public static let zero = Size(width: 0, height: 0)
}

/// A rectangle in points; `x`, `y` is the top-left corner.
public struct Rect: Hashable, Sendable, Codable {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// A rectangle with its top-left corner at `x`, `y`.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The left edge (`x`).
    public var minX: Double { x }
    /// The top edge (`y`).
    public var minY: Double { y }
    /// The right edge (`x + width`).
    public var maxX: Double { x + width }
    /// The bottom edge (`y + height`).
    public var maxY: Double { y + height }
    /// `width × height`.
    public var area: Double { width * height }

    /// This rectangle shrunk by `edges` (sizes never go below zero).
    public func inset(by edges: Edges) -> Rect {
        Rect(x: x + edges.left, y: y + edges.top,
             width: max(0, width - edges.horizontal), height: max(0, height - edges.vertical))
    }
}
