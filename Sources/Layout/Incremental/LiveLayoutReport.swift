// Phase 4 of `LiveLayout.applyIncrementally`: the change report, from the rows that could change.

extension LiveLayout {
    /// A touched root entry after the changes.
    struct TouchedEntry {
        var node: Int32
        var index: Int
        /// The main-axis length before it on the root line.
        var before: Double
        /// Its rank among the untouched entries (the number of untouched entries before it).
        var rank: Int
    }

    /// A row of a touched entry before the changes, with its old place (entry index, row in it).
    struct OldRow {
        var row: RowLayout
        var order: (Int, Int)
    }

    /// A row the report looks at: of a touched entry, or visible before or after the changes.
    struct Candidate {
        /// Its place in the new document order (entry index, row in it).
        var order: (Int, Int)
        var row: RowLayout
        var touched: Bool
    }

    /// Phase 4: the report, from the rows that could change only: the rows of the touched
    /// entries, the untouched rows counted by their shift (O(log n) per step of the shift), and
    /// the rows visible before or after the changes.
    func changeReport(_ state: ApplyState) -> LayoutChangeReport {
        var report = LayoutChangeReport(offsetBefore: state.offsetBefore, offsetAfter: offset,
                                        contentSizeBefore: state.contentBefore, contentSizeAfter: contentSize)
        let touched = touchedEntries(state)
        let shifts = shiftSteps(state.snapshots, touched)
        report.changedCount += shiftedUntouchedRowCount(shifts)

        var oldRow: [RowID: OldRow] = [:]
        for s in state.snapshots {
            for (k, r) in s.rows.enumerated() { oldRow[r.id] = OldRow(row: r, order: (s.oldIndex, k)) }
        }
        let viewportNow = viewportRect
        let lastNow = line.lastShown()
        var (candidates, changed) = touchedCandidates(touched, oldRow: oldRow, lastShown: lastNow, viewport: viewportNow)
        report.changedCount += changed
        var candidateIDs = Set(candidates.map(\.row.id))
        let visibleAfter = rows(from: offset, to: offset + viewportMain).filter { $0.visibility == .entire || $0.visibility == .partial }
        for r in visibleAfter + state.visibleBefore where !candidateIDs.contains(r.id) {
            guard let l = owner(of: r.id) else { continue }
            candidateIDs.insert(r.id)
            let at = line.locate(l.node)
            let now = absolute(l.node, Int(l.k), base: at.before, index: at.index, lastShown: lastNow, viewport: viewportNow)
            candidates.append(Candidate(order: (at.index, Int(l.k)), row: now, touched: false))
        }
        candidates.sort { $0.order < $1.order }
        classify(candidates, oldRow: oldRow, visibleBefore: state.visibleBefore, shifts: shifts, into: &report)
        report.removed = removedRows(oldRow)
        for id in report.removed {
            report.transitions.append(VisibilityTransition(row: id, from: oldRow[id]?.row.visibility, to: nil))
        }
        return report
    }

    /// The touched entries that are filled after the changes, once each, in the order they were
    /// touched.
    func touchedEntries(_ state: ApplyState) -> [TouchedEntry] {
        var result: [TouchedEntry] = []
        var seen = Set<Int32>()
        for node in state.touchedNodes where line.touched[Int(node)] && line.entries.isFilled(Int(node)) {
            guard seen.insert(node).inserted else { continue }
            let at = line.locate(node)
            result.append(TouchedEntry(node: node, index: at.index, before: at.before, rank: at.index - at.touchedBefore))
        }
        return result
    }

    /// The shift of the untouched entries as a step function of their rank among the untouched
    /// entries: each old touched entry takes its contribution away from the ranks after it, each
    /// new one adds its own. Steps sorted by rank; a rank's shift is the last step at or before it.
    func shiftSteps(_ snapshots: [Snapshot], _ touched: [TouchedEntry]) -> [(rank: Int, shift: Double)] {
        var events: [(rank: Int, delta: Double)] = snapshots.map { ($0.oldRank, -$0.oldContribution) }
        for t in touched { events.append((t.rank, line.contribution[Int(t.node)])) }
        events.sort { $0.rank < $1.rank }
        var steps: [(rank: Int, shift: Double)] = []
        var acc = 0.0
        for e in events {
            acc += e.delta
            if let last = steps.last, last.rank == e.rank { steps[steps.count - 1].shift = acc } else { steps.append((e.rank, acc)) }
        }
        return steps
    }

