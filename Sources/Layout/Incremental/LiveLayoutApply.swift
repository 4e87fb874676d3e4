// Keeping a LiveLayout up to date: `apply(_:to:)` and its change report.

extension LiveLayout {
    /// Brings the layout up to date with `changes`, which `document` already has (the store's
    /// `perform`/`undo`/`redo` return them), and reports what changed. Incremental in the regime
    /// described on `LiveLayout`; otherwise one full relayout (`report.fullRelayout`).
    @discardableResult
    public mutating func apply(_ changes: [Change], to document: Document) -> LayoutChangeReport {
        if let reason = fullReason(changes, document) {
            return relayout(document, reason: reason)
        }
        return applyIncrementally(changes, to: document)
    }

    /// Why `changes` need a full relayout, or nil when they can be applied incrementally.
    func fullReason(_ changes: [Change], _ document: Document) -> String? {
        if full != nil { return "the root's free space is distributed (justify or grow with content shorter than the viewport)" }
        if document.name != self.document { return "another document" }
        for change in changes {
            guard case let .updateSettings(old, new) = change else { continue }
            var a = old, b = new
            a.offset = 0; b.offset = 0
            if vertical { a.viewport.height = 0; b.viewport.height = 0 } else { a.viewport.width = 0; b.viewport.width = 0 }
            if a != b { return "a settings change that affects every row" }
        }
        return nil
    }

    /// A full relayout, reported by comparing the whole layouts. O(n).
    mutating func relayout(_ document: Document, reason: String) -> LayoutChangeReport {
        let before = layout()
        rebuild(document, reason: reason)
        var report = LayoutChangeReport(before: before, after: layout())
        report.fullRelayout = true
        return report
    }

    fileprivate struct Snapshot {
        var node: Int32
        var oldIndex: Int
        var oldRank = 0
        var oldContribution: Double
        var rows: [RowLayout]
    }

