// Keeping a LiveLayout up to date: `apply(_:to:)` and its change report.

extension LiveLayout {
    /// Brings the layout up to date with `changes`, which `document` already has (the store's
    /// `perform`/`undo`/`redo` return them), and reports what changed. Incremental in the regime
    /// described on `LiveLayout`; otherwise one full relayout (`report.fullRelayout`).
    @discardableResult
    public mutating func apply(_ changes: [Change], to document: Document) -> LayoutChangeReport {
        if let before = full, document.name == self.document,
           let after = Self.viewMoved(before, by: changes, settings: document.settings) {
            // Outside the incremental regime a scroll (of the root or of a stack that scrolls on
            // its own, or a change of the obscured edges) still lays nothing out: the same
            // frames at other offsets, sticky rows and the rows of scrolled stacks moved. O(n)
            // for the root's offset; O(scrollers + the stack's subtree) for a nested one.
            settings = document.settings
            full = after
            return LayoutChangeReport(before: before, after: after)
        }
        if needsFullRelayout(changes, document) { return relayout(document) }
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
                if c.sticky || c.scrollOffset != nil { return true }
            case let .updateRow(_, old, new):
                if old.sticky || new.sticky || old.scrollOffset != nil || new.scrollOffset != nil { return true }
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

    /// `layout` moved by `changes` when each only moves the view: a settings change of the
    /// offset or the obscured edges (`movesTheViewOnly`), or an `updateRow` of a shown scrolling
    /// stack that changes its offset and nothing else (SPEC §2.8). Nil for any other change.
    static func viewMoved(_ layout: DocumentLayout, by changes: [Change], settings: DocumentSettings) -> DocumentLayout? {
        var result = layout
        var rootMoved = false
        for change in changes {
            if movesTheViewOnly(change) { rootMoved = true; continue }
            guard case let .updateRow(id, old, new) = change, old.scrollOffset != nil,
                  let offset = new.scrollOffset else { return nil }
            var a = old
            a.scrollOffset = offset
            guard a == new, let next = result.scrolled(id, to: offset) else { return nil }
            result = next
        }
        if rootMoved {
            result.obscured = settings.obscured
            result.safeArea = settings.safeArea
            result = result.atOffset(settings.offset)
        }
        return result
    }

    /// A full relayout, reported by comparing the whole layouts. O(n).
    mutating func relayout(_ document: Document) -> LayoutChangeReport {
        let before = layout()
        rebuild(document)
        var report = LayoutChangeReport(before: before, after: layout())
        report.fullRelayout = true
        return report
    }

    /// One entry a change touches (of the line the changes happen in), as it was before them.
    struct Snapshot {
        var node: Int32
        /// Its index on its line before the changes.
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
        /// The last shown entry of the line the changes happen in, before them.
        var lastShownBefore: Int32
        /// The stack rows holding that line, outermost first, before the changes (none for the root line).
        var stackRowsBefore: [RowLayout] = []
        /// The existing entries the changes touch (phase 1), by node in `snapshotOf`.
        var snapshots: [Snapshot] = []
        var snapshotOf: [Int32: Int] = [:]
        /// Rows whose entry is laid out again (phase 2, in phase 3).
        var dirty: [RowID] = []
        /// Entries the changes create (phases 2 and 3).
        var newNodes: [Int32] = []

        /// Every entry marked touched by the phases.
        var touchedNodes: [Int32] { snapshots.map(\.node) + newNodes }
    }

    /// Applies `changes` in the incremental regime to the deepest line they all happen in
    /// (`lineHolding`: the root line, or a stack line at any depth), in phases: snapshot the
    /// entries of that line they touch (1), apply the structural changes to the line (2), lay the
    /// changed entries out again (3), bring the lengths along the line's path up to date, then
    /// report from the touched entries, the shift of the untouched ones (and of the rows after
    /// the stacks holding the line) and the rows visible before or after (4). When changes at the
    /// root leave the regime, one full relayout reported against the old layout rebuilt from the
    /// snapshots.
    mutating func applyIncrementally(_ changes: [Change], to document: Document) -> LayoutChangeReport {
        let place = self.place(lineHolding(changes))
        let viewport = viewportRect
        var state = ApplyState(offsetBefore: offset, contentBefore: contentSize, viewportBefore: viewport,
                               visibleBefore: visibleRows(), lastShownBefore: withLine(at: place.path[...]) { $0.lastShown() })
        state.stackRowsBefore = stackRows(along: place.path, viewport: viewport)
        snapshotTouchedEntries(changes, document, place, &state)
        var target = takeLine(place.path)
        for s in state.snapshots {
            target.touched[Int(s.node)] = true
            target.elementChanged(s.node)
        }
        for i in state.snapshots.indices {
            let at = target.locate(state.snapshots[i].node)
            state.snapshots[i].oldRank = at.index - at.touchedBefore
        }
        applyStructuralChanges(changes, document, place, &target, &state)
        layOutDirtyEntries(document, place, &target, &state)
        putLine(place.path, &target)
        if place.isRoot && !regimeHolds { return relayoutLeavingRegime(document, state) }
        let report = changeReport(place, state)
        clearTouched(place.path, state.touchedNodes)
        return report
    }

    /// Clears the touched flags of `nodes` on the line at the end of `path` (its framed count
    /// changes: the lengths along the path are brought up to date).
    mutating func clearTouched(_ path: [Int32], _ nodes: [Int32]) {
        if path.isEmpty { line.clearTouched(nodes) } else { line.withStackLine(at: path[...], gap: gap) { $0.line.clearTouched(nodes) } }
    }

    // MARK: Phase 1: snapshots

    /// Phase 1, before any structural change: snapshots every existing entry of the line at
    /// `place` the changes touch (the entries holding the rows they name now, and those holding
    /// them in `document`, the final document).
    func snapshotTouchedEntries(_ changes: [Change], _ document: Document, _ place: LinePlace, _ state: inout ApplyState) {
        let l = lineAt(place.path[...])
        let autoHide = settings.defaults.autoHideLastSeparator
        func snapshot(_ id: RowID?) {
            guard let id else { return }
            var nodes: [Int32] = []
            if let n = entryHolding(id, place, l) { nodes.append(n) }
            if let c = child(of: place.stack, holding: id, in: document), let n = entryHolding(c, place, l) { nodes.append(n) }
            for node in nodes where state.snapshotOf[node] == nil {
                let at = l.locate(node)
                var rows: [RowLayout] = []
                Self.forEachRow(of: node, in: l, origin: place.origin, stack: place.stack, at: (at.index, at.before),
                                lastShown: state.lastShownBefore, autoHideLast: autoHide) {
                    rows.append(Self.classified($0, state.viewportBefore))
                }
                state.snapshotOf[node] = state.snapshots.count
                state.snapshots.append(Snapshot(node: node, oldIndex: at.index, oldContribution: l.contribution[Int(node)],
                                                rows: rows))
            }
        }
        for change in changes {
            switch change {
            case let .insertRow(id, _, parent, _): snapshot(parent); snapshot(id)
            case let .removeRow(id, _, parent, _): snapshot(id); snapshot(parent)
            case let .updateRow(id, _, _): snapshot(id)
            case let .moveRow(id, from, _, to, _): snapshot(id); snapshot(from); snapshot(to)
            case .updateSettings: break
            }
        }
    }

    // MARK: Phase 2: the line's structure

    /// Phase 2: the structural changes on `target` (the line at `place`, taken out of the
    /// layout). A row inserted among its entries gets an empty placeholder entry, a row removed
    /// loses its entry, a move between its positions moves the entry; every other change marks
    /// the entries whose subtree it alters dirty (laid out in phase 3).
    mutating func applyStructuralChanges(_ changes: [Change], _ document: Document, _ place: LinePlace,
                                         _ target: inout RootLine, _ state: inout ApplyState) {
        let stack = place.stack
        for change in changes {
            switch change {
            case let .insertRow(id, _, parent, index):
                if parent == stack { insertPlaceholder(id, at: index, place, &target, &state) } else { markDirty(parent, document, place, target, &state) }
            case let .removeRow(_, _, parent, index):
                if parent == stack { removeEntry(at: index, place, &target) } else { markDirty(parent, document, place, target, &state) }
            case let .updateRow(id, _, _):
                markDirty(id, document, place, target, &state)
            case let .moveRow(id, fromParent, fromIndex, toParent, toIndex):
                if fromParent == stack, toParent == stack {
                    guard fromIndex < target.count else { continue }
                    let node = target.detach(at: fromIndex)
                    target.reinsert(node, at: min(toIndex, target.count))
                } else {
                    if fromParent == stack { removeEntry(at: fromIndex, place, &target) } else { markDirty(fromParent, document, place, target, &state) }
                    if toParent == stack { insertPlaceholder(id, at: toIndex, place, &target, &state) } else { markDirty(toParent, document, place, target, &state) }
                }
            case let .updateSettings(_, new):
                settings = new // only at the root line (`lineHolding`)
            }
        }
    }

    /// Marks dirty the entry of `target` holding `id` now and the one holding it in `document`
    /// (they differ when `id` moved between entries).
    func markDirty(_ id: RowID?, _ document: Document, _ place: LinePlace, _ target: RootLine, _ state: inout ApplyState) {
        guard let id else { return }
        if let n = entryHolding(id, place, target) { state.dirty.append(target.entries.ids[Int(n)]) }
        if let c = child(of: place.stack, holding: id, in: document) { state.dirty.append(c) }
    }

    /// Inserts an empty, touched entry for row `id` at `index` (clamped), to be laid out in phase 3.
    mutating func insertPlaceholder(_ id: RowID, at index: Int, _ place: LinePlace, _ target: inout RootLine,
                                    _ state: inout ApplyState) {
        var e = LocalRows.empty
        e.id = id
        let node = target.insert(e, contribution: 0, touched: true, at: min(index, target.count))
        indexRows(of: node, place, &target)
        state.newNodes.append(node)
        state.dirty.append(id)
    }

    /// Removes the entry at `index` (nothing when past the end) and its rows' locations.
    mutating func removeEntry(at index: Int, _ place: LinePlace, _ target: inout RootLine) {
        guard index < target.count else { return }
        let node = target.detach(at: index)
        if place.isRoot && target.entries.shown(Int(node)) && target.entries.grow(Int(node)) > 0 { growing -= 1 }
        forgetRows(of: node, place, target)
        target.release(node)
    }

    // MARK: Phase 3: subtrees

    /// Phase 3: lays out each dirty entry's subtree on its own (`LocalRows.compute`: as a root
    /// row, or as a child of the line's stack under its `context`) and updates its entry,
    /// contribution, the growing count (at the root) and the row index.
    mutating func layOutDirtyEntries(_ document: Document, _ place: LinePlace, _ target: inout RootLine,
                                     _ state: inout ApplyState) {
        var done = Set<RowID>()
        for id in state.dirty where done.insert(id).inserted {
            guard let node = entryNode(of: id, place, target), let entry = layOut(id, place, document) else { continue }
            rowsLaidOut += entry.rowCount
            let i = Int(node)
            if !target.touched[i] {
                // Not foreseen by the snapshot pass (cannot happen for changes that fit the
                // document); report it as new.
                target.touched[i] = true
                state.newNodes.append(node)
            }
            if place.isRoot {
                if target.entries.shown(i) && target.entries.grow(i) > 0 { growing -= 1 }
                if entry.shown && entry.grow > 0 { growing += 1 }
            }
            // The same rows in the same order keep their locations (a change inside a big
            // nested stack does not index its rows again); a stack line is indexed again.
            var sameRows = !target.entries.isLine(i) && target.entries.holdsSameRows(i, as: entry)
            if !sameRows { forgetRows(of: node, place, target) }
            setEntry(node, entry, config: document.config(of: id), in: document, place, &target)
            if target.entries.isLine(i) { sameRows = false }
            target.contribution[i] = entry.shown ? target.entries.outerLength(i) + place.gap : 0
            target.elementChanged(node)
            if !sameRows { indexRows(of: node, place, &target) }
        }
    }

    /// Row `id` and its subtree laid out on its own as an entry of the line at `place`.
    /// O(rows of the subtree).
    func layOut(_ id: RowID, _ place: LinePlace, _ document: Document) -> LocalRows? {
        place.isRoot ? LocalRows.compute(id, in: document)
            : LocalRows.compute(id, in: document, context: place.childSettings, crossShift: place.crossShift)
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
                              contentSize: contentSize, rows: rows, obscured: settings.obscured,
                              safeArea: settings.safeArea)
    }
}