    /// The shift of the untouched entry of rank `r` (`shiftSteps`). O(log steps).
    func shift(ofRank r: Int, _ steps: [(rank: Int, shift: Double)]) -> Double {
        var lo = 0, hi = steps.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if steps[mid].rank <= r { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? 0 : steps[lo - 1].shift
    }

    /// The number of framed rows of untouched entries whose shift is not zero. O(log n) a step.
    func shiftedUntouchedRowCount(_ steps: [(rank: Int, shift: Double)]) -> Int {
        let untouched = line.count - line.touchedIn(line.root)
        var count = 0
        for (i, s) in steps.enumerated() where s.shift != 0 {
            let end = i + 1 < steps.count ? steps[i + 1].rank : untouched + 1
            count += line.untouchedFramedRows(beforeUntouchedRank: min(end, untouched))
                - line.untouchedFramedRows(beforeUntouchedRank: min(s.rank, untouched))
        }
        return count
    }

    /// The rows of the touched entries as laid out now, and how many of them are new or moved.
    func touchedCandidates(_ touched: [TouchedEntry], oldRow: [RowID: OldRow], lastShown: Int32,
                           viewport: Rect) -> (candidates: [Candidate], changed: Int) {
        var candidates: [Candidate] = []
        var changed = 0
        for t in touched {
            for k in 0..<line.entries.rowCount(Int(t.node)) {
                let r = absolute(t.node, k, base: t.before, index: t.index, lastShown: lastShown, viewport: viewport)
                candidates.append(Candidate(order: (t.index, k), row: r, touched: true))
                if let old = oldRow[r.id], old.row.frame == r.frame { continue }
                changed += 1
            }
        }
        return (candidates, changed)
    }

    /// Adds to `report` the candidates that changed while visible before or after (with their
    /// frames before and after), and their visibility transitions (arrivals included), in
    /// document order.
    func classify(_ candidates: [Candidate], oldRow: [RowID: OldRow], visibleBefore: [RowLayout],
                  shifts: [(rank: Int, shift: Double)], into report: inout LayoutChangeReport) {
        var visibleOld: [RowID: RowLayout] = [:]
        for r in visibleBefore { visibleOld[r.id] = r }
        func isShown(_ v: Visibility?) -> Bool { v == .entire || v == .partial }
        for c in candidates {
            let r = c.row
            let before: Visibility?
            let changed: Bool
            var oldFrame: Rect?
            if c.touched {
                let old = oldRow[r.id]?.row
                before = old?.visibility
                oldFrame = old?.frame
                changed = old.map { $0.frame != r.frame } ?? true
            } else {
                // An untouched entry only moved along the root line: its rows' frames moved by
                // the entry's shift (exact: layout units add exactly).
                before = visibleOld[r.id]?.visibility ?? (r.visibility == .hidden ? .hidden : .offscreen)
                let at = line.locate(owner(of: r.id)!.node)
                let shift = shift(ofRank: at.index - at.touchedBefore, shifts)
                changed = r.frame != nil && shift != 0
                if changed, let f = r.frame {
                    oldFrame = visibleOld[r.id]?.frame ?? (settings.axis == .vertical
                        ? Rect(x: f.x, y: f.y - shift, width: f.width, height: f.height)
                        : Rect(x: f.x - shift, y: f.y, width: f.width, height: f.height))
                }
            }
            if changed && (isShown(r.visibility) || isShown(before)) {
                report.moved.append(FrameChange(row: r.id, from: oldFrame, to: r.frame))
            }
            if before != r.visibility {
                report.transitions.append(VisibilityTransition(row: r.id, from: before, to: r.visibility))
            }
        }
    }

    /// The rows of touched entries that left the document, in the old order.
    func removedRows(_ oldRow: [RowID: OldRow]) -> [RowID] {
        var gone: [((Int, Int), RowID)] = []
        for (id, old) in oldRow where owner(of: id) == nil { gone.append((old.order, id)) }
        gone.sort { $0.0 < $1.0 }
        return gone.map(\.1)
    }
}
