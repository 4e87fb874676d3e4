/// Layout units: every length the layout uses is a multiple of 1/64 pt, as Chromium's
/// `LayoutUnit` is 1/64 px (docs/layout.md, "Determinism").
///
/// Why: a row's position is a sum of lengths, and the full layout (the engine, left to right)
/// and the incremental `LiveLayout` (treap subtree sums) add them in different orders. Doubles
/// that are multiples of 1/64 below 2^47 add **exactly**, so every order gives the same bits:
/// positions, the content size, and everything planned from them (scroll targets, clamped
/// offsets) are a function of the document alone, whichever process or layout path computed
/// them. Inputs are snapped once when the layout reads them (the document keeps the values the
/// user wrote); divisions inside the engine (`justify`, `align center`, flexing) snap their
/// results. The viewport is not snapped: it is the scroll view's size, not a length the
/// layout adds up (the content is never shorter than the viewport).
public enum LayoutUnit {
    /// Units per point.
    public static let perPoint: Double = 64

    /// `x` rounded to the nearest multiple of 1/64 (ties to even); NaN and ±infinity unchanged.
    /// Exact (no further rounding) for |x| < 2^47 pt.
    @inline(__always) public static func snap(_ x: Double) -> Double {
        (x * perPoint).rounded(.toNearestOrEven) / perPoint
    }

    /// `x` rounded toward zero to a multiple of 1/64: for the space flexing adds to or takes
    /// from an item, so that flexed items never overfill (grow) or underfill (shrink) the line.
    @inline(__always) public static func truncate(_ x: Double) -> Double {
        (x * perPoint).rounded(.towardZero) / perPoint
    }
}