    mutating func applyIncrementally(_ changes: [Change], to document: Document) -> LayoutChangeReport {
        lastFallback = nil
        let offsetBefore = offset
        let contentBefore = contentSize
        let viewportBefore = viewportRect
        let visibleBefore = visibleRows()

        // 1. Before any structural change: snapshot every existing root entry the changes touch.
        var snapshots: [Snapshot] = []
        var snapshotOf: [Int32: Int] = [:]
        let lastBefore = line.lastShown()
        func touchOld(_ id: RowID?) {
            guard let id else { return }
            var ids: [RowID] = [id]
            // The root ancestor in the final document, when it existed before.
            var x: RowID = id
            var steps = 0
            while case let .some(.some(p)) = document.parent(of: x), steps < 64 { x = p; steps += 1 }
            if x != id { ids.append(x) }
            for candidate in ids {
                guard let l = owner(of: candidate), snapshotOf[l.node] == nil else { continue }
                let at = line.locate(l.node)
                var rows: [RowLayout] = []
                for k in 0..<line.entries.rowCount(Int(l.node)) {
                    rows.append(absolute(l.node, k, base: at.before, index: at.index, lastShown: lastBefore,
                                         viewport: viewportBefore))
                }
                snapshotOf[l.node] = snapshots.count
                snapshots.append(Snapshot(node: l.node, oldIndex: at.index,
                                          oldContribution: line.contribution[Int(l.node)], rows: rows))
            }
        }
        for change in changes {
            switch change {
            case let .insertRow(id, _, parent, _): touchOld(parent); touchOld(id)
            case let .removeRow(id, _, parent, _): touchOld(id); touchOld(parent)
            case let .updateRow(id, _, _): touchOld(id)
            case let .moveRow(id, from, _, to, _): touchOld(id); touchOld(from); touchOld(to)
            case .updateSettings: break
            }
        }
        for s in snapshots {
            line.touched[Int(s.node)] = true
            line.pullToRoot(s.node)
        }
        for i in snapshots.indices {
            let at = line.locate(snapshots[i].node)
            snapshots[i].oldRank = at.index - at.touchedBefore
        }

        // 2. Structural changes on the root line; subtrees are recomputed at the end.
        var dirty: [RowID] = []
        var newNodes: [Int32] = []
        func markNested(_ id: RowID?) {
            guard let id else { return }
            if let l = owner(of: id) { dirty.append(line.entries.id(Int(l.node), 0)) }
            var x: RowID = id
            var steps = 0
            while case let .some(.some(p)) = document.parent(of: x), steps < 64 { x = p; steps += 1 }
            if document.contains(x) { dirty.append(x) }
        }
        func insertPlaceholder(_ id: RowID, at index: Int) {
            var e = LocalRows.empty
            e.id = id
            let node = line.insert(e, contribution: 0, touched: true, at: min(index, line.count))
            self.index(node)
            newNodes.append(node)
            dirty.append(id)
        }
        func removeEntry(at index: Int) {
            guard index < line.count else { return }
            let node = line.detach(at: index)
            if line.entries.shown(Int(node)) && line.entries.grow(Int(node)) > 0 { growing -= 1 }
            dropLocations(of: node)
            line.release(node)
        }
        for change in changes {
            switch change {
            case let .insertRow(id, _, parent, index):
                if parent == nil { insertPlaceholder(id, at: index) } else { markNested(parent) }
            case let .removeRow(_, _, parent, index):
                if parent == nil { removeEntry(at: index) } else { markNested(parent) }
            case let .updateRow(id, _, _):
                if let l = owner(of: id), l.k == 0 { dirty.append(id) } else { markNested(id) }
            case let .moveRow(id, fromParent, fromIndex, toParent, toIndex):
                if fromParent == nil, toParent == nil {
                    guard fromIndex < line.count else { continue }
                    let node = line.detach(at: fromIndex)
                    line.reinsert(node, at: min(toIndex, line.count))
                } else {
                    if fromParent == nil { removeEntry(at: fromIndex) } else { markNested(fromParent) }
                    if toParent == nil { insertPlaceholder(id, at: toIndex) } else { markNested(toParent) }
                }
            case let .updateSettings(_, new):
                settings = new
            }
        }

        // 3. Lay out the changed root rows' subtrees on their own.
        var done = Set<RowID>()
        for id in dirty where !done.contains(id) {
            done.insert(id)
            guard let node = rootNode(of: id), let entry = LocalRows.compute(id, in: document) else { continue }
            if !line.touched[Int(node)] {
                // Not foreseen by the snapshot pass (cannot happen for changes that fit the
                // document); report it as new.
                line.touched[Int(node)] = true
                newNodes.append(node)
            }
            if line.entries.shown(Int(node)) && line.entries.grow(Int(node)) > 0 { growing -= 1 }
            if entry.shown && entry.grow > 0 { growing += 1 }
            dropLocations(of: node)
            line.entries.set(Int(node), entry, config: document.config(of: id), defaults: settings.defaults)
            line.contribution[Int(node)] = entry.shown ? line.entries.outerLength(Int(node)) + gap : 0
            line.pullToRoot(node)
            index(node)
        }

        if !regimeHolds {
            // The root's free space now matters: lay everything out. The old layout is rebuilt
            // from the snapshots and the shift of the untouched rows.
            let before = oldLayout(snapshots: snapshots, offset: offsetBefore, contentSize: contentBefore,
                                   viewport: viewportBefore)
            line.clearTouched(snapshots.map(\.node) + newNodes)
            rebuild(document, reason: "the root's free space is distributed (justify or grow with content shorter than the viewport)")
            var report = LayoutChangeReport(before: before, after: layout())
            report.fullRelayout = true
            return report
        }

        // 4. The report, from the rows that could change only.
        var report = LayoutChangeReport(offsetBefore: offsetBefore, offsetAfter: offset,
                                        contentSizeBefore: contentBefore, contentSizeAfter: contentSize)
        let touchedNow = (snapshots.map(\.node) + newNodes).filter { line.touched[Int($0)] && line.entries.isFilled(Int($0)) }
        // Shift of untouched entries as a step function of their rank.
        var events: [(rank: Int, delta: Double)] = snapshots.map { ($0.oldRank, -$0.oldContribution) }
        var touchedAfter: [(node: Int32, index: Int, before: Double)] = []
        var seenNodes = Set<Int32>()
        for node in touchedNow where seenNodes.insert(node).inserted {
            let at = line.locate(node)
            events.append((at.index - at.touchedBefore, line.contribution[Int(node)]))
            touchedAfter.append((node, at.index, at.before))
        }
        events.sort { $0.rank < $1.rank }
        var steps: [(rank: Int, shift: Double)] = []
        var acc = 0.0
        for e in events {
            acc += e.delta
            if let last = steps.last, last.rank == e.rank { steps[steps.count - 1].shift = acc } else { steps.append((e.rank, acc)) }
        }
        func shift(ofRank r: Int) -> Double {
            var lo = 0, hi = steps.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if steps[mid].rank <= r { lo = mid + 1 } else { hi = mid }
            }
            return lo == 0 ? 0 : steps[lo - 1].shift
        }
        let untouched = line.count - line.touchedIn(line.root)
        for (i, s) in steps.enumerated() where s.shift != 0 {
            let end = i + 1 < steps.count ? steps[i + 1].rank : untouched + 1
            report.changedCount += line.untouchedFramedRows(beforeUntouchedRank: min(end, untouched))
                - line.untouchedFramedRows(beforeUntouchedRank: min(s.rank, untouched))
        }

