extension Document {
    /// The primitive changes that make this document equal to `target` (`restore REF`): its
    /// rows — ids, parents, order, configs — and its settings, except the view state
    /// (`withView(of:)`: it stays as it is here, as undo and redo keep it). Deterministic: the same two
    /// documents always give the same changes, so a logged restore re-plans exactly.
    ///
    /// The smallest change list for the differences: a row is touched only when `target`
    /// adds, removes, reconfigures or re-parents it, or when its order among the rows that stay
    /// in its stack differs. Of those staying rows, one longest run that keeps its relative
    /// order (a longest increasing subsequence of their indexes in `target`) stays where it
    /// is; every other row of the stack is moved once, right after the row `target` puts
    /// before it (one move when one row of 20,000 moved, not 20,000). Within a stack that is
    /// the fewest moves there are (each row outside the run must move).
    ///
    /// Order of the changes: the settings; rows that change stacks are parked at the end of the
    /// root; rows `target` lacks are removed (deepest first); configs are updated; then, in
    /// `target`'s document order (a stack before its rows), each row not in its stack's run is
    /// inserted or moved right after its predecessor in `target`. O(n log n) for n rows.
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
        let staying = work.rowsKeepingTheirOrder(in: target, parked: Set(parked))
        // Every other row of `target` right after its predecessor there, stacks before their
        // rows: that predecessor is placed already (or stays), and so are the rows before it.
        var placements: [(RowID, RowID?, RowConfig)] = []
        target.forEachRow { id, parent, _, config in placements.append((id, parent, config)) }
        var previous: [RowID?: RowID] = [:]  // the last row of `target` placed in each stack
        for (id, parent, config) in placements {
            let after = previous[parent].map { work.index(of: $0)! }
            previous[parent] = id
            guard let current = work.parent(of: id) else {
                try emit(.insertRow(id: id, config: config, parent: parent, index: after.map { $0 + 1 } ?? 0))
                continue
            }
            guard !staying.contains(id) else { continue }
            let at = work.index(of: id)!
            if current == parent {
                if at == (after.map { $0 + 1 } ?? 0) { continue }
                // Taken out first: a row before its predecessor shifts it back by one.
                let to = after.map { at < $0 ? $0 : $0 + 1 } ?? 0
                try emit(.moveRow(id: id, fromParent: current, fromIndex: at, toParent: parent, toIndex: to))
            } else {
                try emit(.moveRow(id: id, fromParent: current, fromIndex: at, toParent: parent, toIndex: after.map { $0 + 1 } ?? 0))
            }
        }
        return changes
    }

    /// Per stack, the rows that stay in it for `target` (not `parked` to change stacks) and
    /// keep their relative order: a longest increasing subsequence of their indexes in
    /// `target`, in this document's order. Deterministic. O(n log n).
    func rowsKeepingTheirOrder(in target: Document, parked: Set<RowID>) -> Set<RowID> {
        var stacks: [RowID?] = [nil]
        forEachRow { id, _, _, config in if config.stack != nil { stacks.append(id) } }
        var kept = Set<RowID>()
        for stack in stacks {
            let rows = children(of: stack).filter { !parked.contains($0) && target.parent(of: $0) == .some(stack) }
            for i in Self.longestIncreasingSubsequence(rows.map { target.index(of: $0)! }) { kept.insert(rows[i]) }
        }
        return kept
    }

    /// The positions of one longest strictly increasing subsequence of `values` (patience
    /// sorting; the earliest-ending choice on ties, so deterministic). O(k log k).
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
        var tails: [Int] = []          // tails[l]: position of the smallest tail of a run of length l + 1
        var previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var run: [Int] = []
        var i = tails.last ?? -1
        while i >= 0 { run.append(i); i = previous[i] }
        return run.reversed()
    }
}

extension DocumentSettings {
    /// These settings with the view state of `other` (viewport, its insets and safe area, the
    /// keyboard, the offset): what undo, redo and restore apply, since the view is not part of the history.
    public func withView(of other: DocumentSettings) -> DocumentSettings {
        var s = self
        s.viewport = other.viewport
        s.viewportInsets = other.viewportInsets
        s.safeArea = other.safeArea
        s.keyboard = other.keyboard
        s.offset = other.offset
        return s
    }
}
