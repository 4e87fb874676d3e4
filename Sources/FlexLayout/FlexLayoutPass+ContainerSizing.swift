/// Sizing of the root container (CSS Flexbox §9.2 step 2 and §9.9 for the box the tree is
/// laid out in). Every other container gets its size from its own parent's flex layout.
extension FlexLayoutPass {
    /// The root's border box. Width: the specified width; else the available width minus the
    /// horizontal margins when one is given (a block box's fill-available size); else the
    /// max-content width (an absolutely positioned box under max-content space). Height: the
    /// specified height, else the content height. Both are clamped by the max, then the min sizes
    /// and never smaller than the padding. Its position is its own margin.
    func sizeRoot(_ root: Int, availableWidth: Double?, availableHeight: Double?) {
        let pad = padding[root]
        let m = margin[root]
        var w = width[root]
        if w.isNaN {
            if let availableWidth, availableWidth.isFinite {
                w = availableWidth - m.horizontal
            } else {
                w = contentWidth[root]
            }
        }
        w = Swift.min(w, extras[root].maxWidth)
        if !minWidth[root].isNaN { w = Swift.max(w, minWidth[root]) }
        w = Swift.max(w, pad.horizontal)
        if heightForWidth { startRoot(root, width: w) }
        var h = height[root]
        if h.isNaN { h = contentHeight[root] }
        _ = availableHeight // an auto height is the content height, as for a block box
        h = Swift.min(h, extras[root].maxHeight)
        if !minHeight[root].isNaN { h = Swift.max(h, minHeight[root]) }
        h = Swift.max(h, pad.vertical)
        frame[root] = Rect(x: m.left, y: m.top, width: w, height: h)
    }

    /// §9.2 step 2 — the space available to the items of container `i`, whose border box is
    /// final: its inner (content-box) main and cross sizes.
    @inline(__always) func innerSizes(of i: Int, _ column: Bool) -> (main: Double, cross: Double) {
        let f = frame[i]
        let p = padding[i]
        if column {
            return (Swift.max(0, f.height - p.vertical), Swift.max(0, f.width - p.horizontal))
        }
        return (Swift.max(0, f.width - p.horizontal), Swift.max(0, f.height - p.vertical))
    }
}
