// Keeping a LiveLayout up to date: `apply(_:to:)` and its change report.

extension LiveLayout {
    /// Brings the layout up to date with `changes`, which `document` already has (the store's
    /// `perform`/`undo`/`redo` return them), and reports what changed. Incremental in the regime
    /// described on `LiveLayout`; otherwise one full relayout (`report.fullRelayout`).
    @discardableResult
    public mutating func apply(_ changes: [Change], to document: Document) -> LayoutChangeReport {
        if let before = full, document.name == self.document, changes.allSatisfy(Self.movesTheViewOnly) {
            // Outside the incremental regime a scroll (or a change of the obscured edges) still
            // lays nothing out: the same frames at another offset, sticky rows moved. O(n).
            settings = document.settings
            var now = before
            now.obscured = settings.obscured
            full = now.atOffset(settings.offset)
            return LayoutChangeReport(before: before, after: full!)
        }
        if needsFullRelayout(changes, document) { return relayout(document) }
        if let node = stackLineHolding(changes) { return applyInsideStackLine(node, changes, document) }
        return applyIncrementally(changes, to: document)
    }

    /// Whether `changes` need a full relayout: when the root's free space is distributed
    /// (justify, or grow with content shorter than the viewport), for another document, for a
    /// settings change that affects every row (anything but the offset and the viewport's
    /// main-axis length), or for at least as many changes as the layout has rows before or after
    /// them (`isWholesale`: a `clear` and its undo; one relayout, O(n), is then cheaper than n
    /// changes applied one entry at a time).
    func needsFullRelayout(_ changes: [Change], _ document: Document) -> Bool {
        if full != nil || document.name != self.document || isWholesale(changes, document) { return true }
        for change in changes {
            switch change {
            case let .insertRow(_, c, _, _), let .removeRow(_, c, _, _):
                if c.sticky { return true }
            case let .updateRow(_, old, new):
                if old.sticky || new.sticky { return true }
            default: break
            }
            guard case let .updateSettings(old, new) = change else { continue }
            var a = old, b = new
            a.offset = 0; b.offset = 0
            if vertical { a.viewport.height = 0; b.viewport.height = 0 } else { a.viewport.width = 0; b.viewport.width = 0 }
            // The obscured edges move no row: only the offset's clamp and visibility follow them.
            a.viewportInsets = .zero; b.viewportInsets = .zero
            a.keyboard = 0; b.keyboard = 0
            if a != b { return true }
        }
        return false
    }

    /// At least 1,024 changes, and at least as many as the rows before or after them.
    func isWholesale(_ changes: [Change], _ document: Document) -> Bool {
        changes.count >= 1024 && changes.count >= max(rowCount, document.rowCount)
    }

    /// A settings change of the offset or the obscured edges alone: nothing moves in flow.
    static func movesTheViewOnly(_ change: Change) -> Bool {
        guard case var .updateSettings(old, new) = change else { return false }
        old.offset = 0; new.offset = 0
        old.viewportInsets = .zero; new.viewportInsets = .zero
        old.keyboard = 0; new.keyboard = 0
        return old == new
    }

    /// A full relayout, reported by comparing the whole layouts. O(n).
    mutating func relayout(_ document: Document) -> LayoutChangeReport {
        let before = layout()
        rebuild(document)
        var report = LayoutChangeReport(before: before, after: layout())
        report.fullRelayout = true
        return report
    }

    /// One root entry a change touches, as it was before the changes.
    struct Snapshot {
        var node: Int32
        /// Its index on the root line before the changes.
        var oldIndex: Int
        /// Its rank among the untouched entries (set once every touched entry is marked).
        var oldRank = 0
        var oldContribution: Double
        /// Its rows, as they were laid out.
        var rows: [RowLayout]
    }

    /// What `applyIncrementally` carries from one phase to the next.
    struct ApplyState {
        /// The layout's geometry before the changes.
        var offsetBefore: Double
        var contentBefore: Size
        var viewportBefore: Rect
        var visibleBefore: [RowLayout]
        var lastShownBefore: Int32
        /// The existing root entries the changes touch (phase 1), by node in `snapshotOf`.
        var snapshots: [Snapshot] = []
        var snapshotOf: [Int32: Int] = [:]
        /// Root rows whose subtree is laid out again (phase 2, in phase 3).
        var dirty: [RowID] = []
        /// Root entries the changes create (phases 2 and 3).
        var newNodes: [Int32] = []

        /// Every entry marked touched by the phases.
        var touchedNodes: [Int32] { snapshots.map(\.node) + newNodes }
    }

