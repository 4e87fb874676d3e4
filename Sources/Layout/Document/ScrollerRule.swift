/// What the layout needs of one shown stack that scrolls on its own (`scrolls`, SPEC §2.8):
/// facts of the laid-out document that do not depend on any offset, so that scrolling it (or
/// the root) recomputes where its rows are shown without a layout.
struct ScrollerBasis: Hashable, Sendable {
    /// The stack's id.
    var id: RowID
    /// Its position in the layout's rows, and the end of its subtree there (exclusive).
    var position: Int
    var subtreeEnd: Int
    /// Its frame in flow: its scrollport (the padding box: a row's insets are its padding).
    var frame: Rect
    /// Its insets (its padding): a sticky row inside sticks to the scrollport less them.
    var insets: Edges
    /// It scrolls along x (a horizontal stack), else along y.
    var horizontal: Bool
    /// Its largest offset: its content's extent along its axis less its own length, ≥ 0.
    var maxOffset: Double
    /// The offset the document stores for it (`RowConfig.scrollOffset`).
    var requested: Double

    /// The offset it is shown at: `requested` clamped to [0, maxOffset].
    var offset: Double { DocumentLayout.clamp(requested, maxOffset: maxOffset) }
}

/// A stack that scrolls on its own as a layout shows it (SPEC §2.8): what `status`, `layout`
/// and the renderers show of it.
public struct NestedScroll: Hashable, Sendable {
    /// The stack's id.
    public var id: RowID
    /// Its axis (the direction it scrolls in).
    public var axis: Axis
    /// The offset it is shown at (clamped).
    public var offset: Double
    /// Its largest offset.
    public var maxOffset: Double
    /// Its scrollport where the viewport shows it (its frame moved by the shifts around it), in
    /// the root's content coordinates; nil when it is hidden.
    public var shownFrame: Rect?

    /// A nested scroll state from its fields.
    public init(id: RowID, axis: Axis, offset: Double, maxOffset: Double, shownFrame: Rect?) {
        self.id = id
        self.axis = axis
        self.offset = offset
        self.maxOffset = maxOffset
        self.shownFrame = shownFrame
    }
}

/// CSS `overflow: auto` on a stack row along its axis (SPEC §2.8), in one place.
enum ScrollerRule {
    /// The content's extent of a scroller along its axis (CSS scrollable overflow of a flex
    /// container): from its start, the farthest end of its shown rows' margin boxes plus its own
    /// trailing inset, and at least its own length. `childEnds` are those ends, absolute.
    static func maxOffset(frame: Rect, horizontal: Bool, trailingInset: Double, childEnds: [Double]) -> Double {
        let start = horizontal ? frame.minX : frame.minY
        let length = horizontal ? frame.width : frame.height
        guard let far = childEnds.max() else { return 0 }
        return max(0, far + trailingInset - start - length)
    }

    /// The part of `a` inside `b` (a rectangle of negative size when they do not meet, which
    /// contains nothing and meets nothing: `VisibilityRule.classify` then says `offscreen`).
    static func intersection(_ a: Rect, _ b: Rect) -> Rect {
        let x = max(a.minX, b.minX), y = max(a.minY, b.minY)
        return Rect(x: x, y: y, width: min(a.maxX, b.maxX) - x, height: min(a.maxY, b.maxY) - y)
    }
}

extension Document {
    /// The scroller bases of a laid-out document (shown stacks with `scrolls`, in document
    /// order), from the assembled rows. O(scrollers × subtree).
    func scrollerBases(_ c: CompiledDocument, rows: [RowLayout]) -> [ScrollerBasis] {
        guard !c.scrollers.isEmpty else { return [] }
        var bases: [ScrollerBasis] = []
        for (i, k32) in c.scrollers.enumerated() {
            let k = Int(k32)
            guard let frame = rows[k].frame else { continue }
            let config = self.rows.config(c.slots[k])
            let horizontal = config.stack?.axis == .horizontal
            var ends: [Double] = []
            var end = k + 1
            while end < rows.count, c.isDescendant(end, of: k) {
                if Int(c.parentSlot[end]) == k, let f = rows[end].frame {
                    let m = self.rows.config(c.slots[end]).layoutMargin
                    ends.append(horizontal ? f.maxX + m.right : f.maxY + m.bottom)
                }
                end += 1
            }
            let insets = c.decors[Int(c.decorSlot[k])].insets
            let max = ScrollerRule.maxOffset(frame: frame, horizontal: horizontal,
                                             trailingInset: horizontal ? insets.right : insets.bottom, childEnds: ends)
            bases.append(ScrollerBasis(id: c.ids[k], position: k, subtreeEnd: end, frame: frame, insets: insets,
                                       horizontal: horizontal, maxOffset: max, requested: c.scrollOffsets[i]))
        }
        return bases
    }
}

extension DocumentLayout {
    /// The stacks that scroll on their own, shown, in document order, with their offsets.
    public var nestedScrolls: [NestedScroll] {
        scrollerBases.map { b in
            NestedScroll(id: b.id, axis: b.horizontal ? .horizontal : .vertical, offset: b.offset,
                         maxOffset: b.maxOffset, shownFrame: displaced[b.id]?.moved(b.frame) ?? b.frame)
        }
    }

    /// `offset` clamped to the largest offset of scrolling stack `stack` (0 when it is hidden or
    /// does not scroll).
    public func clampScroll(of stack: RowID, _ offset: Double) -> Double {
        guard let b = scrollerBases.first(where: { $0.id == stack }) else { return 0 }
        return DocumentLayout.clamp(offset, maxOffset: b.maxOffset)
    }

