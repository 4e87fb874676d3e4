/// The visibility classification of SPEC §2.5 for one non-hidden row.
enum VisibilityRule {
    /// `entire` when `viewport` contains `frame` (edges inclusive; this is also how a frame of zero
    /// area is `entire`), `partial` with 100 × area(intersection) / area(frame) when the
    /// intersection has positive area, `offscreen` otherwise (touching an edge is not enough).
    static func classify(_ frame: Rect, in viewport: Rect) -> (Visibility, Double) {
        if frame.minX >= viewport.minX, frame.maxX <= viewport.maxX,
           frame.minY >= viewport.minY, frame.maxY <= viewport.maxY {
            return (.entire, 100)
        }
        let w = min(frame.maxX, viewport.maxX) - max(frame.minX, viewport.minX)
        let h = min(frame.maxY, viewport.maxY) - max(frame.minY, viewport.minY)
        guard w > 0, h > 0 else { return (.offscreen, 0) }
        let area = frame.area
        guard area > 0 else { return (.offscreen, 0) }
        return (.partial, min(100 * (w * h) / area, 100))
    }

    /// The unobscured rectangle at `offset` (SPEC §2.5): the viewport at `offset` less its
    /// obscured edges. Each pair of edges is cut so that the rectangle never has a negative size:
    /// the leading edge at min(leading, length), the trailing edge at max(that, length − trailing).
    static func viewportRect(axis: Axis, viewport: Size, offset: Double, obscured: Edges = .zero) -> Rect {
        let x = unobscured(viewport.width, obscured.left, obscured.right)
        let y = unobscured(viewport.height, obscured.top, obscured.bottom)
        let (ox, oy) = axis == .vertical ? (0.0, offset) : (offset, 0.0)
        return Rect(x: ox + x.lo, y: oy + y.lo, width: x.hi - x.lo, height: y.hi - y.lo)
    }

    /// The unobscured part [lo, hi] of a viewport length with obscured edges `leading` and
    /// `trailing` (0 ≤ lo ≤ hi ≤ length; the whole length when nothing is obscured).
    static func unobscured(_ length: Double, _ leading: Double, _ trailing: Double) -> (lo: Double, hi: Double) {
        let lo = min(leading, length)
        return (lo, max(lo, length - trailing))
    }

    /// The unobscured part of the viewport along the main axis of `axis`.
    static func unobscuredMain(axis: Axis, viewport: Size, obscured: Edges) -> (lo: Double, hi: Double) {
        axis == .vertical ? unobscured(viewport.height, obscured.top, obscured.bottom)
            : unobscured(viewport.width, obscured.left, obscured.right)
    }
}