    /// Applies `changes` in the incremental regime, in phases: snapshot the root entries they
    /// touch (1), apply the structural changes to the root line (2), lay the changed root rows'
    /// subtrees out again (3), then report from the touched entries, the shift of the untouched
    /// ones and the rows visible before or after (4). When the changes leave the regime, one
    /// full relayout reported against the old layout rebuilt from the snapshots.
    mutating func applyIncrementally(_ changes: [Change], to document: Document) -> LayoutChangeReport {
        var state = ApplyState(offsetBefore: offset, contentBefore: contentSize, viewportBefore: viewportRect,
                               visibleBefore: visibleRows(), lastShownBefore: line.lastShown())
        snapshotTouchedEntries(changes, document, &state)
        applyStructuralChanges(changes, document, &state)
        layOutDirtyEntries(document, &state)
        guard regimeHolds else { return relayoutLeavingRegime(document, state) }
        let report = changeReport(state)
        line.clearTouched(state.touchedNodes)
        return report
    }

    // MARK: Phase 1: snapshots

    /// Phase 1, before any structural change: snapshots every existing root entry the changes
    /// touch (the entries of the rows they name and of those rows' root ancestors), marks them
    /// touched and records their rank among the untouched entries.
    mutating func snapshotTouchedEntries(_ changes: [Change], _ document: Document, _ state: inout ApplyState) {
        for change in changes {
            switch change {
            case let .insertRow(id, _, parent, _):
                snapshotEntries(of: parent, document, &state); snapshotEntries(of: id, document, &state)
            case let .removeRow(id, _, parent, _):
                snapshotEntries(of: id, document, &state); snapshotEntries(of: parent, document, &state)
            case let .updateRow(id, _, _):
                snapshotEntries(of: id, document, &state)
            case let .moveRow(id, from, _, to, _):
                snapshotEntries(of: id, document, &state); snapshotEntries(of: from, document, &state)
                snapshotEntries(of: to, document, &state)
            case .updateSettings: break
            }
        }
        for s in state.snapshots {
            line.touched[Int(s.node)] = true
            line.elementChanged(s.node)
        }
        for i in state.snapshots.indices {
            let at = line.locate(state.snapshots[i].node)
            state.snapshots[i].oldRank = at.index - at.touchedBefore
        }
    }

    /// Snapshots the entry holding `id` and the entry of its root ancestor in `document` (the
    /// final document; the ancestor's entry when it existed before), unless already snapshotted.
    func snapshotEntries(of id: RowID?, _ document: Document, _ state: inout ApplyState) {
        guard let id else { return }
        var ids: [RowID] = [id]
        let root = rootAncestor(of: id, in: document)
        if root != id { ids.append(root) }
        for candidate in ids {
            guard let l = owner(of: candidate), state.snapshotOf[l.node] == nil else { continue }
            let at = line.locate(l.node)
            let rows = entryRows(l.node, base: at.before, index: at.index, lastShown: state.lastShownBefore,
                                 viewport: state.viewportBefore)
            state.snapshotOf[l.node] = state.snapshots.count
            state.snapshots.append(Snapshot(node: l.node, oldIndex: at.index,
                                            oldContribution: line.contribution[Int(l.node)], rows: rows))
        }
    }

    /// The outermost ancestor of `id` in `document` (at most 64 steps up), `id` for a root row.
    func rootAncestor(of id: RowID, in document: Document) -> RowID {
        var x: RowID = id
        var steps = 0
        while case let .some(.some(p)) = document.parent(of: x), steps < 64 { x = p; steps += 1 }
        return x
    }

    // MARK: Phase 2: the root line's structure

    /// Phase 2: the structural changes on the root line. A root row inserted gets an empty
    /// placeholder entry, a root row removed loses its entry, a move between root positions
    /// moves the entry; every other change marks the root row whose subtree it alters dirty.
    /// Subtrees are laid out in phase 3.
    mutating func applyStructuralChanges(_ changes: [Change], _ document: Document, _ state: inout ApplyState) {
        for change in changes {
            switch change {
            case let .insertRow(id, _, parent, index):
                if parent == nil { insertPlaceholder(id, at: index, &state) } else { markNested(parent, document, &state) }
            case let .removeRow(_, _, parent, index):
                if parent == nil { removeEntry(at: index) } else { markNested(parent, document, &state) }
            case let .updateRow(id, _, _):
                if let l = owner(of: id), l.k == 0, l.inner < 0 { state.dirty.append(id) } else { markNested(id, document, &state) }
            case let .moveRow(id, fromParent, fromIndex, toParent, toIndex):
                if fromParent == nil, toParent == nil {
                    guard fromIndex < line.count else { continue }
                    let node = line.detach(at: fromIndex)
                    line.reinsert(node, at: min(toIndex, line.count))
                } else {
                    if fromParent == nil { removeEntry(at: fromIndex) } else { markNested(fromParent, document, &state) }
                    if toParent == nil { insertPlaceholder(id, at: toIndex, &state) } else { markNested(toParent, document, &state) }
                }
            case let .updateSettings(_, new):
                settings = new
            }
        }
    }

