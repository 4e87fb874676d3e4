/// What a change did to a layout (issue 5, the REPL's change summary): rows whose frame changed,
/// rows that left the document, offset and content size before and after, and the visibility
/// transitions (SPEC §2.5) in the new document order.
public struct LayoutChangeReport: Sendable {
    /// Rows whose frame changed (or that are new) and that the viewport shows before or after, in
    /// the new document order.
    public var changedVisible: [RowID] = []
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
    /// The visibility transitions (SPEC §2.5), in the new document order.
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
    public init(before: DocumentLayout, after: DocumentLayout) {
        self.init(offsetBefore: before.offset, offsetAfter: after.offset,
                  contentSizeBefore: before.contentSize, contentSizeAfter: after.contentSize)
        transitions = after.transitions(from: before)
        stuckTransitions = after.stuckTransitions(from: before)
        let old = before.rows
        var seen = [Bool](repeating: false, count: old.count)
        var shift = 0
        func shown(_ r: RowLayout) -> Bool { r.visibility == .entire || r.visibility == .partial }
        for (i, row) in after.rows.enumerated() {
            func matches(_ guess: Int) -> Bool { guess >= 0 && guess < old.count && old[guess].id == row.id }
            let g = i + shift
            let match: Int? = matches(g) ? g : matches(g - 1) ? g - 1 : matches(g + 1) ? g + 1 : before.position(of: row.id)
            if let m = match {
                shift = m - i
                seen[m] = true
                if old[m].frame == row.frame { continue }
            }
            changedCount += 1
            if shown(row) || match.map({ shown(old[$0]) }) == true { changedVisible.append(row.id) }
        }
        for (k, wasSeen) in seen.enumerated() where !wasSeen { removed.append(old[k].id) }
    }
}
