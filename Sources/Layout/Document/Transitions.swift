extension DocumentLayout {
    /// Rows whose visibility state differs from `old`, in this layout's document order
    /// (SPEC §2.5); rows that exist in only one of the two layouts are not reported, and a change
    /// of percentage alone is not a transition. Rows are matched by id: position first (the
    /// common case of an unchanged tree costs no lookup), then through `old`'s id index.
    public func transitions(from old: DocumentLayout) -> [VisibilityTransition] {
        var result: [VisibilityTransition] = []
        let oldRows = old.rows
        for (i, row) in rows.enumerated() {
            let before: RowLayout
            if i < oldRows.count, oldRows[i].id == row.id {
                before = oldRows[i]
            } else if let at = old.position(of: row.id) {
                before = oldRows[at]
            } else {
                continue
            }
            if before.visibility != row.visibility {
                result.append(VisibilityTransition(row: row.id, from: before.visibility, to: row.visibility))
            }
        }
        return result
    }
}
