/// A row whose frame changed, with its frame before and after (nil: the row had or has no frame:
/// it is new, or hidden before or after).
public struct FrameChange: Hashable, Sendable {
    /// The row.
    public var row: RowID
    /// Its frame before the change.
    public var from: Rect?
    /// Its frame after the change.
    public var to: Rect?

    /// The change of `row`'s frame from `from` to `to`.
    ///
    /// - Parameters:
    ///   - row: The row.
    ///   - from: Its frame before (nil: new, or hidden).
    ///   - to: Its frame after (nil: hidden).
    public init(row: RowID, from: Rect?, to: Rect?) {
        self.row = row
        self.from = from
        self.to = to
    }
}

/// What a change did to a layout (issue 5, the REPL's change summary): rows whose frame changed
/// (with their old and new frames when the viewport shows them), rows that left the document,
/// offset and content size before and after, and the visibility transitions (SPEC §2.5).
public struct LayoutChangeReport: Sendable {
    /// Rows whose frame changed (or that are new) and that the viewport shows before or after,
    /// with their frames before and after, in the new document order.
    public var moved: [FrameChange] = []
    /// The rows of `moved`.
    public var changedVisible: [RowID] { moved.map(\.row) }
    /// All rows whose frame changed, plus new rows.
    public var changedCount = 0
    /// Rows that left the document, in the old document order.
    public var removed: [RowID] = []
    /// The offset before the change.
    public var offsetBefore: Double
    /// The offset after the change (clamped).
    public var offsetAfter: Double
    /// The content size before the change.
    public var contentSizeBefore: Size
    /// The content size after the change.
    public var contentSizeAfter: Size
    /// The visibility transitions (SPEC §2.5): the rows that stay, and the rows the change
    /// inserted (`from` nil), in the new document order; then the rows it removed (`to` nil), in
    /// the old document order.
    public var transitions: [VisibilityTransition] = []
    /// Sticky rows that became stuck or left their stuck state (SPEC §2.7).
    public var stuckTransitions: [StuckTransition] = []
    /// True when the change was handled by a full relayout.
    public var fullRelayout = false

    /// A report with no rows yet: the offset and content size before and after.
    public init(offsetBefore: Double, offsetAfter: Double, contentSizeBefore: Size, contentSizeAfter: Size) {
        self.offsetBefore = offsetBefore
        self.offsetAfter = offsetAfter
        self.contentSizeBefore = contentSizeBefore
        self.contentSizeAfter = contentSizeAfter
    }

    /// Compares two whole layouts row by row (O(n)): rows are matched by id at the position
    /// shifted like the previous match, then through the old layout's id index.
    ///
    /// - Parameters:
    ///   - before: The layout before the change.
    ///   - after: The layout after it.
    public init(before: DocumentLayout, after: DocumentLayout) {
        self.init(offsetBefore: before.offset, offsetAfter: after.offset,
                  contentSizeBefore: before.contentSize, contentSizeAfter: after.contentSize)
        stuckTransitions = after.stuckTransitions(from: before)
        let old = before.rows
        var seen = [Bool](repeating: false, count: old.count)
        var shift = 0  // position in old − position in after, of the last matched row
        func shown(_ v: Visibility?) -> Bool { v == .entire || v == .partial }
        for (i, row) in after.rows.enumerated() {
            func matches(_ guess: Int) -> Bool { guess >= 0 && guess < old.count && old[guess].id == row.id }
            let g = i + shift
            let match: Int? = matches(g) ? g : matches(g - 1) ? g - 1 : matches(g + 1) ? g + 1 : before.position(of: row.id)
            if let m = match {
                shift = m - i
                seen[m] = true
            }
            let was = match.map { old[$0] }
            if was?.visibility != row.visibility {
                transitions.append(VisibilityTransition(row: row.id, from: was?.visibility, to: row.visibility))
            }
            if let was, was.frame == row.frame { continue }
            changedCount += 1
            if shown(row.visibility) || shown(was?.visibility) {
                moved.append(FrameChange(row: row.id, from: was?.frame, to: row.frame))
            }
        }
        for (k, wasSeen) in seen.enumerated() where !wasSeen {
            removed.append(old[k].id)
            transitions.append(VisibilityTransition(row: old[k].id, from: old[k].visibility, to: nil))
        }
    }
}
