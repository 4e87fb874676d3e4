// Where rows and lines are: row locations, paths of nodes from the root line down to a stack line
// at any depth, and the line a batch of changes happens in (issue 11, item 5).

extension LiveLayout {
    /// Where a row sits: the entry `node` of line `line` (-1: the root line; else a stack line's
    /// number, see `links`) and its position `k` in that entry (0: the entry's own row). Rows
    /// below a stack line's entry live in that line's entries, never at `k > 0` of a line entry.
    struct Location: Sendable, Equatable {
        var line: Int32
        var node: Int32
        var k: Int32
    }

    /// Where stack line number `n` sits: the line holding its stack row's entry (-1: the root
    /// line) and that entry's node. Numbers are never reused until a rebuild; a parent's number is
    /// always smaller than its child's, so walking up ends.
    struct LineLink: Sendable {
        var parent: Int32
        var node: Int32
    }

    /// A line of the layout as the apply phases and the report see it: the root line (`path`
    /// empty) or the stack line whose stack row is the entry at the end of `path`.
    struct LinePlace {
        /// Nodes from the root line down to the stack row's entry (one per level).
        var path: [Int32]
        /// The line's number (-1 for the root line).
        var number: Int32
        /// The stack row holding the line (nil: the root).
        var stack: RowID?
        /// Absolute main-axis position of the line's start (entries are placed at `origin` + the
        /// sum of contributions before them).
        var origin: Double
        /// Rows before the line's first entry in document order.
        var rowsBefore: Int
        /// The spacing between the line's entries.
        var gap: Double
        /// The settings under which the line's entries are laid out and qualify as lines
        /// (the document's at the root, the stack's `StackLine.context` below).
        var childSettings: DocumentSettings
        /// The stack's cross start (moves a child laid out alone into place; 0 at the root).
        var crossShift: Double

        var isRoot: Bool { path.isEmpty }
    }

    /// One level of a path: the node of the path in its line, its position facts, where the
    /// line starts and the stack row holding it. The line itself is not kept (a copy of a line
    /// retains and releases each of its arrays): `forEachLevel` and `withLastLevel` lend it.
    struct PathLevel {
        var node: Int32
        var index: Int
        var before: Double
        /// Rows before the node's entry in document order (every depth).
        var rowsBefore: Int
        var origin: Double
        var stack: RowID?
    }

    // MARK: Locations

    /// The location recorded for `id` (not checked), the root line's entries being `ids`.
    func recordedLocation(of id: RowID, rootIDs ids: [RowID]) -> Location? {
        if let node = rootTable.find(hash: DocumentIndexTable.hash(id), { ids[Int($0)] == id }) {
            return Location(line: -1, node: node, k: 0)
        }
        return nestedLocation[id]
    }

    /// The nodes from the root line down to the entry of `l` (one per level), from `links`.
    func nodes(to l: Location) -> [Int32]? {
        var p: [Int32] = [l.node]
        var x = l.line
        while x >= 0 {
            guard Int(x) < links.count else { return nil }
            p.append(links[Int(x)].node)
            x = links[Int(x)].parent
        }
        p.reverse()
        return p
    }

    /// True when the entry at `path` (from `line` down) holds `id` as its row `k`.
    ///
    /// Recursive rather than a loop over a `var` line: a copy of the line costs a retain and a
    /// release of each of its arrays, and this runs once per row a report looks at (every row of
    /// a 100k-row `clear`).
    static func holds(_ line: RootLine, _ path: ArraySlice<Int32>, k: Int, _ id: RowID) -> Bool {
        guard let n = path.first else { return false }
        let i = Int(n)
        guard i < line.entries.count, line.entries.isFilled(i) else { return false }
        if path.count == 1 {
            guard k < line.entries.rowCount(i) else { return false }
            return k == 0 ? line.entries.ids[i] == id : !line.entries.isLine(i) && line.entries.id(i, k) == id
        }
        guard line.entries.isLine(i) else { return false }
        return line.entries.withLine(i) { holds($0.line, path.dropFirst(), k: k, id) }
    }

    /// The path to the entry holding `id` and `id`'s place in it, checked against the layout;
    /// nil for a row the layout does not hold. O(depth + log n).
    func path(of id: RowID) -> (path: [Int32], k: Int)? {
        guard let l = recordedLocation(of: id, rootIDs: line.entries.ids), let p = nodes(to: l),
              Self.holds(line, p[...], k: Int(l.k), id) else { return nil }
        return (p, Int(l.k))
    }

