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
    /// The index in the basis list of its nearest sticky ancestor, -1 when none.
    var ancestor: Int
}

/// CSS `position: sticky` with `top` (a vertical parent) or `left` (a horizontal parent) equal
/// to the unobscured rectangle's leading edge plus the row's sticky offset (SPEC §2.7), in one place.
enum StickyRule {
    /// The accumulated shift (dx, dy) of every basis, in order (ancestors come first), and
    /// whether its own shift is non-zero. A row's own shift along its parent's main axis is
    /// min(limit − start, max(0, box end − margin end − end)) when positive, else 0, where start
    /// and end are its frame's edges and `box` its containing block, both moved by its sticky
    /// ancestors' shifts, and `limit` the unobscured rectangle's top (or left) edge plus the
    /// row's sticky offset.
    static func shifts(_ bases: [StickyBasis], unobscured u: Rect) -> [(dx: Double, dy: Double, own: Bool)] {
        var out: [(dx: Double, dy: Double, own: Bool)] = []
        out.reserveCapacity(bases.count)
        for b in bases {
            let (ax, ay) = b.ancestor >= 0 ? (out[b.ancestor].dx, out[b.ancestor].dy) : (0, 0)
            let own: Double
            if b.horizontal {
                let start = b.frame.minX + ax, end = b.frame.maxX + ax
                let delta = u.minX + b.inset - start
                let room = max(0, b.box.maxX + ax - b.marginEnd - end)
                own = max(0, min(delta, room))
            } else {
                let start = b.frame.minY + ay, end = b.frame.maxY + ay
                let delta = u.minY + b.inset - start
                let room = max(0, b.box.maxY + ay - b.marginEnd - end)
                own = max(0, min(delta, room))
            }
            out.append(b.horizontal ? (ax + own, ay, own > 0) : (ax, ay + own, own > 0))
        }
        return out
    }
}

extension DocumentLayout {
    /// The frame the row at `position` is shown at: its frame moved by sticky shifts (SPEC §2.7).
    public func shownFrame(at position: Int) -> Rect? {
        guard let f = rows[position].frame else { return nil }
        guard !displaced.isEmpty, let d = displaced[rows[position].id] else { return f }
        return d.moved(f)
    }

    /// Applies the sticky rule at this layout's offset: fills `displaced` and classifies the
    /// moved rows (and the rows moved before, now back in flow) against the unobscured
    /// rectangle (the others keep the visibility of their frames). O(sticky rows + their subtrees).
    mutating func applySticky() {
        guard !stickyBases.isEmpty else {
            displaced = [:]
            return
        }
        let u = unobscuredRect
        let shifts = StickyRule.shifts(stickyBases, unobscured: u)
        var now: [RowID: StuckRow] = [:]
        var moved: [Int] = []
        for (i, b) in stickyBases.enumerated() {
            let s = shifts[i]
            guard s.dx != 0 || s.dy != 0 else { continue }
            // A nested sticky row comes later in the list and overwrites its subtree's shift.
            for p in b.position..<b.subtreeEnd {
                if now.updateValue(StuckRow(dx: s.dx, dy: s.dy, stuck: p == b.position && s.own), forKey: rows[p].id) == nil {
                    moved.append(p)
                }
            }
        }
        displaced = now
        guard !moved.isEmpty else { return }
        let index = self.index
        rows.withUnsafeMutableBufferPointer { rows in
            for p in moved {
                guard let f = rows[p].frame, let d = now[rows[p].id] else { continue }
                (rows[p].visibility, rows[p].percent) = VisibilityRule.classify(d.moved(f), in: u)
            }
        }
        self.index = index
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
    /// assembled rows. O(sticky rows × (depth + subtree)).
    func stickyBases(_ c: CompiledDocument, rows: [RowLayout], contentSize: Size, settings s: DocumentSettings) -> [StickyBasis] {
        guard !c.sticky.isEmpty else { return [] }
        let root = Rect(x: 0, y: 0, width: contentSize.width, height: contentSize.height).inset(by: s.layoutPadding)
        var bases: [StickyBasis] = []
        var basisOf: [Int32: Int] = [:]
        for k32 in c.sticky {
            let k = Int(k32)
            guard let frame = rows[k].frame else { continue }
            let p = Int(c.parentSlot[k])
            let box = p >= 0 ? (rows[p].content ?? frame) : root
            let config = self.rows.config(c.slots[k])
            let margin = config.layoutMargin
            let horizontal = c.flags[k] & CompiledDocument.parentHorizontal != 0
            var ancestor = -1
            var q = p
            while q >= 0 {
                if let a = basisOf[Int32(q)] { ancestor = a; break }
                q = Int(c.parentSlot[q])
            }
            var end = k + 1
            while end < rows.count, c.isDescendant(end, of: k) { end += 1 }
            basisOf[k32] = bases.count
            bases.append(StickyBasis(position: k, subtreeEnd: end, frame: frame, box: box,
                                     marginEnd: horizontal ? margin.right : margin.bottom,
                                     horizontal: horizontal,
                                     inset: LayoutUnit.snap(config.stickyOffset ?? 0), ancestor: ancestor))
        }
        return bases
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
