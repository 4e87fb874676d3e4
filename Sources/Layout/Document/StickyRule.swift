/// A row shown away from its frame by sticky positioning at a layout's offset (SPEC §2.7).
public struct StuckRow: Hashable, Sendable {
    /// How far the row is moved across (its own sticky shift plus its sticky ancestors').
    public var dx: Double
    /// How far the row is moved down (its own sticky shift plus its sticky ancestors').
    public var dy: Double
    /// True for a sticky row moved by its own shift (it is *stuck*); false for a row moved
    /// only with a stuck ancestor.
    public var stuck: Bool

    /// A shift of (dx, dy); `stuck` when the row's own sticky shift is part of it.
    public init(dx: Double, dy: Double, stuck: Bool) {
        self.dx = dx
        self.dy = dy
        self.stuck = stuck
    }

    /// `r` moved by this shift.
    public func moved(_ r: Rect) -> Rect { Rect(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height) }
}

/// A sticky row's stuck state changed (SPEC §2.7 events).
public struct StuckTransition: Hashable, Sendable {
    /// The sticky row.
    public var row: RowID
    /// True when the row became stuck, false when it left its stuck state.
    public var stuck: Bool

    /// The transition of `row` into (`stuck`) or out of its stuck state.
    public init(row: RowID, stuck: Bool) {
        self.row = row
        self.stuck = stuck
    }
}

/// What the sticky rule needs of one shown sticky row: facts of the laid-out document that do
/// not depend on the offset, so scrolling recomputes the shifts without a layout.
struct StickyBasis: Hashable, Sendable {
    /// Its position in the layout's rows, and the end of its subtree there (exclusive).
    var position: Int
    var subtreeEnd: Int
    /// Its frame in flow (unshifted).
    var frame: Rect
    /// Its containing block: the parent's content box (the root's box inset by the padding for
    /// a root row), in flow.
    var box: Rect
    /// Its margin on the trailing side of the parent's main axis (layout units).
    var marginEnd: Double
    /// The parent's main axis is horizontal (`left`), else vertical (`top`).
    var horizontal: Bool
    /// Its sticky offset (`sticky N`, layout units): it sticks this far past the edge.
    var inset: Double
}

/// CSS `position: sticky` with `top` (a vertical parent) or `left` (a horizontal parent) equal
/// to its scrollport's leading edge plus the row's sticky offset (SPEC §2.7), in one place. The
/// scrollport is the unobscured rectangle for a row whose nearest scrolling ancestor is the root,
/// else that stack's shown box (SPEC §2.8).
enum StickyRule {
    /// The row's own shift along its parent's main axis, given the shift (ax, ay) that its
    /// ancestors already move it and its containing block by: min(limit − start, max(0, box end −
    /// margin end − end)) when positive, else 0, where start and end are its frame's edges and
    /// `box` its containing block, both moved by (ax, ay), and `limit` the scrollport's top (or
    /// left) edge plus the row's sticky offset.
    static func ownShift(_ b: StickyBasis, ax: Double, ay: Double, port u: Rect) -> Double {
        if b.horizontal {
            let start = b.frame.minX + ax, end = b.frame.maxX + ax
            let delta = u.minX + b.inset - start
            let room = max(0, b.box.maxX + ax - b.marginEnd - end)
            return max(0, min(delta, room))
        }
        let start = b.frame.minY + ay, end = b.frame.maxY + ay
        let delta = u.minY + b.inset - start
        let room = max(0, b.box.maxY + ay - b.marginEnd - end)
        return max(0, min(delta, room))
    }
}

extension DocumentLayout {
    /// The frame the row at `position` is shown at: its frame moved by sticky shifts (SPEC §2.7)
    /// and by the offsets of the stacks that scroll on their own around it (SPEC §2.8).
    public func shownFrame(at position: Int) -> Rect? {
        guard let f = rows[position].frame else { return nil }
        guard !displaced.isEmpty, let d = displaced[rows[position].id] else { return f }
        return d.moved(f)
    }

    /// Sticky rows whose stuck state differs from `old`, in this layout's document order; rows
    /// in only one of the layouts are left out.
    public func stuckTransitions(from old: DocumentLayout) -> [StuckTransition] {
        guard !displaced.isEmpty || !old.displaced.isEmpty else { return [] }
        var out: [StuckTransition] = []
        for r in rows {
            let now = displaced[r.id]?.stuck ?? false
            let was = old.displaced[r.id]?.stuck ?? false
            guard now != was, old.position(of: r.id) != nil else { continue }
            out.append(StuckTransition(row: r.id, stuck: now))
        }
        return out
    }
}

extension Document {
    /// The sticky bases of a laid-out document (shown sticky rows in document order), from the
    /// assembled rows. O(sticky rows × subtree).
    func stickyBases(_ c: CompiledDocument, rows: [RowLayout], contentSize: Size, settings s: DocumentSettings) -> [StickyBasis] {
        guard !c.sticky.isEmpty else { return [] }
        let root = Rect(x: 0, y: 0, width: contentSize.width, height: contentSize.height).inset(by: s.layoutPadding)
        var bases: [StickyBasis] = []
        for k32 in c.sticky {
            let k = Int(k32)
            guard let frame = rows[k].frame else { continue }
            let p = Int(c.parentSlot[k])
            var box = p >= 0 ? (rows[p].content ?? frame) : root
            if p >= 0, self.rows.config(c.slots[p]).scrollOffset != nil {
                // In a stack that scrolls on its own the containing block is its scrollable
                // content (SPEC §2.8): it reaches as far as the stack's rows do along its axis.
                box = scrolledContent(box, of: p, c, rows: rows, horizontal: c.flags[k] & CompiledDocument.parentHorizontal != 0)
            }
            let config = self.rows.config(c.slots[k])
            let margin = config.layoutMargin
            let horizontal = c.flags[k] & CompiledDocument.parentHorizontal != 0
            var end = k + 1
            while end < rows.count, c.isDescendant(end, of: k) { end += 1 }
            bases.append(StickyBasis(position: k, subtreeEnd: end, frame: frame, box: box,
                                     marginEnd: horizontal ? margin.right : margin.bottom,
                                     horizontal: horizontal,
                                     inset: LayoutUnit.snap(config.stickyOffset ?? 0)))
        }
        return bases
    }
}

extension Document {
    /// `box` (a scrolling stack's content box) extended along the stack's axis to the far end
    /// of its shown rows' margin boxes. O(the stack's subtree).
    func scrolledContent(_ box: Rect, of p: Int, _ c: CompiledDocument, rows: [RowLayout], horizontal: Bool) -> Rect {
        var far = horizontal ? box.maxX : box.maxY
        var q = p + 1
        while q < rows.count, c.isDescendant(q, of: p) {
            if Int(c.parentSlot[q]) == p, let f = rows[q].frame {
                let m = self.rows.config(c.slots[q]).layoutMargin
                far = max(far, horizontal ? f.maxX + m.right : f.maxY + m.bottom)
            }
            q += 1
        }
        return horizontal ? Rect(x: box.x, y: box.y, width: far - box.x, height: box.height)
            : Rect(x: box.x, y: box.y, width: box.width, height: far - box.y)
    }
}

extension CompiledDocument {
    /// True when row `d` lies below row `a` (at most the nesting depth of steps).
    func isDescendant(_ d: Int, of a: Int) -> Bool {
        var p = Int(parentSlot[d])
        while p >= 0 {
            if p == a { return true }
            if p < a { return false }
            p = Int(parentSlot[p])
        }
        return false
    }
}