    /// Marks dirty the root row of the entry holding nested row `id` and its root ancestor in
    /// `document` (they differ when `id` moved between root rows).
    func markNested(_ id: RowID?, _ document: Document, _ state: inout ApplyState) {
        guard let id else { return }
        if let l = owner(of: id) { state.dirty.append(line.entries.id(Int(l.node), 0)) }
        let root = rootAncestor(of: id, in: document)
        if document.contains(root) { state.dirty.append(root) }
    }

    /// Inserts an empty, touched entry for root row `id` at `index` (clamped), to be laid out in
    /// phase 3.
    mutating func insertPlaceholder(_ id: RowID, at index: Int, _ state: inout ApplyState) {
        var e = LocalRows.empty
        e.id = id
        let node = line.insert(e, contribution: 0, touched: true, at: min(index, line.count))
        self.index(node)
        state.newNodes.append(node)
        state.dirty.append(id)
    }

    /// Removes the root entry at `index` (nothing when past the end) and its rows' locations.
    mutating func removeEntry(at index: Int) {
        guard index < line.count else { return }
        let node = line.detach(at: index)
        if line.entries.shown(Int(node)) && line.entries.grow(Int(node)) > 0 { growing -= 1 }
        dropLocations(of: node)
        line.release(node)
    }

    // MARK: Phase 3: subtrees

    /// Phase 3: lays out each dirty root row's subtree on its own (`LocalRows.compute`) and
    /// updates its entry, contribution, the growing count and the row index.
    mutating func layOutDirtyEntries(_ document: Document, _ state: inout ApplyState) {
        var done = Set<RowID>()
        for id in state.dirty where !done.contains(id) {
            done.insert(id)
            guard let node = rootNode(of: id), let entry = LocalRows.compute(id, in: document) else { continue }
            if !line.touched[Int(node)] {
                // Not foreseen by the snapshot pass (cannot happen for changes that fit the
                // document); report it as new.
                line.touched[Int(node)] = true
                state.newNodes.append(node)
            }
            if line.entries.shown(Int(node)) && line.entries.grow(Int(node)) > 0 { growing -= 1 }
            if entry.shown && entry.grow > 0 { growing += 1 }
            // The same rows in the same order keep their locations (a change inside a big
            // nested stack does not index its rows again).
            // A stack line is indexed again: its nodes are numbered anew.
            let wasLine = line.entries.isLine(Int(node))
            var sameRows = !wasLine && line.entries.holdsSameRows(Int(node), as: entry)
            if !sameRows { dropLocations(of: node) }
            setEntry(node, entry, config: document.config(of: id), in: document)
            if line.entries.isLine(Int(node)) { sameRows = false }
            line.contribution[Int(node)] = entry.shown ? line.entries.outerLength(Int(node)) + gap : 0
            line.elementChanged(node)
            if !sameRows { index(node) }
        }
    }

    // MARK: Leaving the regime

    /// After phase 3 when the root's free space now matters: lays everything out, reported
    /// against the old layout rebuilt from the snapshots and the shift of the untouched rows.
    mutating func relayoutLeavingRegime(_ document: Document, _ state: ApplyState) -> LayoutChangeReport {
        let before = oldLayout(snapshots: state.snapshots, offset: state.offsetBefore, contentSize: state.contentBefore,
                               viewport: state.viewportBefore)
        line.clearTouched(state.touchedNodes)
        rebuild(document)
        var report = LayoutChangeReport(before: before, after: layout())
        report.fullRelayout = true
        return report
    }

    /// The layout before a change, from the snapshots of the touched entries and the untouched
    /// entries moved back by their shift. O(n); only for a fallback after the changes.
    private func oldLayout(snapshots: [Snapshot], offset: Double, contentSize: Size, viewport: Rect) -> DocumentLayout {
        // Old order: untouched entries by rank, the touched old entries placed at their rank.
        let byRank = snapshots.sorted { ($0.oldRank, $0.oldIndex) < ($1.oldRank, $1.oldIndex) }
        var rows: [RowLayout] = []
        var nextSnapshot = 0
        var rank = 0
        var oldBase = 0.0
        var node = line.first()
        func emitSnapshots(upTo r: Int) {
            while nextSnapshot < byRank.count, byRank[nextSnapshot].oldRank <= r {
                rows.append(contentsOf: byRank[nextSnapshot].rows)
                oldBase += byRank[nextSnapshot].oldContribution
                nextSnapshot += 1
            }
        }
        while node >= 0 {
            if !line.touched[Int(node)] {
                emitSnapshots(upTo: rank)
                rows.append(contentsOf: entryRows(node, base: oldBase, index: 0, lastShown: -1, viewport: viewport))
                oldBase += line.contribution[Int(node)]
                rank += 1
            }
            node = line.successor(node)
        }
        emitSnapshots(upTo: Int.max)
        return DocumentLayout(document: document, axis: settings.axis, viewport: settings.viewport, offset: offset,
                              contentSize: contentSize, rows: rows, obscured: settings.obscured)
    }
}
