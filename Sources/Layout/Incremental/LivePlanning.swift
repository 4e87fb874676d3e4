// Planning with a LiveLayout: `scroll` needs positions, which a LiveLayout answers in O(log n).

extension Document {
    /// `plan(_:)`, with `scroll` planned from `live` (the layout of this document) instead of a
    /// full layout: O(log n) for every scroll form. Other edits plan as `plan(_:)`.
    public func plan(_ edit: Edit, live: LiveLayout) throws -> [Change] {
        guard case let .scroll(spec) = edit else { return try plan(edit) }
        let target: Double
        switch spec {
        case let .offset(v):
            target = try Validation.finite(v, "offset")
        case let .by(d):
            target = live.offset + (try Validation.finite(d, "scroll by"))
        case let .to(row, position):
            _ = try requireRow(row)
            target = try live.scrollOffset(to: row, position)
        }
        var new = settings
        new.offset = live.clamp(target) + 0
        return new == settings ? [] : [.updateSettings(old: settings, new: new)]
    }
}