    /// This layout with scrolling stack `stack` at another offset (clamped): only the rows inside
    /// it move and are classified again. O(scrollers + the stack's subtree). Nil when `stack` is
    /// not a shown scrolling stack of this layout.
    public func scrolled(_ stack: RowID, to offset: Double) -> DocumentLayout? {
        guard let i = scrollerBases.firstIndex(where: { $0.id == stack }) else { return nil }
        var result = self
        result.scrollerBases[i].requested = offset
        result.applyShifts(only: scrollerBases[i].position..<scrollerBases[i].subtreeEnd)
        return result
    }

    /// Applies the sticky rule (SPEC §2.7) and the nested scroll offsets (SPEC §2.8) at this
    /// layout's offset: fills `displaced` and classifies every row they move or clip against the
    /// unobscured rectangle intersected with its scrolling ancestors' shown boxes (the others
    /// keep the visibility of their frames). With `only`, just the rows of that range are
    /// displaced and classified again (one scroller scrolled: nothing outside its subtree moves).
    /// O(movers + their subtrees).
    mutating func applyShifts(only: Range<Int>? = nil) {
        guard !stickyBases.isEmpty || !scrollerBases.isEmpty else {
            displaced = [:]
            clips = [:]
            return
        }
        let u = unobscuredRect
        // The movers in document order: sticky rows (their subtree, themselves included) and
        // scrollers (their subtree without themselves; after a sticky basis of the same row).
        enum Kind { case sticky, scroller }
        var movers: [(kind: Kind, index: Int, position: Int)] = []
        movers.reserveCapacity(stickyBases.count + scrollerBases.count)
        var si = 0, ci = 0
        while si < stickyBases.count || ci < scrollerBases.count {
            if ci == scrollerBases.count || (si < stickyBases.count && stickyBases[si].position <= scrollerBases[ci].position) {
                movers.append((.sticky, si, stickyBases[si].position)); si += 1
            } else {
                movers.append((.scroller, ci, scrollerBases[ci].position)); ci += 1
            }
        }
        var value = [(dx: Double, dy: Double, own: Bool)](repeating: (0, 0, false), count: movers.count)
        var clipOf = [Rect](repeating: u, count: scrollerBases.count)
        var portOf = [Rect](repeating: u, count: scrollerBases.count)
        var open: [(end: Int, mover: Int)] = []
        var scrollerOpen: [(end: Int, index: Int)] = []
        for (m, mover) in movers.enumerated() {
            while let last = open.last, last.end <= mover.position { open.removeLast() }
            while let last = scrollerOpen.last, last.end <= mover.position { scrollerOpen.removeLast() }
            let base = open.last.map { (value[$0.mover].dx, value[$0.mover].dy) } ?? (0, 0)
            // CSS sticks a row to its nearest scroll container's scrollport (not to what outer
            // scrollers let be seen of it): the stack's shown box less its padding (its insets,
            // as Chromium and Firefox deflate the sticky constraint rectangle), or the
            // unobscured rectangle.
            let port = scrollerOpen.last.map { portOf[$0.index] } ?? u
            switch mover.kind {
            case .sticky:
                let b = stickyBases[mover.index]
                let own = StickyRule.ownShift(b, ax: base.0, ay: base.1, port: port)
                value[m] = b.horizontal ? (base.0 + own, base.1, own > 0) : (base.0, base.1 + own, own > 0)
                open.append((b.subtreeEnd, m))
            case .scroller:
                let b = scrollerBases[mover.index]
                let shown = Rect(x: b.frame.x + base.0, y: b.frame.y + base.1, width: b.frame.width, height: b.frame.height)
                portOf[mover.index] = shown.inset(by: b.insets)
                clipOf[mover.index] = ScrollerRule.intersection(shown, scrollerOpen.last.map { clipOf[$0.index] } ?? u)
                let o = b.offset
                value[m] = b.horizontal ? (base.0 - o, base.1, false) : (base.0, base.1 - o, false)
                open.append((b.subtreeEnd, m))
                scrollerOpen.append((b.subtreeEnd, mover.index))
            }
        }
        // Each row takes the value of the deepest mover over it (deeper movers come later).
        var now = only == nil ? [:] : displaced
        var clip: [Int: Int] = [:]
        var touched: [Int] = []
        for (m, mover) in movers.enumerated() {
            let (start, end): (Int, Int)
            switch mover.kind {
            case .sticky: (start, end) = (mover.position, stickyBases[mover.index].subtreeEnd)
            case .scroller: (start, end) = (mover.position + 1, scrollerBases[mover.index].subtreeEnd)
            }
            let lo = max(start, only?.lowerBound ?? start), hi = min(end, only?.upperBound ?? end)
            guard lo < hi else { continue }
            let v = value[m]
            for p in lo..<hi {
                let id = rows[p].id
                // A sticky row stuck inside a scrolled stack can net a zero move (its shift undoes
                // the stack's offset): it is still stuck.
                let stuck = mover.kind == .sticky && p == mover.position && v.own
                if v.dx != 0 || v.dy != 0 || stuck {
                    now[id] = StuckRow(dx: v.dx, dy: v.dy, stuck: stuck)
                } else {
                    now.removeValue(forKey: id)
                }
                if mover.kind == .scroller { clip[p] = mover.index }
                touched.append(p)
            }
        }
        displaced = now
        var clipped = only == nil ? [:] : clips
        for (p, i) in clip { clipped[rows[p].id] = clipOf[i] }
        clips = clipped
        guard !touched.isEmpty else { return }
        let index = self.index
        rows.withUnsafeMutableBufferPointer { rows in
            for p in touched {
                guard let f = rows[p].frame else { continue }
                let shown = now[rows[p].id]?.moved(f) ?? f
                (rows[p].visibility, rows[p].percent) = VisibilityRule.classify(shown, in: clip[p].map { clipOf[$0] } ?? u)
            }
        }
        self.index = index
    }

}
