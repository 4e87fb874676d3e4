// Stacks kept as lines of their own (`StackLine`), at any depth: building them and reading
// their rows (one rule for the root line and every stack line).

extension LiveLayout {
    // MARK: Building

    /// The line of stack `e` (laid out as one `LocalRows` under `settings`, with configuration
    /// `config`), or nil when it does not qualify (`StackLine.context`), is small
    /// (`stackLineMinRows`) or its rows do not sit at the prefix sums the line would give them
    /// (checked row by row, bit for bit, so a line always equals the layout it comes from).
    /// Children that qualify become lines in turn. O(rows of the stack · levels of lines).
    func stackLine(of e: LocalRows, config: RowConfig, settings: DocumentSettings, in document: Document) -> StackLine? {
        guard e.rows.count - 1 >= stackLineMinRows, let frame = e.rows.first?.frame,
              let context = StackLine.context(for: config, frame: frame, settings: settings) else { return nil }
        let defaults = settings.defaults
        let insets = LayoutUnit.snap(config.effectiveInsets(defaults))
        let style = LiveEntries.leafStyle(config, frame: frame, axis: .vertical, defaults: defaults)
        let gap = LayoutUnit.snap(context.spacing)
        let contentOffset = style.marginStart + insets.top
        var entries = LiveEntries(axis: .vertical)
        var contributions: [Double] = []
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
                                  defaults: context.defaults)
            if let nested = stackLine(of: entry, config: childConfig, settings: context, in: document) {
                entries.appendLine(child.id, nested)
            } else {
                entries.append(entry, config: childConfig, defaults: context.defaults)
            }
            let i = entries.count - 1
            let c = entries.shown(i) ? entries.outerLength(i) + gap : 0
            contributions.append(c)
            position += c
            k = end
        }
        let line = StackLine(line: RootLine(entries: entries, contributions: contributions), style: style,
                             insetStart: insets.top, insetEnd: insets.bottom, gap: gap, context: context)
        return line.mainLength == frame.height ? line : nil
    }

    /// `stackLine(of:config:settings:in:)` for a root row.
    func stackLine(of e: LocalRows, config: RowConfig, in document: Document) -> StackLine? {
        stackLine(of: e, config: config, settings: settings, in: document)
    }

    /// Sets entry `node` of `target` (the line at `place`) to `entry` (row with `config`): a
    /// stack line when it qualifies, else a leaf or a subtree.
    func setEntry(_ node: Int32, _ entry: LocalRows, config: RowConfig?, in document: Document, _ place: LinePlace,
                  _ target: inout RootLine) {
        let lineSettings = place.isRoot ? settings : place.childSettings
        if let config, let sl = stackLine(of: entry, config: config, settings: lineSettings, in: document) {
            target.entries.setLine(Int(node), entry.id, sl)
        } else {
            target.entries.set(Int(node), entry, config: config, defaults: lineSettings.defaults)
        }
    }

    // MARK: Rows of a line (any depth)

    /// Row `k` of entry `node` of line `l`, whose positions start at `origin`: frames absolute;
    /// the entry's own row gets its `index` (`at.index`) and `parent` (`stack`, nil at the root);
    /// the separator follows `lastShown` (the line's last shown node). Visibility not set.
    static func entryRow(_ l: RootLine, _ node: Int32, _ k: Int, origin: Double, stack: RowID?,
                         at: (index: Int, before: Double), lastShown: Int32, autoHideLast: Bool) -> RowLayout {
        var r = l.entries.row(Int(node), k, start: origin + at.before, isLast: node == lastShown, autoHideLast: autoHideLast)
        if k == 0 {
            r.index = at.index
            r.parent = stack
        }
        return r
    }

    /// Every row of entry `node` of line `l` (as `entryRow`), in document order, every depth.
    /// O(rows of the entry).
    static func forEachRow(of node: Int32, in l: RootLine, origin: Double, stack: RowID?, at: (index: Int, before: Double),
                           lastShown: Int32, autoHideLast: Bool, _ body: (RowLayout) -> Void) {
        let i = Int(node)
        body(entryRow(l, node, 0, origin: origin, stack: stack, at: at, lastShown: lastShown, autoHideLast: autoHideLast))
        if l.entries.isLine(i) {
            l.entries.withLine(i) { $0.forEachRow(start: origin + at.before, of: l.entries.ids[i], autoHideLast: autoHideLast, body) }
            return
        }
        for k in 1..<max(1, l.entries.rowCount(i)) {
            body(entryRow(l, node, k, origin: origin, stack: stack, at: at, lastShown: lastShown, autoHideLast: autoHideLast))
        }
    }

    /// Every row of line `l`'s entries (as `entryRow`), in document order. O(rows).
    static func forEachRow(inLine l: RootLine, origin: Double, stack: RowID?, autoHideLast: Bool,
                           _ body: (RowLayout) -> Void) {
        let last = l.lastShown()
        var node = l.first()
        var at = (index: 0, before: 0.0)
        while node >= 0 {
            forEachRow(of: node, in: l, origin: origin, stack: stack, at: at, lastShown: last, autoHideLast: autoHideLast, body)
            at.before += l.contribution[Int(node)]
            at.index += 1
            node = l.successor(node)
        }
    }

    /// The rows of line `l`'s entries whose frame meets the main-axis range [from, to] (edges
    /// inclusive), in document order, descending into stack lines by their own trees.
    /// O(log n + k) per level.
    func forEachRow(inLine l: RootLine, origin: Double, stack: RowID?, meeting from: Double, _ to: Double,
                    _ body: (RowLayout) -> Void) {
        let last = l.lastShown()
        let autoHide = settings.defaults.autoHideLastSeparator
        l.forEachEntry(meeting: from - origin, to - origin) { node, before in
            let i = Int(node)
            let at = (index: l.locate(node).index, before: before)
            if l.entries.isLine(i) {
                let own = Self.entryRow(l, node, 0, origin: origin, stack: stack, at: at, lastShown: last, autoHideLast: autoHide)
                if let f = own.frame, (vertical ? f.minY : f.minX) <= to, (vertical ? f.maxY : f.maxX) >= from { body(own) }
                l.entries.withLine(i) { sl in
                    forEachRow(inLine: sl.line, origin: origin + before + sl.contentOffset, stack: l.entries.ids[i],
                               meeting: from, to, body)
                }
                return
            }
            for k in 0..<l.entries.rowCount(i) {
                guard let (a, b) = l.entries.frameRange(i, k), a + origin + before <= to, b + origin + before >= from
                else { continue }
                body(Self.entryRow(l, node, k, origin: origin, stack: stack, at: at, lastShown: last, autoHideLast: autoHide))
            }
        }
    }

    /// `hitTest` within line `l` (positions from `origin`; its entries' own rows at depth
    /// `depth`): the rows of the entries crossing the point, descending into stack lines.
    /// O(log n + rows of those entries) per level.
    func hit(inLine l: RootLine, origin: Double, depth: Int, x: Double, y: Double, best: inout RowID?, bestDepth: inout Int) {
        let main = vertical ? y : x
        l.forEachEntry(meeting: main - origin, main - origin) { node, before in
            let i = Int(node)
            let start = origin + before
            if l.entries.isLine(i) {
                let own = l.entries.row(i, 0, start: start, isLast: false, autoHideLast: false)
                Self.consider(own, depth: depth, x: x, y: y, best: &best, bestDepth: &bestDepth)
                l.entries.withLine(i) { sl in
                    hit(inLine: sl.line, origin: start + sl.contentOffset, depth: depth + 1, x: x, y: y, best: &best,
                        bestDepth: &bestDepth)
                }
                return
            }
            let count = l.entries.rowCount(i)
            var depthOf: [RowID: Int] = [:]
            for k in 0..<count {
                let r = l.entries.row(i, k, start: start, isLast: false, autoHideLast: false)
                let d = k == 0 ? depth : (r.parent.flatMap { depthOf[$0] } ?? depth) + 1
                if count > 1 { depthOf[r.id] = d }
                Self.consider(r, depth: d, x: x, y: y, best: &best, bestDepth: &bestDepth)
            }
        }
    }

    /// Takes `r` as the hit when its frame holds the point (half-open) at a depth at least the best's.
    static func consider(_ r: RowLayout, depth: Int, x: Double, y: Double, best: inout RowID?, bestDepth: inout Int) {
        guard let f = r.frame, x >= f.minX, x < f.maxX, y >= f.minY, y < f.maxY, depth >= bestDepth else { return }
        best = r.id
        bestDepth = depth
    }
}
