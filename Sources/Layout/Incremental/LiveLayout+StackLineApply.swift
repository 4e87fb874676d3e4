// Changes inside one root stack kept as a line (`StackLine`): applied to that line in
// O(log n) plus the rows of the children they touch, like changes at the root (issue 11, item 5).

extension LiveLayout {
    /// The root node of the stack line every change of `changes` happens inside (rows below its
    /// stack row inserted, removed, moved among them, or updated), or nil. Only while the root's
    /// positions are prefix sums whatever the lengths (`justify start`, no growing root row), so
    /// a new length of the stack cannot leave the regime.
    func stackLineHolding(_ changes: [Change]) -> Int32? {
        guard full == nil, settings.justify == .start, growing == 0, !changes.isEmpty else { return nil }
        func below(_ id: RowID) -> Int32? {
            guard let l = owner(of: id), l.inner >= 0 else { return nil }
            return l.node
        }
        func stackOrBelow(_ id: RowID?) -> Int32? {
            guard let id else { return nil }
            if let r = rootNode(of: id) { return line.entries.isLine(Int(r)) ? r : nil }
            return below(id)
        }
        var node: Int32?
        for change in changes {
            let n: Int32?
            switch change {
            case let .updateRow(id, _, _): n = below(id)
            case let .insertRow(_, _, parent, _): n = stackOrBelow(parent)
            case let .removeRow(id, _, _, _): n = below(id)
            case let .moveRow(id, from, _, to, _):
                let a = below(id)
                n = a != nil && stackOrBelow(from) == a && stackOrBelow(to) == a ? a : nil
            case .updateSettings: n = nil
            }
            guard let n, node == nil || node == n else { return nil }
            node = n
        }
        return node
    }

    /// What applying changes inside a stack line carries between its phases.
    struct StackLineUpdate {
        var node: Int32
        var id: RowID
        /// The stack row's margin-box start and its row before the changes.
        var start: Double
        var oldRow: RowLayout
        var snapshots: [Snapshot] = []
        var snapshotOf: [Int32: Int] = [:]
        var dirty: [RowID] = []
        var newNodes: [Int32] = []
        var touchedNodes: [Int32] { snapshots.map(\.node) + newNodes }
    }

    /// Applies `changes`, all inside the stack line at root node `node` (`stackLineHolding`):
    /// the phases of `applyIncrementally` on the stack's own line (snapshots of the children
    /// they touch, structure, the touched children laid out on their own under the stack's
    /// `context`), then the stack's new length on the root line (one entry changed), then the
    /// report from the touched children, the shift of the untouched ones, the stack row and the
    /// rows visible before or after.
    mutating func applyInsideStackLine(_ node: Int32, _ changes: [Change], _ document: Document) -> LayoutChangeReport {
        let i = Int(node)
        let at = line.locate(node)
        let viewportBefore = viewportRect
        var state = ApplyState(offsetBefore: offset, contentBefore: contentSize, viewportBefore: viewportBefore,
                               visibleBefore: visibleRows(), lastShownBefore: line.lastShown())
        var update = StackLineUpdate(node: node, id: line.entries.ids[i], start: paddingStart + at.before,
                                     oldRow: absolute(node, 0, base: at.before, index: at.index,
                                                      lastShown: state.lastShownBefore, viewport: viewportBefore))
        snapshotChildren(changes, document, &update, viewport: viewportBefore)
        // The line is taken out of the root's entries while it changes (no copy of its columns).
        var sl = LiveEntries.emptyLine
        line.entries.withStackLine(i) { swap(&$0, &sl) }
        for s in update.snapshots {
            sl.line.touched[Int(s.node)] = true
            sl.line.elementChanged(s.node)
        }
        for k in update.snapshots.indices {
            let a = sl.line.locate(update.snapshots[k].node)
            update.snapshots[k].oldRank = a.index - a.touchedBefore
        }
        applyChildStructure(changes, document, &sl, &update)
        layOutDirtyChildren(document, &sl, &update)
        line.entries.withStackLine(i) { swap(&$0, &sl) }
        line.contribution[i] = line.entries.outerLength(i) + gap
        line.elementChanged(node)
        state.snapshots = update.snapshots
        let report = stackLineReport(update, state)
        let touched = update.touchedNodes
        line.entries.withStackLine(i) { $0.line.clearTouched(touched) }
        return report
    }

    /// The child of stack `stack` that holds `id` in `document` (`id` itself for a child), or nil.
    func child(of stack: RowID, holding id: RowID, in document: Document) -> RowID? {
        var x = id
        var steps = 0
        while case let .some(.some(p)) = document.parent(of: x), steps < 64 {
            if p == stack { return x }
            x = p
            steps += 1
        }
        return nil
    }

    /// The node of the stack line's entry holding `id` and `id`'s place in it, from the row
    /// index, checked against `sl` (the line being changed, out of the root's entries).
    func innerLocation(of id: RowID, _ update: StackLineUpdate, _ sl: StackLine) -> Location? {
        guard let l = nestedLocation[id], l.node == update.node, l.inner >= 0 else { return nil }
        let j = Int(l.inner)
        let e = sl.line.entries
        return j < e.count && e.isFilled(j) && Int(l.k) < e.rowCount(j) && e.id(j, Int(l.k)) == id ? l : nil
    }

