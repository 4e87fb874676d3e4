// Planning of the edits that add and remove rows: add, remove, clear, replace (SPEC §4.1).

extension Document {
    /// `add ROW [ROW …] [ROWSPEC…] [at …|after X|before X] [in ROW]`: new rows with the default
    /// config plus `spec`, inserted in the given order at the position (default: bottom). Without
    /// `in`, an `after`/`before` anchor picks its own stack; otherwise the root.
    func planAdd(ids: [RowID], spec: [RowSpecItem], position: Position?, parent: RowID?) throws -> [Change] {
        try requireDistinct(ids, command: "add")
        for id in ids {
            try Validation.checkRowID(id)
            guard !contains(id) else { throw StackDocError(.rowExists(id)) }
        }
        let config = try RowConfig().applying(spec)
        let stack = try targetStack(position: position, parent: parent, fallback: nil)
        try requireStack(stack)
        try Document.checkDepth(depthOfRows(in: stack), row: ids[0])
        guard rowCount + ids.count <= DocumentLimits.maxRows else {
            throw StackDocError("add: a document holds at most \(DocumentLimits.maxRows) rows")
        }
        let index = try insertionIndex(position ?? .bottom, in: stack, moving: nil)
        return ids.enumerated().map { offset, id in
            .insertRow(id: id, config: config, parent: stack, index: index + offset)
        }
    }

    /// `remove ROW [ROW …]`: removes each row with its subtree. A row that lies inside another
    /// named row's subtree goes with it.
    func planRemove(ids: [RowID]) throws -> [Change] {
        try requireDistinct(ids, command: "remove")
        for id in ids { _ = try requireRow(id) }
        let named = Set(ids)
        var roots: [(id: RowID, parent: RowID?, index: Int)] = []
        for id in ids {
            let parent = self.parent(of: id) ?? nil
            if let parent, hasAncestor(parent, in: named) { continue }
            roots.append((id, parent, index(of: id) ?? 0))
        }
        // Later rows first: removing them leaves the indexes of earlier siblings unchanged.
        roots.sort { $0.index > $1.index }
        var changes: [Change] = []
        for root in roots { removalChanges(of: root.id, parent: root.parent, index: root.index, into: &changes) }
        return changes
    }

    /// `clear [in ROW]`: removes every row of the stack (the root by default) with its subtree.
    func planClear(parent: RowID?) throws -> [Change] {
        try requireStack(parent)
        var changes: [Change] = []
        removalChangesOfAllRows(in: parent, into: &changes)
        return changes
    }

    /// `replace ROW with NEWROW [ROWSPEC…]`: removes ROW's subtree, then puts a new row (default
    /// config plus `spec`) at its place. NEWROW may reuse ROW's id or an id from its subtree.
    func planReplace(id: RowID, newID: RowID, spec: [RowSpecItem]) throws -> [Change] {
        _ = try requireRow(id)
        try Validation.checkRowID(newID)
        if contains(newID), !isDescendant(newID, of: id) {
            throw StackDocError(.rowExists(newID))
        }
        let config = try RowConfig().applying(spec)
        let parent = self.parent(of: id) ?? nil
        let index = self.index(of: id) ?? 0
        var changes: [Change] = []
        removalChanges(of: id, parent: parent, index: index, into: &changes)
        changes.append(.insertRow(id: newID, config: config, parent: parent, index: index))
        return changes
    }

    /// True when `row` or one of its ancestors is in `set`. O(depth).
    private func hasAncestor(_ row: RowID, in set: Set<RowID>) -> Bool {
        var current: RowID? = row
        while let c = current {
            if set.contains(c) { return true }
            current = parent(of: c) ?? nil
        }
        return false
    }
}
