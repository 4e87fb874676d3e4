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
        try scrollTargets(to: row, position).root
    }

    /// The scrolls `scroll to ROW POS` makes (SPEC §2.6, §2.8): the new offsets of the stacks
    /// that scroll on their own around the row, innermost first — the innermost by `position`
    /// along its axis, the others by `auto` (the least scroll that shows what the inner ones
    /// show of the row) — and the root's clamped offset by `position` for the part of the row
    /// they show. Only the stacks whose offset changes are listed. Throws as `scrollOffset`.
    /// - Parameters:
    ///   - row: The row to scroll to.
    ///   - position: Where in the innermost scrollport (and the viewport) it should sit.
    /// - Throws: `StackDocError` (`noSuchRow`, or a row that is hidden or inside a hidden stack).
    public func scrollTargets(to row: RowID, _ position: ScrollPosition) throws -> ScrollTargets {
        guard let at = self.position(of: row) else { throw StackDocError(.noSuchRow(row)) }
        guard var frame = rows[at].frame else {
            if rows[at].hidden { throw StackDocError(.hiddenScrollTarget(row, inside: nil)) }
            guard let ancestor = hiddenAncestor(of: at) else {
                throw StackDocError("cannot scroll to row \(Validation.quoted(row)): it is inside hidden row (unknown)")
            }
            throw StackDocError(.hiddenScrollTarget(row, inside: ancestor))
        }
        // The scrolling stacks around the row, innermost first (their subtrees nest).
        let around = scrollerBases.indices.reversed().filter {
            scrollerBases[$0].position < at && at < scrollerBases[$0].subtreeEnd
        }
        var nested: [(RowID, Double)] = []
        for (n, i) in around.enumerated() {
            let b = scrollerBases[i]
            // Where the part of the row shown so far sits in this stack's flow (the outer
            // stacks move it and the stack alike, so they do not count).
            let lo = b.horizontal ? frame.minX : frame.minY, hi = b.horizontal ? frame.maxX : frame.maxY
            let plo = b.horizontal ? b.frame.minX : b.frame.minY, phi = b.horizontal ? b.frame.maxX : b.frame.maxY
            let target = ScrollPosition.offset(n == 0 ? position : .auto, lo: lo, hi: hi, current: b.offset,
                                               portLo: plo, portHi: phi)
            let o = DocumentLayout.clamp(target, maxOffset: b.maxOffset) + 0
            if o != b.offset { nested.append((b.id, o)) }
            // The row as this stack now shows it, cut to its box: what the next one must show.
            frame = ScrollerRule.intersection(b.horizontal ? Rect(x: frame.x - o, y: frame.y, width: frame.width, height: frame.height)
                                              : Rect(x: frame.x, y: frame.y - o, width: frame.width, height: frame.height), b.frame)
            frame = Rect(x: frame.x, y: frame.y, width: max(0, frame.width), height: max(0, frame.height))
        }
        let vertical = axis == .vertical
        let (vlo, vhi) = VisibilityRule.unobscuredMain(axis: axis, viewport: viewport, obscured: obscured)
        let target = ScrollPosition.offset(position, lo: vertical ? frame.minY : frame.minX, hi: vertical ? frame.maxY : frame.maxX,
                                           current: offset, portLo: vlo, portHi: vhi)
        return ScrollTargets(nested: nested, root: clamp(target))
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

    /// True when some stack stores a positive offset of its own (`scrolls N`, SPEC §2.8): only
    /// then can a nested offset lie past its content. O(distinct row styles), not O(n).
    public var hasNestedOffsets: Bool { rows.styles.hasPositiveScrollOffset }

    /// The changes that store the offsets `layout` (a layout of this document) shows for its
    /// shown stacks that scroll on their own, where the stored one lies past the stack's content
    /// (SPEC §2.8: each nested offset is clamped as §2.6 clamps the root's), in document order;
    /// [] when none does. The store appends them, with the root's clamp, to every operation that
    /// leaves an offset past the end. O(scrollers).
    public func nestedOffsetClamps(in layout: DocumentLayout) -> [Change] {
        layout.scrollerBases.compactMap { b in
            let clamped = b.offset + 0
            guard clamped != b.requested, let old = config(of: b.id), old.scrollOffset != nil else { return nil }
            var new = old
            new.scrollOffset = clamped
            return .updateRow(id: b.id, old: old, new: new)
        }
    }
}

/// The scrolls of `scroll to ROW POS` and `focus ROW` (SPEC §2.6, §2.8).
public struct ScrollTargets: Hashable, Sendable {
    /// New offsets of stacks that scroll on their own, innermost first (only those that change).
    public var nested: [(RowID, Double)]
    /// The root's new offset (clamped).
    public var root: Double

    /// Targets from their fields.
    public init(nested: [(RowID, Double)] = [], root: Double) {
        self.nested = nested
        self.root = root
    }

    public static func == (a: ScrollTargets, b: ScrollTargets) -> Bool {
        a.root == b.root && a.nested.count == b.nested.count && zip(a.nested, b.nested).allSatisfy { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(root)
        for (id, o) in nested { hasher.combine(id); hasher.combine(o) }
    }
}

extension ScrollPosition {
    /// The offset that puts [lo, hi] (a row along a scroll axis, at offset 0) where this
    /// position says in a scrollport [portLo, portHi] shown at `current` (SPEC §2.6): `top`
    /// lo − portLo, `bottom` hi − portHi, `middle` their mean, `auto` `current` when the row
    /// lies inside, else the smallest move that shows it (`top` when it is longer).
    static func offset(_ position: ScrollPosition, lo: Double, hi: Double, current: Double,
                       portLo vlo: Double, portHi vhi: Double) -> Double {
        switch position {
        case .top: return lo - vlo
        case .bottom: return hi - vhi
        case .middle: return (lo + hi) / 2 - (vlo + vhi) / 2
        case .auto:
            if lo >= current + vlo && hi <= current + vhi { return current }
            if hi - lo > vhi - vlo || lo < current + vlo { return lo - vlo }
            return hi - vhi
        }
    }
}
