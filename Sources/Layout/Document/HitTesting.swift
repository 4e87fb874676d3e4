extension DocumentLayout {
    /// The deepest non-hidden row whose frame contains the point, or nil. Frames are half-open:
    /// a row contains (x, y) when minX ≤ x < maxX and minY ≤ y < maxY, so a point on the edge
    /// two rows share hits the later one, and a row of zero width or height is never hit. A child
    /// that overflows its stack is hit outside the stack too (rows do not clip). Among
    /// overlapping rows of the same depth the later in document order (drawn on top) wins.
    /// Rows moved by sticky positioning (SPEC §2.7) are hit at their shown frame, and above the
    /// rows in flow (a positioned box paints over them).
    public func hitTest(x: Double, y: Double) -> RowID? {
        let parents = index.parentSlots(of: rows)
        var depth = [Int32](repeating: 0, count: rows.count)
        var best = -1, bestDepth: Int32 = -1
        var bestMoved = -1, bestMovedDepth: Int32 = -1
        let moved = !displaced.isEmpty
        for i in rows.indices {
            let p = Int(parents[i])
            let d: Int32 = p >= 0 ? depth[p] + 1 : 0
            depth[i] = d
            guard var f = rows[i].frame else { continue }
            if moved, let shift = displaced[rows[i].id] {
                f = shift.moved(f)
                if x >= f.minX, x < f.maxX, y >= f.minY, y < f.maxY, d >= bestMovedDepth {
                    bestMoved = i
                    bestMovedDepth = d
                }
                continue
            }
            if x >= f.minX, x < f.maxX, y >= f.minY, y < f.maxY, d >= bestDepth {
                best = i
                bestDepth = d
            }
        }
        if bestMoved >= 0 { return rows[bestMoved].id }
        return best >= 0 ? rows[best].id : nil
    }
}
