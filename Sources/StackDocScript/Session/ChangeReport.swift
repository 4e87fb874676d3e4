import Layout

/// What an edit, undo, redo or rollback did to the layout: rows whose frame changed (with their
/// old and new frames), rows that left the document, the offset and content size before and
/// after, and the visibility transitions, arrivals and departures included (SPEC §2.5, §4.2). Plain data: `ChangeReport+Text.swift` and
/// `CommandResult+JSON.swift` render it.
public struct ChangeReport {
    /// Changed rows that the viewport shows before or after the change (these are listed), with
    /// their frames before and after, in document order.
    public var moved: [FrameChange] = []
    /// The rows of `moved`.
    public var changedVisible: [RowID] { moved.map(\.row) }
    /// All rows whose frame (or presence) changed.
    public var changedCount = 0
    /// Rows that left the document, in the old document order.
    public var removed: [RowID] = []
    /// The offset before and after.
    public var offset: (before: Double, after: Double)
    /// The content size before and after.
    public var contentSize: (before: Size, after: Size)
    /// The visibility transitions (SPEC §2.5): rows that stay or arrive (`from` nil) in the new
    /// document order, then rows that left (`to` nil) in the old order.
    public var transitions: [VisibilityTransition]
    /// Sticky rows entering or leaving their stuck state (SPEC §2.7).
    public var stuck: [StuckTransition] = []

    /// How many ids a text summary lists at most (issue 5: bounded on huge documents).
    public static let listLimit = 12

    /// Compares two whole layouts row by row (O(n); the session itself uses the live layout's
    /// report, this is what it must equal).
    init(before: DocumentLayout, after: DocumentLayout) {
        self.init(LayoutChangeReport(before: before, after: after))
    }

    /// The report of a live layout's update (issue 5: computed from the rows that could change).
    init(_ r: LayoutChangeReport) {
        moved = r.moved
        changedCount = r.changedCount
        removed = r.removed
        offset = (r.offsetBefore, r.offsetAfter)
        contentSize = (r.contentSizeBefore, r.contentSizeAfter)
        transitions = r.transitions
        stuck = r.stuckTransitions
    }

}
