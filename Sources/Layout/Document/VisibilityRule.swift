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

    /// The viewport rectangle at `offset` (SPEC §2.5).
    static func viewportRect(axis: Axis, viewport: Size, offset: Double) -> Rect {
        switch axis {
        case .vertical: return Rect(x: 0, y: offset, width: viewport.width, height: viewport.height)
        case .horizontal: return Rect(x: offset, y: 0, width: viewport.width, height: viewport.height)
        }
    }
}
