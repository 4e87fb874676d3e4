/// Four edge lengths, written top, left, bottom, right (SPEC §2.1).
public struct Edges: Hashable, Sendable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

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

    public static let zero = Edges(all: 0)

    /// Sum of the two edges along the horizontal axis (left + right).
    public var horizontal: Double { left + right }
    /// Sum of the two edges along the vertical axis (top + bottom).
    public var vertical: Double { top + bottom }
}

/// A width and a height in points.
public struct Size: Hashable, Sendable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)
}

/// A rectangle in points; `x`, `y` is the top-left corner.
public struct Rect: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var area: Double { width * height }

    /// This rectangle shrunk by `edges` (sizes never go below zero).
    public func inset(by edges: Edges) -> Rect {
        Rect(x: x + edges.left, y: y + edges.top,
             width: max(0, width - edges.horizontal), height: max(0, height - edges.vertical))
    }
}
