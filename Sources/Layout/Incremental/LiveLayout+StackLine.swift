// Root stacks kept as lines of their own (`StackLine`): building them and querying their rows.

extension LiveLayout {
    // MARK: Building

    /// The line of root stack `e` (laid out as one `LocalRows`, with configuration `config`),
    /// or nil when it does not qualify (`StackLine.context`), is small (`stackLineMinRows`) or
    /// its rows do not sit at the prefix sums the line would give them (checked row by row, bit
    /// for bit, so a line always equals the layout it comes from). O(rows of the stack).
    func stackLine(of e: LocalRows, config: RowConfig, in document: Document) -> StackLine? {
        guard e.rows.count - 1 >= stackLineMinRows, let frame = e.rows.first?.frame,
              let context = StackLine.context(for: config, frame: frame, settings: settings) else { return nil }
        let defaults = settings.defaults
        let insets = LayoutUnit.snap(config.effectiveInsets(defaults))
        let style = LiveEntries.leafStyle(config, frame: frame, axis: .vertical, defaults: defaults)
        let gap = LayoutUnit.snap(context.spacing)
        let contentOffset = style.marginStart + insets.top
        var entries = LiveEntries(axis: .vertical)
        var contributions: [Double] = []
        var framed = 0
        var position = 0.0
        let rows = e.rows
        var k = 1
        while k < rows.count {
            var end = k + 1
            while end < rows.count, rows[end].parent != e.id { end += 1 }
            let child = rows[k]
            guard child.parent == e.id, let childConfig = document.config(of: child.id) else { return nil }
            var shift = 0.0
            if let f = child.frame {
                shift = f.y - childConfig.layoutMargin.top
                guard shift == contentOffset + position else { return nil }
            }
            let entry = LocalRows(id: child.id, config: childConfig, rows: rows[k..<end], shift: shift, axis: .vertical,
                                  defaults: defaults)
            entries.append(entry, config: childConfig, defaults: defaults)
            framed += entry.framedCount
            let i = entries.count - 1
            let c = entries.shown(i) ? entries.outerLength(i) + gap : 0
            contributions.append(c)
            position += c
            k = end
        }
        let line = StackLine(line: RootLine(entries: entries, contributions: contributions), style: style,
                             insetStart: insets.top, insetEnd: insets.bottom, gap: gap, framed: framed, context: context)
        return line.mainLength == frame.height ? line : nil
    }

    /// Sets the entry at `node` to `entry` (root row with `config`): a stack line when it
    /// qualifies, else a leaf or a subtree.
    mutating func setEntry(_ node: Int32, _ entry: LocalRows, config: RowConfig?, in document: Document) {
        if let config, let sl = stackLine(of: entry, config: config, in: document) {
            line.entries.setLine(Int(node), entry.id, sl)
        } else {
            line.entries.set(Int(node), entry, config: config, defaults: settings.defaults)
        }
    }

    // MARK: Queries

    /// `rows(from:to:)` for the stack line at `node` (`start`: the sum of contributions before
    /// it, `index`: its index on the root line): its own row and the rows of its entries that
    /// meet [from, to]. O(log n + k).
    func stackLineRows(_ node: Int32, start: Double, index: Int, from: Double, to: Double, lastShown: Int32,
                       viewport: Rect, into out: inout [RowLayout]) {
        let i = Int(node)
        let own = absolute(node, 0, base: start, index: index, lastShown: lastShown, viewport: viewport)
        if let f = own.frame, f.minY <= to, f.maxY >= from { out.append(own) }
        let sl = line.entries.stackLine(i)
        let s = paddingStart + start
        let c = s + sl.contentOffset
        let last = sl.line.lastShown()
        let id = line.entries.ids[i]
        let autoHide = settings.defaults.autoHideLastSeparator
        sl.line.forEachEntry(meeting: from - c, to - c) { inner, before in
            let at = (index: sl.line.locate(inner).index, before: before)
            for k in 0..<sl.line.entries.rowCount(Int(inner)) {
                guard let (a, b) = sl.line.entries.frameRange(Int(inner), k), a + c + before <= to, b + c + before >= from
                else { continue }
                out.append(Self.classified(sl.row(inner, k, start: s, of: id, autoHideLast: autoHide, at: at, lastShown: last),
                                           viewport))
            }
        }
    }

    /// `hitTest` within the stack line at `node` (`start` as in `stackLineRows`): its own row
    /// (depth 0) and the rows of the entries crossing the point. O(log n + rows of those entries).
    func stackLineHit(_ node: Int32, start: Double, x: Double, y: Double, best: inout RowID?, bestDepth: inout Int) {
        let i = Int(node)
        func consider(_ r: RowLayout, depth: Int) {
            guard let f = r.frame, x >= f.minX, x < f.maxX, y >= f.minY, y < f.maxY, depth >= bestDepth else { return }
            best = r.id
            bestDepth = depth
        }
        consider(line.entries.row(i, 0, start: paddingStart + start, isLast: false, autoHideLast: false), depth: 0)
        let sl = line.entries.stackLine(i)
        let c = paddingStart + start + sl.contentOffset
        sl.line.forEachEntry(meeting: y - c, y - c) { inner, before in
            let j = Int(inner)
            let count = sl.line.entries.rowCount(j)
            var depth: [RowID: Int] = [:]
            for k in 0..<count {
                let r = sl.line.entries.row(j, k, start: c + before, isLast: false, autoHideLast: false)
                let d = k == 0 ? 1 : (r.parent.flatMap { depth[$0] } ?? 1) + 1
                if count > 1 { depth[r.id] = d }
                consider(r, depth: d)
            }
        }
    }
}