    /// The node of the line at `place` (taken out of the layout as `target`) whose entry holds
    /// `id` now, or nil.
    func entryHolding(_ id: RowID, _ place: LinePlace, _ target: RootLine) -> Int32? {
        let ids = place.isRoot ? target.entries.ids : line.entries.ids
        guard let l = recordedLocation(of: id, rootIDs: ids), let p = nodes(to: l), p.count > place.path.count,
              p.starts(with: place.path), Self.holds(target, p[place.path.count...], k: Int(l.k), id) else { return nil }
        return p[place.path.count]
    }

    /// The node of the line at `place` (as `target`) whose entry is row `id` itself, placeholders
    /// included, or nil.
    func entryNode(of id: RowID, _ place: LinePlace, _ target: RootLine) -> Int32? {
        let ids = target.entries.ids
        if place.isRoot { return rootTable.find(hash: DocumentIndexTable.hash(id), { ids[Int($0)] == id }) }
        guard let l = nestedLocation[id], l.line == place.number, l.k == 0, Int(l.node) < ids.count,
              ids[Int(l.node)] == id else { return nil }
        return l.node
    }

    // MARK: Lines along a path

    /// The line at the end of `path` (the root line when empty), a copy: for a report's one
    /// line; per row, `withLine(at:_:)` lends it instead.
    func lineAt(_ path: ArraySlice<Int32>) -> RootLine { withLine(at: path) { $0 } }

    /// `body` of the line at the end of `path` (the root line when empty), borrowed: no copy of
    /// a line on the way down.
    func withLine<R>(at path: ArraySlice<Int32>, _ body: (RootLine) throws -> R) rethrows -> R {
        try Self.withLine(line, at: path, body)
    }

    private static func withLine<R>(_ l: RootLine, at path: ArraySlice<Int32>, _ body: (RootLine) throws -> R) rethrows -> R {
        guard let n = path.first else { return try body(l) }
        return try l.entries.withLine(Int(n)) { try withLine($0.line, at: path.dropFirst(), body) }
    }

    /// Calls `body` with every level of `path`, outermost first, and the line it is in (lent, not
    /// copied: this runs once per row a report or a query looks at), and whether it is the last
    /// level (the end of `path`, or an entry that is not a line). Stops when `body` returns false.
    /// O(depth · log n).
    func forEachLevel(_ path: ArraySlice<Int32>, _ body: (RootLine, PathLevel, _ isLast: Bool) -> Bool) {
        Self.forEachLevel(line, path, origin: paddingStart, rowsBefore: 0, stack: nil, body)
    }

    private static func forEachLevel(_ l: RootLine, _ path: ArraySlice<Int32>, origin: Double, rowsBefore: Int, stack: RowID?,
                                     _ body: (RootLine, PathLevel, Bool) -> Bool) {
        guard let n = path.first else { return }
        let i = Int(n)
        let at = l.locate(n)
        let isLine = l.entries.isLine(i)
        let level = PathLevel(node: n, index: at.index, before: at.before, rowsBefore: rowsBefore + at.rowsBefore,
                              origin: origin, stack: stack)
        guard body(l, level, path.count == 1 || !isLine), isLine else { return }
        l.entries.withLine(i) { sl in
            forEachLevel(sl.line, path.dropFirst(), origin: origin + at.before + sl.contentOffset,
                         rowsBefore: rowsBefore + at.rowsBefore + 1, stack: l.entries.ids[i], body)
        }
    }

    /// Every level of `path`, outermost first (without their lines). O(depth · log n).
    func levels(_ path: [Int32]) -> [PathLevel] {
        var out: [PathLevel] = []
        forEachLevel(path[...]) { _, v, _ in
            out.append(v)
            return true
        }
        return out
    }

    /// `body` of the last level of `path` and its line (lent), or nil when `path` is empty.
    func withLastLevel<R>(_ path: [Int32], _ body: (RootLine, PathLevel) -> R) -> R? {
        var result: R?
        forEachLevel(path[...]) { l, v, isLast in
            if isLast { result = body(l, v) }
            return !isLast
        }
        return result
    }

