// Planning of the edits that change rows' configs: hide, show, set (SPEC §4.1).

extension Document {
    /// `hide ROW …` / `show ROW …`: one `updateRow` per row whose `hidden` flag changes.
    func planHidden(ids: [RowID], hidden: Bool, command: String) throws -> [Change] {
        try requireDistinct(ids, command: command)
        var changes: [Change] = []
        for id in ids {
            let old = try requireRow(id)
            guard old.hidden != hidden else { continue }
            var new = old
            new.hidden = hidden
            changes.append(.updateRow(id: id, old: old, new: new))
        }
        return changes
    }

    /// `set ROW ROWSPEC…`: the row's config with `spec` applied left to right.
    func planSet(id: RowID, spec: [RowSpecItem]) throws -> [Change] {
        let old = try requireRow(id)
        let new = try old.applying(spec)
        if old.stack != nil, new.stack == nil, childCount(of: id) > 0 {
            throw StackDocError(.stackNotEmpty(id, rows: childCount(of: id)))
        }
        return new == old ? [] : [.updateRow(id: id, old: old, new: new)]
    }

    /// Every row is checked (it exists, is named once, takes the spec) before any change is
    /// planned, so one bad id plans nothing.
    func planSetRows(ids: [RowID], spec: [RowSpecItem]) throws -> [Change] {
        var seen = Set<RowID>()
        for id in ids where !seen.insert(id).inserted {
            throw StackDocError("'set' names row \(Validation.quoted(id)) twice")
        }
        var changes: [Change] = []
        for id in ids { changes += try planSet(id: id, spec: spec) }
        return changes
    }
}
