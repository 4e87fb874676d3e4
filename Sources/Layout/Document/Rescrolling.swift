extension DocumentLayout {
    /// The unobscured rectangle at this layout's offset, in content coordinates (SPEC §2.5):
    /// the rectangle visibility is computed against.
    public var unobscuredRect: Rect {
        VisibilityRule.viewportRect(axis: axis, viewport: viewport, offset: offset, obscured: obscured)
    }

    /// The viewport less its safe area at this layout's offset, in content coordinates (SPEC
    /// §2.5): outside it lie the bars the safe area stands for (`draw` and the SVG mark them).
    public var safeAreaRect: Rect {
        VisibilityRule.viewportRect(axis: axis, viewport: viewport, offset: offset, obscured: safeArea)
    }

    /// This layout seen at another offset: the offset clamped (SPEC §2.6) and every row's
    /// visibility and percent recomputed (SPEC §2.5); frames are unchanged. Equal to laying the
    /// document out again with `settings.offset = offset`, without the layout work: O(rows), no
    /// engine, no document lookups — what `scroll` needs.
    public func atOffset(_ offset: Double) -> DocumentLayout {
        var result = self
        result.offset = clamp(offset)
        let viewport = VisibilityRule.viewportRect(axis: axis, viewport: self.viewport, offset: result.offset,
                                                   obscured: obscured)
        let index = self.index
        result.rows.withUnsafeMutableBufferPointer { rows in
            for i in rows.indices {
                guard let frame = rows[i].frame else { continue }
                (rows[i].visibility, rows[i].percent) = VisibilityRule.classify(frame, in: viewport)
            }
        }
        result.index = index  // same ids and parents: keep the lookup structures
        result.applyShifts()
        return result
    }
}
