extension Document {
    /// The primitive changes that make this document equal to `target` (`restore REF`): its
    /// rows — ids, parents, order, configs — and its settings, except the view state
    /// (`withView(of:)`: it stays as it is here, as undo and redo keep it). Deterministic: the same two
    /// documents always give the same changes, so a logged restore re-plans exactly.
    ///
    /// Few changes for few differences: rows that stay in the same stack keep their place
    /// unless their order differs; only rows whose parent, config or index differ are touched.
    /// Order of the changes: the settings; rows that change stacks are parked at the end of the
    /// root; rows `target` lacks are removed (deepest first); configs are updated; then, in
    /// `target`'s document order (a stack before its rows), each row is inserted or moved to its
    /// place. O(n log n) for n rows.
    /// - Parameter target: The document to become (its rows, configs and settings).
    /// - Throws: `StackDocError` when a change cannot be applied to the working copy (an
    ///   inconsistent `target`).
    public func planRestore(to target: Document) throws -> [Change] {
        var work = self
        var changes: [Change] = []
        func emit(_ change: Change) throws {
            try work.apply(change)
            changes.append(change)
        }
        let settings = target.settings.withView(of: self.settings)
        if settings != self.settings { try emit(.updateSettings(old: self.settings, new: settings)) }

        // Rows that change stacks wait at the end of the root; rows `target` lacks are removed
        // children first (reverse document order).
        var parked: [RowID] = []
        var removed: [RowID] = []
        forEachRow { id, parent, _, _ in
            guard let targetParent = target.parent(of: id) else { removed.append(id); return }
            if targetParent != parent { parked.append(id) }
        }
        for id in parked {
            guard let from = work.parent(of: id), let index = work.index(of: id) else { continue }
            try emit(.moveRow(id: id, fromParent: from, fromIndex: index, toParent: nil, toIndex: work.childCount(of: nil) - (from == nil ? 1 : 0)))
        }
        for id in removed.reversed() {
            guard let config = work.config(of: id), let parent = work.parent(of: id), let index = work.index(of: id) else { continue }
            try emit(.removeRow(id: id, config: config, parent: parent, index: index))
        }
        // Configs, before any row moves into a row that becomes a stack.
        var updates: [(RowID, RowConfig, RowConfig)] = []
        work.forEachRow { id, _, _, config in
            if let wanted = target.config(of: id), wanted != config { updates.append((id, config, wanted)) }
        }
        for (id, old, new) in updates { try emit(.updateRow(id: id, old: old, new: new)) }
        // Every row of `target` to its place, stacks before their rows: each stack's rows before
        // the one being placed are already in place.
        var placements: [(RowID, RowID?, Int, RowConfig)] = []
        target.forEachRow { id, parent, index, config in placements.append((id, parent, index, config)) }
        for (id, parent, index, config) in placements {
            guard let current = work.parent(of: id) else {
                try emit(.insertRow(id: id, config: config, parent: parent, index: index))
                continue
            }
            let at = work.index(of: id)!
            if current != parent || at != index {
                try emit(.moveRow(id: id, fromParent: current, fromIndex: at, toParent: parent, toIndex: index))
            }
        }
        return changes
    }
}

extension DocumentSettings {
    /// These settings with the view state of `other` (viewport, its insets, the keyboard, the
    /// offset): what undo, redo and restore apply, since the view is not part of the history.
    public func withView(of other: DocumentSettings) -> DocumentSettings {
        var s = self
        s.viewport = other.viewport
        s.viewportInsets = other.viewportInsets
        s.keyboard = other.keyboard
        s.offset = other.offset
        return s
    }
}
