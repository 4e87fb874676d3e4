// Offset clamping and scroll targets (SPEC §2.6).

extension DocumentLayout {
    /// The largest offset: max(0, content main − the unobscured part's trailing edge), so that
    /// the content's end can scroll past an obscured trailing edge (the keyboard).
    public var maxOffset: Double {
        DocumentLayout.maxOffset(axis: axis, viewport: viewport, contentSize: contentSize, obscured: obscured)
    }

    /// `offset` clamped to [0, maxOffset]; a NaN offset becomes 0.
    public func clamp(_ offset: Double) -> Double {
        DocumentLayout.clamp(offset, maxOffset: maxOffset)
    }

    /// The clamped offset `scroll to ROW POS` aims at (SPEC §2.6), against the unobscured part
    /// [lo, hi] of the viewport's main length: `top` F.min − lo, `bottom` F.max − hi, `middle`
    /// F.mid − (lo + hi) / 2, `auto` the current offset when the row lies entirely inside the
    /// unobscured part along the main axis, else the smallest move that shows it (`top` when it
    /// is longer than the unobscured part). Throws for an unknown row and for a hidden row (or a
    /// row inside a hidden stack).
    /// - Parameters:
    ///   - row: The row to scroll to.
    ///   - position: Where in the viewport it should sit.
    /// - Throws: `StackDocError` (`noSuchRow`, or a row that is hidden or inside a hidden stack).
    public func scrollOffset(to row: RowID, _ position: ScrollPosition) throws -> Double {
        guard let at = self.position(of: row) else { throw StackDocError(.noSuchRow(row)) }
        guard let frame = rows[at].frame else {
            if rows[at].hidden { throw StackDocError(.hiddenScrollTarget(row, inside: nil)) }
            guard let ancestor = hiddenAncestor(of: at) else {
                throw StackDocError("cannot scroll to row \(Validation.quoted(row)): it is inside hidden row (unknown)")
            }
            throw StackDocError(.hiddenScrollTarget(row, inside: ancestor))
        }
        let vertical = axis == .vertical
        let lo = vertical ? frame.minY : frame.minX
        let hi = vertical ? frame.maxY : frame.maxX
        let (vlo, vhi) = VisibilityRule.unobscuredMain(axis: axis, viewport: viewport, obscured: obscured)
        let target: Double
        switch position {
        case .top: target = lo - vlo
        case .bottom: target = hi - vhi
        case .middle: target = (lo + hi) / 2 - (vlo + vhi) / 2
        case .auto:
            if lo >= offset + vlo && hi <= offset + vhi {
                target = offset
            } else if hi - lo > vhi - vlo || lo < offset + vlo {
                target = lo - vlo
            } else {
                target = hi - vhi
            }
        }
        return clamp(target)
    }

    /// The outermost hidden ancestor of the row at `at` (at most `rows.count` steps up, so
    /// a hand-made layout with a parent cycle cannot loop).
    private func hiddenAncestor(of at: Int) -> RowID? {
        let parents = index.parentSlots(of: rows)
        var p = Int(parents[at])
        var hidden: RowID?
        var steps = 0
        while p >= 0, steps < rows.count {
            steps += 1
            if rows[p].hidden { hidden = rows[p].id }
            p = Int(parents[p])
        }
        return hidden
    }

    static func maxOffset(axis: Axis, viewport: Size, contentSize: Size, obscured: Edges = .zero) -> Double {
        let end = VisibilityRule.unobscuredMain(axis: axis, viewport: viewport, obscured: obscured).hi
        let excess = (axis == .vertical ? contentSize.height : contentSize.width) - end
        return excess > 0 ? excess : 0
    }

    static func clamp(_ offset: Double, maxOffset: Double) -> Double {
        guard offset > 0 else { return 0 }  // also NaN
        return offset < maxOffset ? offset : maxOffset
    }
}

extension Document {
    /// The change that stores the offset a layout whose largest offset is `maxOffset` shows
    /// (SPEC §2.6: the offset is always clamped), or nil when the stored offset already is it.
    /// The store appends it to every operation that leaves the offset past the end.
    public func offsetClamp(maxOffset: Double) -> Change? {
        let clamped = DocumentLayout.clamp(settings.offset, maxOffset: maxOffset) + 0
        guard clamped != settings.offset else { return nil }
        var new = settings
        new.offset = clamped
        return .updateSettings(old: settings, new: new)
    }
}