    /// Phase 1 inside a stack line: snapshots the children the changes touch (before and after:
    /// the child holding a named row now, and the one holding it in `document`).
    func snapshotChildren(_ changes: [Change], _ document: Document, _ update: inout StackLineUpdate, viewport: Rect) {
        let sl = line.entries.stackLine(Int(update.node))
        let last = sl.line.lastShown()
        let autoHide = settings.defaults.autoHideLastSeparator
        func snapshot(_ id: RowID?) {
            guard let id else { return }
            var ids = [id]
            if let c = child(of: update.id, holding: id, in: document), c != id { ids.append(c) }
            for x in ids {
                guard let l = innerLocation(of: x, update, sl), update.snapshotOf[l.inner] == nil else { continue }
                let a = sl.line.locate(l.inner)
                let rows = (0..<sl.line.entries.rowCount(Int(l.inner))).map {
                    Self.classified(sl.row(l.inner, $0, start: update.start, of: update.id, autoHideLast: autoHide,
                                           at: (a.index, a.before), lastShown: last), viewport)
                }
                update.snapshotOf[l.inner] = update.snapshots.count
                update.snapshots.append(Snapshot(node: l.inner, oldIndex: a.index,
                                                 oldContribution: sl.line.contribution[Int(l.inner)], rows: rows))
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

    /// Phase 2 inside a stack line: children inserted, removed and moved on the line; every
    /// other change marks the children whose subtree it alters dirty.
    mutating func applyChildStructure(_ changes: [Change], _ document: Document, _ sl: inout StackLine,
                                      _ update: inout StackLineUpdate) {
        let stack = update.id
        func mark(_ id: RowID?) {
            guard let id else { return }
            if let l = innerLocation(of: id, update, sl) { update.dirty.append(sl.line.entries.id(Int(l.inner), 0)) }
            if let c = child(of: stack, holding: id, in: document) { update.dirty.append(c) }
        }
        func insert(_ id: RowID, at index: Int) {
            var e = LocalRows.empty
            e.id = id
            let n = sl.line.insert(e, contribution: 0, touched: true, at: min(index, sl.line.count))
            nestedLocation[id] = Location(node: update.node, k: 0, inner: n)
            update.newNodes.append(n)
            update.dirty.append(id)
        }
        func remove(at index: Int) {
            guard index < sl.line.count else { return }
            let n = sl.line.detach(at: index)
            sl.framed -= sl.line.entries.framedCount(Int(n))
            dropChildLocations(n, update, sl)
            sl.line.release(n)
        }
        for change in changes {
            switch change {
            case let .insertRow(id, _, parent, index):
                if parent == stack { insert(id, at: index) } else { mark(parent) }
            case let .removeRow(_, _, parent, index):
                if parent == stack { remove(at: index) } else { mark(parent) }
            case let .updateRow(id, _, _):
                mark(id)
            case let .moveRow(id, from, fromIndex, to, toIndex):
                if from == stack, to == stack {
                    guard fromIndex < sl.line.count else { continue }
                    let n = sl.line.detach(at: fromIndex)
                    sl.line.reinsert(n, at: min(toIndex, sl.line.count))
                } else {
                    if from == stack { remove(at: fromIndex) } else { mark(from) }
                    if to == stack { insert(id, at: toIndex) } else { mark(to) }
                }
            case .updateSettings: break
            }
        }
    }

    /// Forgets where the rows of the stack line's entry `n` are (those that still point there).
    mutating func dropChildLocations(_ n: Int32, _ update: StackLineUpdate, _ sl: StackLine) {
        let e = sl.line.entries
        for k in 0..<e.rowCount(Int(n)) {
            let id = e.id(Int(n), k)
            if let l = nestedLocation[id], l.node == update.node, l.inner == n, Int(l.k) == k { nestedLocation[id] = nil }
        }
    }

    /// Phase 3 inside a stack line: lays out each dirty child on its own under the stack's
    /// context and updates its entry, contribution, the framed count and the row index.
    mutating func layOutDirtyChildren(_ document: Document, _ sl: inout StackLine, _ update: inout StackLineUpdate) {
        var done = Set<RowID>()
        let defaults = settings.defaults
        for id in update.dirty where !done.contains(id) {
            done.insert(id)
            guard let l = nestedLocation[id], l.node == update.node, l.inner >= 0, l.k == 0,
                  Int(l.inner) < sl.line.entries.count, sl.line.entries.ids[Int(l.inner)] == id,
                  let entry = LocalRows.compute(id, in: document, context: sl.context, crossShift: sl.style.crossStart)
            else { continue }
            let n = l.inner
            let j = Int(n)
            if !sl.line.touched[j] {
                sl.line.touched[j] = true
                update.newNodes.append(n)
            }
            if sl.line.entries.isFilled(j) {
                sl.framed -= sl.line.entries.framedCount(j)
                dropChildLocations(n, update, sl)
            }
            sl.line.entries.set(j, entry, config: document.config(of: id), defaults: defaults)
            sl.framed += entry.framedCount
            sl.line.contribution[j] = entry.shown ? sl.line.entries.outerLength(j) + sl.gap : 0
            sl.line.elementChanged(n)
            for (k, r) in entry.rows.enumerated() {
                nestedLocation[r.id] = Location(node: update.node, k: Int32(k), inner: n)
            }
        }
    }

    /// Phase 4 inside a stack line: the report, from the touched children's rows, the shift of
    /// the untouched children (inside the stack) and of the root rows after it (the stack's
    /// change of length), the stack row, and the rows visible before or after.
    func stackLineReport(_ update: StackLineUpdate, _ state: ApplyState) -> LayoutChangeReport {
        var report = LayoutChangeReport(offsetBefore: state.offsetBefore, offsetAfter: offset,
                                        contentSizeBefore: state.contentBefore, contentSizeAfter: contentSize)
        let i = Int(update.node)
        let sl = line.entries.stackLine(i)
        let at = line.locate(update.node)
        let viewportNow = viewportRect
        let lastRoot = line.lastShown()
        let newRow = absolute(update.node, 0, base: at.before, index: at.index, lastShown: lastRoot, viewport: viewportNow)
        let delta = (newRow.frame?.height ?? 0) - (update.oldRow.frame?.height ?? 0)
        let touched = touchedEntries(update.touchedNodes, in: sl.line)
        let shifts = shiftSteps(update.snapshots, touched, in: sl.line)
        report.changedCount += shiftedUntouchedRowCount(shifts, in: sl.line)
        if delta != 0 {
            // The stack row and every framed row of the root entries after it.
            report.changedCount += 1 + line.summary.untouchedFramed - line.untouchedFramedRows(beforeUntouchedRank: at.index + 1)
        }
        // Children holding the same rows as before are compared by position, the others by id.
        var positional: [Int32: Int] = [:]
        var oldRow: [RowID: OldRow] = [:]
        for t in touched {
            guard let si = update.snapshotOf[t.node] else { continue }
            let old = update.snapshots[si].rows
            let j = Int(t.node)
            if old.count == sl.line.entries.rowCount(j), old.indices.allSatisfy({ old[$0].id == sl.line.entries.id(j, $0) }) {
                positional[t.node] = si
            }
        }
        for s in update.snapshots where positional[s.node] == nil {
            for (k, r) in s.rows.enumerated() { oldRow[r.id] = OldRow(row: r, order: (s.oldIndex, k)) }
        }
        var candidates: [Candidate] = []
        let rowsBefore = at.rowsBefore + 1
        let lastInner = sl.line.lastShown()
        let autoHide = settings.defaults.autoHideLastSeparator
        for t in touched {
            let same = positional[t.node].map { update.snapshots[$0].rows }
            let first = rowsBefore + sl.line.locate(t.node).rowsBefore
            for k in 0..<sl.line.entries.rowCount(Int(t.node)) {
                let r = Self.classified(sl.row(t.node, k, start: update.start, of: update.id, autoHideLast: autoHide,
                                               at: (t.index, t.before), lastShown: lastInner), viewportNow)
                let old = same.map { $0[k] } ?? oldRow[r.id]?.row
                if old?.frame != r.frame || old == nil { report.changedCount += 1 }
                if let old, same != nil, old.visibility == r.visibility, !Self.isShown(old.visibility), !Self.isShown(r.visibility) {
                    continue
                }
                candidates.append(Candidate(order: (first + k, 0), row: r, touched: true, old: old))
            }
        }
        candidates.append(Candidate(order: (at.rowsBefore, 0), row: newRow, touched: true, old: update.oldRow))
        var seen = Set<RowID>([update.id])
        let visibleAfter = rows(from: offset, to: offset + viewportMain).filter { Self.isShown($0.visibility) }
        for r in visibleAfter + state.visibleBefore {
            guard let l = owner(of: r.id), seen.insert(r.id).inserted else { continue }
            if l.node == update.node, l.inner >= 0, sl.line.touched[Int(l.inner)] { continue }
            guard let now = row(r.id), let p = position(of: r.id) else { continue }
            candidates.append(Candidate(order: (p, 0), row: now, touched: false))
        }
        candidates.sort { $0.order < $1.order }
        classify(candidates, visibleBefore: state.visibleBefore, into: &report) { id in
            guard let l = owner(of: id) else { return 0 }
            if l.node == update.node {
                guard l.inner >= 0 else { return 0 }
                let a = sl.line.locate(l.inner)
                return shift(ofRank: a.index - a.touchedBefore, shifts)
            }
            return line.locate(l.node).index > at.index ? delta : 0
        }
        report.removed = removedRows(oldRow)
        for id in report.removed {
            report.transitions.append(VisibilityTransition(row: id, from: oldRow[id]?.row.visibility, to: nil))
        }
        return report
    }
}
