import Layout

/// What an edit, undo, redo or rollback did to the layout: rows whose frame changed, rows that
/// left the document, the offset and content size before and after, and the visibility
/// transitions (SPEC §2.5, §4.2).
struct ChangeReport {
    /// Changed rows that the viewport shows before or after the change (these are listed).
    var changedVisible: [RowID] = []
    /// All rows whose frame (or presence) changed.
    var changedCount = 0
    var removed: [RowID] = []
    var offset: (before: Double, after: Double)
    var contentSize: (before: Size, after: Size)
    var transitions: [VisibilityTransition]

    /// How many ids a text summary lists at most (issue 5: bounded on huge documents).
    static let listLimit = 12

    /// Compares two whole layouts row by row (O(n); the session itself uses the live layout's
    /// report, this is what it must equal).
    init(before: DocumentLayout, after: DocumentLayout) {
        self.init(LayoutChangeReport(before: before, after: after))
    }

    /// The report of a live layout's update (issue 5: computed from the rows that could change).
    init(_ r: LayoutChangeReport) {
        changedVisible = r.changedVisible
        changedCount = r.changedCount
        removed = r.removed
        offset = (r.offsetBefore, r.offsetAfter)
        contentSize = (r.contentSizeBefore, r.contentSizeAfter)
        transitions = r.transitions
    }

    /// The JSON fields of the report (added to an edit's result).
    var jsonFields: [(String, JSON)] {
        [("changed", .array(changedVisible.map(JSON.string))),
         ("changedCount", .number(Double(changedCount))),
         ("removed", .array(removed.prefix(1000).map(JSON.string))),
         ("offset", .number(offset.after)),
         ("contentSize", .size(contentSize.after))]
    }

    /// Text lines under the headline: frames, removed rows, offset, transitions; bounded.
    var textLines: [String] {
        var lines: [String] = []
        if changedCount > 0 {
            // Visible rows by id (at most `listLimit`), then counts: bounded on any document.
            let listed = changedVisible.prefix(Self.listLimit)
            var words = listed.map(Printer.id)
            if changedVisible.count > listed.count { words.append("+\(changedVisible.count - listed.count) more") }
            let offscreen = changedCount - changedVisible.count
            if offscreen > 0 { words.append(words.isEmpty ? "\(offscreen) offscreen" : "(+\(offscreen) offscreen)") }
            lines.append("  frames: " + words.joined(separator: " "))
        }
        if !removed.isEmpty {
            let listed = removed.prefix(Self.listLimit).map(Printer.id).joined(separator: " ")
            lines.append("  removed: " + listed + (removed.count > Self.listLimit ? " (+\(removed.count - Self.listLimit) more)" : ""))
        }
        if offset.before != offset.after {
            lines.append("  offset: \(NumberFormat.string(offset.before)) -> \(NumberFormat.string(offset.after))")
        }
        if contentSize.before != contentSize.after {
            lines.append("  content: \(Self.size(contentSize.before)) -> \(Self.size(contentSize.after))")
        }
        for t in transitions.prefix(Self.listLimit * 2) {
            lines.append("  \(Printer.id(t.row)): \(t.from.rawValue) -> \(t.to.rawValue)")
        }
        if transitions.count > Self.listLimit * 2 {
            lines.append("  (+\(transitions.count - Self.listLimit * 2) more transitions)")
        }
        return lines
    }

    static func size(_ s: Size) -> String { "\(NumberFormat.string(s.width))x\(NumberFormat.string(s.height))" }
}
