// Phase 4 of `LiveLayout.applyIncrementally`: the change report, from the rows that could change.

extension LiveLayout {
    /// A touched entry (of the line the changes happen in) after the changes.
    struct TouchedEntry {
        var node: Int32
        var index: Int
        /// The main-axis length before it on its line.
        var before: Double
        /// Rows before it on its line (every depth).
        var rowsBefore: Int
        /// Its rank among the untouched entries (the number of untouched entries before it).
        var rank: Int
    }

    /// A row of a touched entry before the changes, with its old place (entry index, row in it).
    struct OldRow {
        var row: RowLayout
        var order: (Int, Int)
    }

    /// A row the report looks at: of a touched entry, a stack holding the line, or visible
    /// before or after the changes.
    struct Candidate {
        /// Its position in the new document order.
        var order: Int
        var row: RowLayout
        var touched: Bool
        /// For a row of a touched entry: the row before the changes (nil when it is new).
        var old: RowLayout? = nil
    }

    /// Phase 4: the report, from the rows that could change only: the rows of the touched
    /// entries of the line at `place`, the untouched rows counted by their shift (O(log n) per
    /// step of the shift), the stack rows holding the line and the rows after them on every
    /// level (moved by the change of the stacks' length: each is `fit`, so it is the same at
    /// every level), and the rows visible before or after the changes.
    func changeReport(_ place: LinePlace, _ state: ApplyState) -> LayoutChangeReport {
        var report = LayoutChangeReport(offsetBefore: state.offsetBefore, offsetAfter: offset,
                                        contentSizeBefore: state.contentBefore, contentSizeAfter: contentSize)
        let path = place.path
        let l = lineAt(path[...])
        let levels = self.levels(path)
        let viewportNow = viewportRect
        let touched = touchedEntries(state.touchedNodes, in: l)
        let shifts = shiftSteps(state.snapshots, touched, in: l)
        report.changedCount += shiftedUntouchedRowCount(shifts, in: l)
        let stackRowsNow = stackRows(along: path, viewport: viewportNow)
        let delta = path.isEmpty ? 0 : Self.mainLength(stackRowsNow.last, vertical) - Self.mainLength(state.stackRowsBefore.last, vertical)
        if delta != 0 {
            // Each stack holding the line, and the framed rows after it on its level.
            forEachLevel(path[...]) { line, v, _ in
                report.changedCount += 1 + line.summary.untouchedFramed - line.untouchedFramedRows(beforeUntouchedRank: v.index + 1)
                return true
            }
        }

        // Entries that hold the same rows as before, in the same order, are compared row by row;
        // the rows of the others are matched by id.
        let positional = positionalSnapshots(state, touched, in: l)
        var oldRow: [RowID: OldRow] = [:]
        for s in state.snapshots where positional[s.node] == nil {
            for (k, r) in s.rows.enumerated() { oldRow[r.id] = OldRow(row: r, order: (s.oldIndex, k)) }
        }
        var (candidates, changed) = touchedCandidates(touched, in: l, place, oldRow: oldRow, positional: positional,
                                                      snapshots: state.snapshots, viewport: viewportNow)
        report.changedCount += changed
        var seen = Set<RowID>()
        for (v, (old, now)) in zip(levels, zip(state.stackRowsBefore, stackRowsNow)) {
            seen.insert(now.id)
            candidates.append(Candidate(order: v.rowsBefore, row: now, touched: true, old: old))
        }
        // Every row of a touched entry that can be reported is a candidate already.
        let visibleAfter = rows(from: offset, to: offset + viewportMain).filter { Self.isShown($0.visibility) }
        let autoHide = settings.defaults.autoHideLastSeparator
        let rootLast = line.lastShown()
        for r in visibleAfter + state.visibleBefore {
            guard seen.insert(r.id).inserted, let (q, k) = self.path(of: r.id) else { continue }
            if q.count > path.count, q.starts(with: path), l.touched[Int(q[path.count])] { continue }
            let found = withLastLevel(q) { line, v in
                Candidate(order: v.rowsBefore + k,
                          row: Self.classified(Self.entryRow(line, v.node, k, origin: v.origin, stack: v.stack, at: (v.index, v.before),
                                                             lastShown: q.count == 1 ? rootLast : line.lastShown(), autoHideLast: autoHide),
                                               viewportNow),
                          touched: false)
            }
            guard let found else { continue }
            candidates.append(found)
        }
        candidates.sort { $0.order < $1.order }
        classify(candidates, visibleBefore: state.visibleBefore, into: &report) { id in
            guard let (q, _) = self.path(of: id) else { return 0 }
            if q.count > path.count, q.starts(with: path) {
                let a = l.locate(q[path.count])
                return shift(ofRank: a.index - a.touchedBefore, shifts)
            }
            // Outside the line: after the stack holding it on the first level where the paths part.
            var shift = 0.0
            var j = 0
            self.forEachLevel(path[...]) { line, v, _ in
                defer { j += 1 }
                guard j < q.count, q[j] != v.node else { return true }
                shift = line.locate(q[j]).index > v.index ? delta : 0
                return false
            }
            return shift
        }
        report.removed = removedRows(oldRow)
        for id in report.removed {
            report.transitions.append(VisibilityTransition(row: id, from: oldRow[id]?.row.visibility, to: nil))
        }
        return report
    }

