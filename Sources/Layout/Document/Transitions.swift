extension DocumentLayout {
    /// Rows whose visibility state differs from `old`, in this layout's document order
    /// (SPEC §2.5); rows that exist in only one of the two layouts are not reported, and a change
    /// of percentage alone is not a transition. Rows are matched by id: at the same position
    /// shifted by the offset of the previous match first (an unchanged tree, or one with rows
    /// inserted or removed in a few places, costs no lookups), then through `old`'s id index.
    public func transitions(from old: DocumentLayout) -> [VisibilityTransition] {
        var result: [VisibilityTransition] = []
        let oldRows = old.rows
        var shift = 0  // position in old − position in self, of the last matched row
        for (i, row) in rows.enumerated() {
            func matches(_ guess: Int) -> Bool {
                guess >= 0 && guess < oldRows.count && oldRows[guess].id == row.id
            }
            let g = i + shift
            let found: Int? = matches(g) ? g : matches(g - 1) ? g - 1 : matches(g + 1) ? g + 1
                : old.position(of: row.id)
            guard let at = found else { continue }
            shift = at - i
            let before = oldRows[at]
            if before.visibility != row.visibility {
                result.append(VisibilityTransition(row: row.id, from: before.visibility, to: row.visibility))
            }
        }
        return result
    }
}
