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
        /// For a row of a touched entry: the row before the changes (nil when it is new).
        var old: RowLayout? = nil
    }

    /// Phase 4: the report, from the rows that could change only: the rows of the touched
    /// entries, the untouched rows counted by their shift (O(log n) per step of the shift), and
    /// the rows visible before or after the changes.
    func changeReport(_ state: ApplyState) -> LayoutChangeReport {
        var report = LayoutChangeReport(offsetBefore: state.offsetBefore, offsetAfter: offset,
                                        contentSizeBefore: state.contentBefore, contentSizeAfter: contentSize)
        let touched = touchedEntries(state)
        let shifts = shiftSteps(state.snapshots, touched, in: line)
        report.changedCount += shiftedUntouchedRowCount(shifts, in: line)

        // Entries that hold the same rows as before, in the same order, are compared row by row;
        // the rows of the others are matched by id.
        let positional = positionalSnapshots(state, touched)
        var oldRow: [RowID: OldRow] = [:]
        for s in state.snapshots where positional[s.node] == nil {
            for (k, r) in s.rows.enumerated() { oldRow[r.id] = OldRow(row: r, order: (s.oldIndex, k)) }
        }
        let viewportNow = viewportRect
        let lastNow = line.lastShown()
        var (candidates, changed) = touchedCandidates(touched, oldRow: oldRow, positional: positional,
                                                      snapshots: state.snapshots, lastShown: lastNow, viewport: viewportNow)
        report.changedCount += changed
        // Every row of a touched entry that can be reported is a candidate already.
        var seen = Set<RowID>()
        let visibleAfter = rows(from: offset, to: offset + viewportMain).filter { $0.visibility == .entire || $0.visibility == .partial }
        for r in visibleAfter + state.visibleBefore {
            guard let l = owner(of: r.id), !line.touched[Int(l.node)], seen.insert(r.id).inserted else { continue }
            let at = line.locate(l.node)
            let k = offset(of: l)
            let now = absolute(l.node, k, base: at.before, index: at.index, lastShown: lastNow, viewport: viewportNow)
            candidates.append(Candidate(order: (at.index, k), row: now, touched: false))
        }
        candidates.sort { $0.order < $1.order }
        classify(candidates, visibleBefore: state.visibleBefore, into: &report) { id in
            let at = line.locate(owner(of: id)!.node)
            return shift(ofRank: at.index - at.touchedBefore, shifts)
        }
        report.removed = removedRows(oldRow)
        for id in report.removed {
            report.transitions.append(VisibilityTransition(row: id, from: oldRow[id]?.row.visibility, to: nil))
        }
        return report
    }

    /// The touched entries that are filled after the changes, once each, in the order they were
    /// touched.
    func touchedEntries(_ state: ApplyState) -> [TouchedEntry] { touchedEntries(state.touchedNodes, in: line) }

    /// The touched entries of `line` among `nodes` that are filled, once each, in order.
    func touchedEntries(_ nodes: [Int32], in line: RootLine) -> [TouchedEntry] {
        var result: [TouchedEntry] = []
        var seen = Set<Int32>()
        for node in nodes where line.touched[Int(node)] && line.entries.isFilled(Int(node)) {
            guard seen.insert(node).inserted else { continue }
            let at = line.locate(node)
            result.append(TouchedEntry(node: node, index: at.index, before: at.before, rank: at.index - at.touchedBefore))
        }
        return result
    }

    /// The shift of the untouched entries as a step function of their rank among the untouched
    /// entries: each old touched entry takes its contribution away from the ranks after it, each
    /// new one adds its own. Steps sorted by rank; a rank's shift is the last step at or before it.
    func shiftSteps(_ snapshots: [Snapshot], _ touched: [TouchedEntry], in line: RootLine) -> [(rank: Int, shift: Double)] {
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
    func shiftedUntouchedRowCount(_ steps: [(rank: Int, shift: Double)], in line: RootLine) -> Int {
        let untouched = line.summary.untouched
        var count = 0
        for (i, s) in steps.enumerated() where s.shift != 0 {
            let end = i + 1 < steps.count ? steps[i + 1].rank : untouched + 1
            count += line.untouchedFramedRows(beforeUntouchedRank: min(end, untouched))
                - line.untouchedFramedRows(beforeUntouchedRank: min(s.rank, untouched))
        }
        return count
    }

    /// The snapshots (by node) of the touched entries that hold the same rows as before, in the
    /// same order: their rows are compared by position, without a table of old rows by id.
    func positionalSnapshots(_ state: ApplyState, _ touched: [TouchedEntry]) -> [Int32: Int] {
        var result: [Int32: Int] = [:]
        for t in touched {
            guard let si = state.snapshotOf[t.node] else { continue }
            let old = state.snapshots[si].rows
            let i = Int(t.node)
            guard old.count == line.entries.rowCount(i) else { continue }
            if line.entries.isLine(i) {
                var k = 1, same = old[0].id == line.entries.ids[i]
                line.entries.forEachNestedRow(i) { id, _, _ in
                    if same && old[k].id != id { same = false }
                    k += 1
                }
                guard same else { continue }
            } else {
                guard old.indices.allSatisfy({ old[$0].id == line.entries.id(i, $0) }) else { continue }
            }
            result[t.node] = si
        }
        return result
    }

    /// The rows of the touched entries as laid out now, and how many of them are new or moved.
    /// Rows of an entry compared by position are candidates only when the report can name them
    /// (visible before or after, or another visibility).
    func touchedCandidates(_ touched: [TouchedEntry], oldRow: [RowID: OldRow], positional: [Int32: Int],
                           snapshots: [Snapshot], lastShown: Int32, viewport: Rect) -> (candidates: [Candidate], changed: Int) {
        var candidates: [Candidate] = []
        var changed = 0
        for t in touched {
            let same = positional[t.node].map { snapshots[$0].rows }
            for (k, r) in entryRows(t.node, base: t.before, index: t.index, lastShown: lastShown, viewport: viewport).enumerated() {
                let old = same.map { $0[k] } ?? oldRow[r.id]?.row
                if old?.frame != r.frame || old == nil { changed += 1 }
                if let old, same != nil, old.visibility == r.visibility,
                   !Self.isShown(old.visibility), !Self.isShown(r.visibility) { continue }
                candidates.append(Candidate(order: (t.index, k), row: r, touched: true, old: old))
            }
        }
        return (candidates, changed)
    }

    /// Entire or partial.
    static func isShown(_ v: Visibility?) -> Bool { v == .entire || v == .partial }

    /// Adds to `report` the candidates that changed while visible before or after (with their
    /// frames before and after), and their visibility transitions (arrivals included), in
    /// document order.
    /// `shiftOf` gives an untouched row's shift along the main axis.
    func classify(_ candidates: [Candidate], visibleBefore: [RowLayout], into report: inout LayoutChangeReport,
                  shiftOf: (RowID) -> Double) {
        var visibleOld: [RowID: RowLayout] = [:]
        for r in visibleBefore { visibleOld[r.id] = r }
        let isShown = Self.isShown
        for c in candidates {
            let r = c.row
            let before: Visibility?
            let changed: Bool
            var oldFrame: Rect?
            if c.touched {
                before = c.old?.visibility
                oldFrame = c.old?.frame
                changed = c.old.map { $0.frame != r.frame } ?? true
            } else {
                // An untouched entry only moved along the root line: its rows' frames moved by
                // the entry's shift (exact: layout units add exactly).
                before = visibleOld[r.id]?.visibility ?? (r.visibility == .hidden ? .hidden : .offscreen)
                let shift = shiftOf(r.id)
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
