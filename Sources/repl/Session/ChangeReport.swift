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

    /// Compares two layouts row by row. Both list rows in document order, so one walk finds
    /// the rows whose frames differ; a dictionary is built only when the id sequences diverge
    /// (rows added, removed or moved).
    init(before: DocumentLayout, after: DocumentLayout) {
        offset = (before.offset, after.offset)
        contentSize = (before.contentSize, after.contentSize)
        transitions = after.transitions(from: before)
        var oldByID: [RowID: RowLayout]?
        let sameOrder = before.rows.count == after.rows.count
        for (i, row) in after.rows.enumerated() {
            var old: RowLayout?
            if sameOrder, before.rows[i].id == row.id {
                old = before.rows[i]
            } else {
                if oldByID == nil {
                    oldByID = Dictionary(before.rows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
                }
                old = oldByID?[row.id]
            }
            guard old?.frame != row.frame || old == nil else { continue }
            changedCount += 1
            let shown = { (r: RowLayout?) in r?.visibility == .entire || r?.visibility == .partial }
            if shown(row) || shown(old) { changedVisible.append(row.id) }
        }
        if oldByID != nil || before.rows.count != after.rows.count {
            let present = Set(after.rows.map(\.id))
            removed = before.rows.map(\.id).filter { !present.contains($0) }
        }
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