        // Old rows of touched entries by id.
        var oldRow: [RowID: (row: RowLayout, order: (Int, Int))] = [:]
        for s in snapshots {
            for (k, r) in s.rows.enumerated() { oldRow[r.id] = (r, (s.oldIndex, k)) }
        }
        let viewportNow = viewportRect
        let lastNow = line.lastShown()
        var visibleOld: [RowID: Visibility] = [:]
        for r in visibleBefore { visibleOld[r.id] = r.visibility }

        // Candidates in the new document order: rows of touched entries, rows visible before or after.
        var candidates: [(order: (Int, Int), row: RowLayout, touched: Bool)] = []
        var candidateIDs = Set<RowID>()
        for t in touchedAfter {
            for k in 0..<line.entries.rowCount(Int(t.node)) {
                let r = absolute(t.node, k, base: t.before, index: t.index, lastShown: lastNow, viewport: viewportNow)
                candidateIDs.insert(r.id)
                candidates.append(((t.index, k), r, true))
                if let old = oldRow[r.id] {
                    if old.row.frame == r.frame { continue }
                }
                report.changedCount += 1
            }
        }
        let o = offset
        let visibleAfter = rows(from: o, to: o + viewportMain).filter { $0.visibility == .entire || $0.visibility == .partial }
        for r in visibleAfter + visibleBefore where !candidateIDs.contains(r.id) {
            guard let l = owner(of: r.id) else { continue }
            candidateIDs.insert(r.id)
            let at = line.locate(l.node)
            let now = absolute(l.node, Int(l.k), base: at.before, index: at.index, lastShown: lastNow, viewport: viewportNow)
            candidates.append(((at.index, Int(l.k)), now, false))
        }
        candidates.sort { $0.order < $1.order }
        func isShown(_ v: Visibility?) -> Bool { v == .entire || v == .partial }
        for c in candidates {
            let r = c.row
            let before: Visibility?
            let changed: Bool
            if c.touched {
                before = oldRow[r.id]?.row.visibility
                changed = oldRow[r.id].map { $0.row.frame != r.frame } ?? true
            } else {
                before = visibleOld[r.id] ?? (r.visibility == .hidden ? .hidden : .offscreen)
                let at = line.locate(owner(of: r.id)!.node)
                changed = r.frame != nil && shift(ofRank: at.index - at.touchedBefore) != 0
            }
            if changed && (isShown(r.visibility) || isShown(before)) { report.changedVisible.append(r.id) }
            if let before, before != r.visibility {
                report.transitions.append(VisibilityTransition(row: r.id, from: before, to: r.visibility))
            }
        }
        // Rows that left the document, in the old order.
        var gone: [((Int, Int), RowID)] = []
        for (id, old) in oldRow where owner(of: id) == nil { gone.append((old.order, id)) }
        gone.sort { $0.0 < $1.0 }
        report.removed = gone.map(\.1)

        line.clearTouched(snapshots.map(\.node) + newNodes)
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
                for k in 0..<line.entries.rowCount(Int(node)) {
                    rows.append(absolute(node, k, base: oldBase, index: 0, lastShown: -1, viewport: viewport))
                }
                oldBase += line.contribution[Int(node)]
                rank += 1
            }
            node = line.successor(node)
        }
        emitSnapshots(upTo: Int.max)
        return DocumentLayout(document: document, axis: settings.axis, viewport: settings.viewport, offset: offset,
                              contentSize: contentSize, rows: rows)
    }
}