    /// The place of the line at the end of `path` (the root line when empty).
    func place(_ path: [Int32]) -> LinePlace {
        var p = LinePlace(path: path, number: -1, stack: nil, origin: paddingStart, rowsBefore: 0, gap: gap,
                          childSettings: settings, crossShift: 0)
        _ = withLastLevel(path) { l, last in
            l.entries.withLine(Int(last.node)) { sl in
                p.number = sl.number
                p.stack = l.entries.ids[Int(last.node)]
                p.origin = last.origin + last.before + sl.contentOffset
                p.rowsBefore = last.rowsBefore + 1
                p.gap = sl.gap
                p.childSettings = sl.context
                p.crossShift = sl.style.crossStart
            }
        }
        return p
    }

    /// The stack rows holding the line at the end of `path`, outermost first, as laid out now.
    func stackRows(along path: [Int32], viewport: Rect) -> [RowLayout] {
        let autoHide = settings.defaults.autoHideLastSeparator
        var rows: [RowLayout] = []
        forEachLevel(path[...]) { l, v, _ in
            rows.append(Self.classified(Self.entryRow(l, v.node, 0, origin: v.origin, stack: v.stack, at: (v.index, v.before),
                                                      lastShown: l.lastShown(), autoHideLast: autoHide), viewport))
            return true
        }
        return rows
    }

    /// Takes the line at the end of `path` out of the layout (it changes without a copy of its
    /// columns); `putLine` puts it back.
    mutating func takeLine(_ path: [Int32]) -> RootLine {
        var target = RootLine()
        if path.isEmpty { swap(&target, &line) } else { line.withStackLine(at: path[...], gap: gap) { swap(&$0.line, &target) } }
        return target
    }

    /// Puts back the line taken out by `takeLine`, bringing the lengths along `path` up to date.
    mutating func putLine(_ path: [Int32], _ target: inout RootLine) {
        if path.isEmpty { swap(&target, &line) } else { line.withStackLine(at: path[...], gap: gap) { swap(&$0.line, &target) } }
    }

    // MARK: The line a batch happens in

    /// The path to the deepest stack line every change of `changes` happens in (rows inserted,
    /// removed or moved among its entries or deeper, rows below it updated; never its own stack
    /// row), or empty for the root line. Stack lines are only used while the root's positions are
    /// prefix sums whatever the lengths (`justify start`, no growing root row), so a new length
    /// of a stack cannot leave the regime.
    func lineHolding(_ changes: [Change]) -> [Int32] {
        guard full == nil, settings.justify == .start, growing == 0, !changes.isEmpty else { return [] }
        /// The line holding the entry that is `id` or holds it.
        func lineOf(_ id: RowID) -> [Int32]? { path(of: id).map { Array($0.path.dropLast()) } }
        /// The line whose entries are `parent`'s children: its own line when it is a stack line's
        /// row, else the line whose entry it is in (that entry is laid out again).
        func lineUnder(_ parent: RowID?) -> [Int32]? {
            guard let parent else { return [] }
            guard let (p, k) = path(of: parent) else { return nil }
            return k == 0 && withLine(at: p.dropLast(), { $0.entries.isLine(Int(p.last!)) }) ? p : Array(p.dropLast())
        }
        func common(_ a: [Int32], _ b: [Int32]) -> [Int32] {
            var n = 0
            while n < a.count, n < b.count, a[n] == b[n] { n += 1 }
            return Array(a.prefix(n))
        }
        var result: [Int32]?
        for change in changes {
            let q: [Int32]?
            switch change {
            case let .updateRow(id, _, _): q = lineOf(id)
            case let .insertRow(_, _, parent, _), let .removeRow(_, _, parent, _): q = lineUnder(parent)
            case let .moveRow(_, from, _, to, _):
                if let a = lineUnder(from), let b = lineUnder(to) { q = common(a, b) } else { q = nil }
            case .updateSettings: q = nil
            }
            guard let q else { return [] }
            let c = result.map { common($0, q) } ?? q
            if c.isEmpty { return [] }
            result = c
        }
        return result ?? []
    }

    /// The child of `stack` (nil: the root) that is `id` or holds it in `document`, or nil.
    func child(of stack: RowID?, holding id: RowID, in document: Document) -> RowID? {
        var x = id
        for _ in 0..<Self.maxDepth {
            guard case let .some(p) = document.parent(of: x) else { return nil }
            if p == stack { return x }
            guard let p else { return nil }
            x = p
        }
        return nil
    }

    /// More levels than a document can nest (`DocumentLimits`), a bound for walks up a document.
    static let maxDepth = 4096

    // MARK: Indexing rows