    /// The main-axis length of `r`'s frame (0 without one).
    static func mainLength(_ r: RowLayout?, _ vertical: Bool) -> Double {
        guard let f = r?.frame else { return 0 }
        return vertical ? f.height : f.width
    }

    /// The touched entries of `line` among `nodes` that are filled, once each, in order.
    func touchedEntries(_ nodes: [Int32], in line: RootLine) -> [TouchedEntry] {
        var result: [TouchedEntry] = []
        var seen = Set<Int32>()
        for node in nodes where line.touched[Int(node)] && line.entries.isFilled(Int(node)) {
            guard seen.insert(node).inserted else { continue }
            let at = line.locate(node)
            result.append(TouchedEntry(node: node, index: at.index, before: at.before, rowsBefore: at.rowsBefore,
                                       rank: at.index - at.touchedBefore))
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

    /// The snapshots (by node) of the touched entries of `line` that hold the same rows as
    /// before, in the same order: their rows are compared by position, without a table of old
    /// rows by id.
    func positionalSnapshots(_ state: ApplyState, _ touched: [TouchedEntry], in line: RootLine) -> [Int32: Int] {
        var result: [Int32: Int] = [:]
        for t in touched {
            guard let si = state.snapshotOf[t.node] else { continue }
            let old = state.snapshots[si].rows
            let i = Int(t.node)
            guard old.count == line.entries.rowCount(i), old[0].id == line.entries.ids[i] else { continue }
            var k = 1, same = true
            line.entries.forEachRowBelow(i) { id in
                if same && old[k].id != id { same = false }
                k += 1
            }
            if same { result[t.node] = si }
        }
        return result
    }

    /// The rows of the touched entries of `line` (the line at `place`) as laid out now, and how
    /// many of them are new or moved. Rows of an entry compared by position are candidates only
    /// when the report can name them (visible before or after, or another visibility).
    func touchedCandidates(_ touched: [TouchedEntry], in line: RootLine, _ place: LinePlace, oldRow: [RowID: OldRow],
                           positional: [Int32: Int], snapshots: [Snapshot], viewport: Rect) -> (candidates: [Candidate], changed: Int) {
        var candidates: [Candidate] = []
        var changed = 0
        let last = line.lastShown()
        for t in touched {
            let same = positional[t.node].map { snapshots[$0].rows }
            var k = 0
            Self.forEachRow(of: t.node, in: line, origin: place.origin, stack: place.stack, at: (t.index, t.before),
                            lastShown: last, autoHideLast: settings.defaults.autoHideLastSeparator) { row in
                let r = Self.classified(row, viewport)
                let old = same.map { $0[k] } ?? oldRow[r.id]?.row
                defer { k += 1 }
                if old?.frame != r.frame || old == nil { changed += 1 }
                if let old, same != nil, old.visibility == r.visibility,
                   !Self.isShown(old.visibility), !Self.isShown(r.visibility) { return }
                candidates.append(Candidate(order: place.rowsBefore + t.rowsBefore + k, row: r, touched: true, old: old))
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
        for (id, old) in oldRow where path(of: id) == nil { gone.append((old.order, id)) }
        gone.sort { $0.0 < $1.0 }
        return gone.map(\.1)
    }
}