    /// Records where the rows of entry `node` of `target` (the line at `place`) are, numbering
    /// the stack lines among them. O(rows of the entry).
    mutating func indexRows(of node: Int32, _ place: LinePlace, _ target: inout RootLine) {
        let i = Int(node)
        let id = target.entries.ids[i]
        if place.isRoot {
            let ids = target.entries.ids
            let h = DocumentIndexTable.hash(id)
            if let old = rootTable.find(hash: h, { ids[Int($0)] == id }) {
                rootTable.remove(old, hash: h, hashOf: { DocumentIndexTable.hash(ids[Int($0)]) })
            }
            rootTable.insert(node, hash: h, hashOf: { DocumentIndexTable.hash(ids[Int($0)]) })
        } else {
            nestedLocation[id] = Location(line: place.number, node: node, k: 0)
        }
        indexBelow(node, line: place.number, &target)
    }

    /// Records where the rows below entry `node`'s own row are (`target` being line `number`).
    mutating func indexBelow(_ node: Int32, line number: Int32, _ target: inout RootLine) {
        let i = Int(node)
        guard target.entries.isLine(i) else {
            for (k, r) in target.entries.nestedRows(i).enumerated() {
                nestedLocation[r.id] = Location(line: number, node: node, k: Int32(k + 1))
            }
            return
        }
        target.entries.withStackLine(i) { numberLine(&$0, parent: number, node: node) }
    }

    /// Gives stack line `sl` (the entry `node` of line `parent`) a new number and records where
    /// its rows are, its own lines numbered in turn.
    mutating func numberLine(_ sl: inout StackLine, parent: Int32, node: Int32) {
        let n = Int32(truncatingIfNeeded: links.count)
        links.append(LineLink(parent: parent, node: node))
        sl.number = n
        var m = sl.line.first()
        while m >= 0 {
            nestedLocation[sl.line.entries.ids[Int(m)]] = Location(line: n, node: m, k: 0)
            indexBelow(m, line: n, &sl.line)
            m = sl.line.successor(m)
        }
    }

    /// Forgets where the rows of entry `node` of `target` (the line at `place`) are, those that
    /// still point there.
    mutating func forgetRows(of node: Int32, _ place: LinePlace, _ target: RootLine) {
        let i = Int(node)
        let id = target.entries.ids[i]
        if place.isRoot {
            let ids = target.entries.ids
            if rootTable.find(hash: DocumentIndexTable.hash(id), { ids[Int($0)] == id }) == node {
                rootTable.remove(node, hash: DocumentIndexTable.hash(id), hashOf: { DocumentIndexTable.hash(ids[Int($0)]) })
            }
        } else {
            forget(id, at: Location(line: place.number, node: node, k: 0))
        }
        forgetBelow(node, line: place.number, target)
    }

    /// Forgets the rows below entry `node`'s own row (`target` being line `number`).
    mutating func forgetBelow(_ node: Int32, line number: Int32, _ target: RootLine) {
        let i = Int(node)
        guard target.entries.isLine(i) else {
            for (k, r) in target.entries.nestedRows(i).enumerated() {
                forget(r.id, at: Location(line: number, node: node, k: Int32(k + 1)))
            }
            return
        }
        let sl = target.entries.stackLine(i)
        var m = sl.line.first()
        while m >= 0 {
            forget(sl.line.entries.ids[Int(m)], at: Location(line: sl.number, node: m, k: 0))
            forgetBelow(m, line: sl.number, sl.line)
            m = sl.line.successor(m)
        }
    }

    private mutating func forget(_ id: RowID, at l: Location) {
        if nestedLocation[id] == l { nestedLocation[id] = nil }
    }
}

extension RootLine {
    /// Calls `body` with the stack line at the end of `path` (nodes from this line down), then
    /// brings the contributions and totals of the entries along the path up to date, bottom up
    /// (`gap`: this line's spacing). O(depth · log n).
    mutating func withStackLine<R>(at path: ArraySlice<Int32>, gap: Double, _ body: (inout StackLine) -> R) -> R {
        let n = path.first!
        let i = Int(n)
        let rest = path.dropFirst()
        let result = entries.withStackLine(i) { sl -> R in
            if rest.isEmpty { return body(&sl) }
            let inner = sl.gap
            return sl.line.withStackLine(at: rest, gap: inner, body)
        }
        contribution[i] = entries.outerLength(i) + gap // a stack line is shown
        elementChanged(n)
        return result
    }
}
