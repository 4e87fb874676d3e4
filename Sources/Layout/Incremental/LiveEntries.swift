import StackDocRuntime

/// The payload of the root line (`RootLine`), one entry per root row, in compact columns
/// (issue 11): a root row without nested rows — nearly every row of a big document — is a
/// *leaf*: its id, its border-box main length and the number of an interned `LeafStyle` (type,
/// hidden, grow, main-axis margins, insets, separator style, cross position and length), 28
/// bytes instead of a `LocalRows` with a `[RowLayout]` of its own. Everything else of its
/// `RowLayout` follows from those by the rules the full layout applies (its frame starts at its
/// margin-start, the content frame is the frame inset by the insets, SPEC §2.4 gives the
/// separator). A root row with a subtree keeps a `LocalRows` (its rows laid out on their own).
///
/// Interned leaf styles are never freed: their number is bounded by the distinct styles a session
/// has seen.
struct LiveEntries: Sendable {
    /// What a leaf root row's layout needs besides its id and main length.
    struct LeafStyle: Hashable, Sendable {
        var type: String
        var hidden: Bool
        var grow: Double
        /// Margins before and after the row along the root's main axis.
        var marginStart: Double
        var marginEnd: Double
        /// Effective insets (the row's or the document default).
        var insets: Edges
        /// Effective separator style.
        var separator: SeparatorStyle
        /// The frame's cross-axis position and length (0 when hidden).
        var crossStart: Double
        var crossLength: Double
    }

    /// The root's main axis.
    var axis: Axis
    private(set) var ids: [RowID] = []
    /// A leaf's border-box main length (0 when hidden or not a leaf).
    private(set) var mainLength: [Double] = []
    /// A leaf's style number, or -1 - (its number in `subtrees`) for an entry with a subtree.
    private(set) var kind: [Int32] = []
    private(set) var subtrees: [LocalRows] = []
    private var freeSubtrees: [Int32] = []
    /// Entries kept as a line of their own (`StackLine`): `kind` is `lineBase - 1 - n` for `lines[n]`.
    private(set) var lines: [StackLine] = []
    private var freeLines: [Int32] = []
    static let lineBase: Int32 = -(1 << 30)
    private(set) var styles: [LeafStyle] = []
    /// The main-axis facts of each style (`styles[n]`'s), in plain values: what the line's
    /// summaries read per entry, without copying a whole `LeafStyle` (strings and all).
    private(set) var geometry: [LeafGeometry] = []
    private var styleNumber: [LeafStyle: Int32] = [:]

    /// A leaf style's hidden flag, grow and main-axis margins.
    struct LeafGeometry {
        var hidden: Bool
        var grow: Double
        var marginStart: Double
        var marginEnd: Double
    }

    init(axis: Axis) { self.axis = axis }

    var count: Int { ids.count }

    mutating func reserveCapacity(_ n: Int) {
        ids.reserveCapacity(n)
        mainLength.reserveCapacity(n)
        kind.reserveCapacity(n)
    }

    // MARK: Styles

    /// The number of `style`, interned. O(1) expected.
    mutating func intern(_ style: LeafStyle) -> Int32 {
        if let n = styleNumber[style] { return n }
        let n = Int32(truncatingIfNeeded: styles.count)
        styles.append(style)
        geometry.append(LeafGeometry(hidden: style.hidden, grow: style.grow, marginStart: style.marginStart,
                                     marginEnd: style.marginEnd))
        styleNumber[style] = n
        return n
    }

    /// The leaf style of a root row with `config` and frame `frame` (nil when hidden).
    static func leafStyle(_ config: RowConfig, frame: Rect?, axis: Axis, defaults: DocumentDefaults) -> LeafStyle {
        let m = config.layoutMargin // layout units, as the engine (`LayoutUnit`)
        let vertical = axis == .vertical
        return LeafStyle(type: config.type, hidden: config.hidden, grow: config.grow,
                         marginStart: vertical ? m.top : m.left, marginEnd: vertical ? m.bottom : m.right,
                         insets: LayoutUnit.snap(config.effectiveInsets(defaults)),
                         separator: config.separator.resolved(over: defaults.separator),
                         crossStart: frame.map { vertical ? $0.x : $0.y } ?? 0,
                         crossLength: frame.map { vertical ? $0.width : $0.height } ?? 0)
    }

    // MARK: Reading

    /// The leaf style number of entry `i`, or nil when it has a subtree.
    @inline(__always) func leaf(_ i: Int) -> Int32? { kind[i] >= 0 ? kind[i] : nil }

    /// True when entry `i` is a stack kept as a line of its own.
    @inline(__always) func isLine(_ i: Int) -> Bool { kind[i] <= Self.lineBase }

    @inline(__always) func subtree(_ i: Int) -> LocalRows { subtrees[Int(-1 - kind[i])] }

    /// The line of entry `i` (`isLine(i)`).
    @inline(__always) func stackLine(_ i: Int) -> StackLine { lines[Int(Self.lineBase - 1 - kind[i])] }

    /// `body` of the line of entry `i` (`isLine(i)`), lent in place: no copy of its columns
    /// (`stackLine(_:)` returns a copy, which retains and releases each of them).
    @inline(__always) func withLine<R>(_ i: Int, _ body: (StackLine) throws -> R) rethrows -> R {
        try lines.withUnsafeBufferPointer { try body($0[Int(Self.lineBase - 1 - kind[i])]) }
    }

    /// Changes the line of entry `i` in place (no copy of its columns).
    mutating func withStackLine<R>(_ i: Int, _ body: (inout StackLine) -> R) -> R {
        body(&lines[Int(Self.lineBase - 1 - kind[i])])
    }

    @inline(__always) func shown(_ i: Int) -> Bool {
        kind[i] >= 0 ? !geometry[Int(kind[i])].hidden : isLine(i) ? true : subtree(i).shown
    }

    @inline(__always) func grow(_ i: Int) -> Double {
        kind[i] >= 0 ? geometry[Int(kind[i])].grow : isLine(i) ? withLine(i) { $0.style.grow } : subtree(i).grow
    }

    /// Rows at every depth (the root row included).
    @inline(__always) func rowCount(_ i: Int) -> Int {
        kind[i] >= 0 ? 1 : isLine(i) ? withLine(i) { $0.rowCount } : subtree(i).rowCount
    }

    /// Rows with a frame.
    @inline(__always) func framedCount(_ i: Int) -> Int {
        kind[i] >= 0 ? (geometry[Int(kind[i])].hidden ? 0 : 1) : isLine(i) ? withLine(i) { 1 + $0.framed } : subtree(i).framedCount
    }

    /// Main-axis extent of the entry's framed rows relative to its margin-box start (lo > hi when none).
    @inline(__always) func extent(_ i: Int) -> (lo: Double, hi: Double) {
        guard kind[i] >= 0 else {
            if isLine(i) { return withLine(i) { $0.extent } }
            let e = subtree(i)
            return (e.extentLo, e.extentHi)
        }
        let s = geometry[Int(kind[i])]
        return s.hidden ? (1, 0) : (s.marginStart, s.marginStart + mainLength[i])
    }

    /// Margin-start + border-box main length + margin-end of the root row (0 when hidden).
    func outerLength(_ i: Int) -> Double {
        guard kind[i] >= 0 else { return isLine(i) ? withLine(i) { $0.outerLength } : subtree(i).outerLength }
        let s = geometry[Int(kind[i])]
        return s.hidden ? 0 : s.marginStart + mainLength[i] + s.marginEnd
    }

    /// Id of row `k` of entry `i` (k = 0: the root row). O(log n) for a line.
    func id(_ i: Int, _ k: Int) -> RowID {
        guard k > 0 else { return ids[i] }
        guard isLine(i) else { return subtree(i).rows[k].id }
        return withLine(i) { sl in
            let (node, kk) = sl.line.entry(atRow: k - 1)!
            return sl.line.entries.id(Int(node), kk)
        }
    }

    /// Row `k` of entry `i` (k = 0: the root row) as it would be laid out with its margin-box
    /// start at main-axis position `start`: frames absolute, `index` and visibility not set;
    /// the root row's separator follows `isLast` (the last shown root row with auto-hide on).
    /// O(log n) for a row of a line.
    func row(_ i: Int, _ k: Int, start: Double, isLast: Bool, autoHideLast: Bool) -> RowLayout {
        if isLine(i) {
            return withLine(i) { sl in
                guard k > 0 else {
                    return Self.leafRow(ids[i], sl.style, mainLength: sl.mainLength, axis: axis, start: start, isLast: isLast,
                                        autoHideLast: autoHideLast)
                }
                let (node, kk) = sl.line.entry(atRow: k - 1)!
                return sl.row(node, kk, start: start, of: ids[i], autoHideLast: autoHideLast)
            }
        }
        guard kind[i] >= 0 else {
            let e = subtree(i)
            var r = e.rows[k]
            r.frame = r.frame.map { LocalRows.shifted($0, by: start, axis) }
            r.content = r.content.map { LocalRows.shifted($0, by: start, axis) }
            if k == 0 {
                r.separator = isLast && autoHideLast ? nil : e.separatorIfNotLast.map { LocalRows.shifted($0, by: start, axis) }
            } else {
                r.separator = r.separator.map { LocalRows.shifted($0, by: start, axis) }
            }
            return r
        }
        return Self.leafRow(ids[i], styles[Int(kind[i])], mainLength: mainLength[i], axis: axis, start: start,
                            isLast: isLast, autoHideLast: autoHideLast)
    }

    /// The row of a leaf `id` of style `s` and main length `length` with its margin-box start at `start`.
    static func leafRow(_ id: RowID, _ s: LeafStyle, mainLength length: Double, axis: Axis, start: Double, isLast: Bool,
                        autoHideLast: Bool) -> RowLayout {
        guard !s.hidden else {
            return RowLayout(id: id, parent: nil, index: 0, type: s.type, hidden: true, frame: nil, content: nil,
                             separator: nil, visibility: .hidden, percent: 0)
        }
        let main = start + s.marginStart
        let frame = axis == .vertical
            ? Rect(x: s.crossStart, y: main, width: s.crossLength, height: length)
            : Rect(x: main, y: s.crossStart, width: length, height: s.crossLength)
        return RowLayout(id: id, parent: nil, index: 0, type: s.type, hidden: false, frame: frame,
                         content: frame.inset(by: s.insets),
                         separator: SeparatorRule.frame(row: frame, parentAxis: axis, style: s.separator,
                                                        isLastShown: isLast, autoHideLast: autoHideLast),
                         visibility: .offscreen, percent: 0)
    }

    /// The main-axis range of row `k`'s frame relative to the entry's margin-box start, or nil
    /// when it has none.
    @inline(__always) func frameRange(_ i: Int, _ k: Int) -> (lo: Double, hi: Double)? {
        if isLine(i) {
            guard let f = row(i, k, start: 0, isLast: false, autoHideLast: false).frame else { return nil }
            return axis == .vertical ? (f.minY, f.maxY) : (f.minX, f.maxX)
        }
        guard kind[i] >= 0 else {
            guard let f = subtree(i).rows[k].frame else { return nil }
            return axis == .vertical ? (f.minY, f.maxY) : (f.minX, f.maxX)
        }
        let s = geometry[Int(kind[i])]
        return s.hidden ? nil : (s.marginStart, s.marginStart + mainLength[i])
    }

    /// The rows below the root row of entry `i` (k ≥ 1), relative; empty for a leaf or a line.
    func nestedRows(_ i: Int) -> ArraySlice<RowLayout> {
        kind[i] >= 0 || isLine(i) ? [] : subtree(i).rows.dropFirst()
    }

    /// Calls `body(id)` for every row below the root row of entry `i` (every depth), in
    /// document order. O(rows).
    func forEachRowBelow(_ i: Int, _ body: (RowID) -> Void) {
        guard isLine(i) else {
            for r in nestedRows(i) { body(r.id) }
            return
        }
        let l = stackLine(i).line
        var node = l.first()
        while node >= 0 {
            body(l.entries.ids[Int(node)])
            l.entries.forEachRowBelow(Int(node), body)
            node = l.successor(node)
        }
    }

    /// True when entry `i` holds exactly the rows of `entry` (ids, in order).
    func holdsSameRows(_ i: Int, as entry: LocalRows) -> Bool {
        guard ids[i] == entry.id, isFilled(i), rowCount(i) == entry.rowCount else { return false }
        guard kind[i] < 0 else { return true }
        var k = 1, same = true
        forEachRowBelow(i) { id in
            if same && entry.rows[k].id != id { same = false }
            k += 1
        }
        return same
    }

    /// False for a placeholder (not laid out yet) or a freed node.
    func isFilled(_ i: Int) -> Bool {
        kind[i] >= 0 || isLine(i) ? !ids[i].isEmpty : subtree(i).rows.first?.id == ids[i]
    }

    // MARK: Writing

    /// Makes the (empty) entries `count` leaves with ids `ids` (taken as they are: the array is
    /// shared, not copied), entry `i` of the style and main length `leaf(i)` (a style interned
    /// already). Returns each entry's contribution (outer length + `gap` when shown, else 0, as
    /// the root line keeps it) and the number of shown entries that grow. One pass over the
    /// columns, by two threads a half each for a big line (`Halves`).
    mutating func setLeaves(ids newIDs: [RowID], count n: Int, gap: Double,
                            _ leaf: @Sendable (Int) -> (style: Int32, mainLength: Double)) -> (contributions: [Double], growing: Int) {
        precondition(ids.isEmpty && newIDs.count == n, "LiveEntries.setLeaves: entries must be empty, one id per leaf")
        var growing = [0, 0]  // per half
        var contributions = [Double](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        kind = [Int32](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        mainLength = [Double](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        let geometry = self.geometry
        kind.withUnsafeMutableBufferPointer { kind in
            mainLength.withUnsafeMutableBufferPointer { mainLength in
                contributions.withUnsafeMutableBufferPointer { contributions in
                    growing.withUnsafeMutableBufferPointer { counts in
                        let kind = SharedBuffer(buffer: kind), mainLength = SharedBuffer(buffer: mainLength)
                        let contributions = SharedBuffer(buffer: contributions)
                        let counts = SharedBuffer(buffer: counts)
                        Halves.forEach(count: n) { half in
                            var grow = 0
                            for i in half {
                                let (style, length) = leaf(i)
                                kind.buffer[i] = style
                                mainLength.buffer[i] = length
                                let s = geometry[Int(style)]
                                if s.hidden {
                                    contributions.buffer[i] = 0
                                } else {
                                    if s.grow > 0 { grow += 1 }
                                    // As `outerLength(_:)` + gap, the same additions in the same order.
                                    contributions.buffer[i] = s.marginStart + length + s.marginEnd + gap
                                }
                            }
                            counts.buffer[half.lowerBound == 0 ? 0 : 1] = grow  // (one piece: 0..<n, in [0])
                        }
                    }
                }
            }
        }
        ids = newIDs
        return (contributions, growing[0] + growing[1])
    }

    /// Appends a leaf.
    mutating func appendLeaf(_ id: RowID, style: Int32, mainLength length: Double) {
        ids.append(id)
        mainLength.append(length)
        kind.append(style)
    }

    /// Appends `entry` (a leaf when it is one row), for a root row with `config`.
    mutating func append(_ entry: LocalRows, config: RowConfig?, defaults: DocumentDefaults) {
        ids.append(entry.id)
        mainLength.append(0)
        kind.append(0)
        set(count - 1, entry, config: config, defaults: defaults)
    }

    /// Replaces entry `i` with `entry` (a leaf when it is one row and `config` is given).
    mutating func set(_ i: Int, _ entry: LocalRows, config: RowConfig?, defaults: DocumentDefaults) {
        dropSubtree(i)
        ids[i] = entry.id
        if let config, entry.rows.count == 1 {
            let f = entry.rows[0].frame
            kind[i] = intern(Self.leafStyle(config, frame: f, axis: axis, defaults: defaults))
            mainLength[i] = f.map { axis == .vertical ? $0.height : $0.width } ?? 0
            return
        }
        mainLength[i] = 0
        if let free = freeSubtrees.popLast() {
            subtrees[Int(free)] = entry
            kind[i] = -1 - free
        } else {
            kind[i] = -1 - Int32(truncatingIfNeeded: subtrees.count)
            subtrees.append(entry)
        }
    }

    /// Makes entry `i` the stack line `line` of root row `id`.
    mutating func setLine(_ i: Int, _ id: RowID, _ line: StackLine) {
        dropSubtree(i)
        ids[i] = id
        mainLength[i] = 0
        if let free = freeLines.popLast() {
            lines[Int(free)] = line
            kind[i] = Self.lineBase - 1 - free
        } else {
            kind[i] = Self.lineBase - 1 - Int32(truncatingIfNeeded: lines.count)
            lines.append(line)
        }
    }

    /// Appends the stack line `line` of root row `id`.
    mutating func appendLine(_ id: RowID, _ line: StackLine) {
        ids.append(id)
        mainLength.append(0)
        kind.append(0)
        setLine(count - 1, id, line)
    }

    /// Empties entry `i` (its node is free).
    mutating func clear(_ i: Int) {
        dropSubtree(i)
        ids[i] = ""
        mainLength[i] = 0
        kind[i] = intern(Self.emptyStyle)
    }

    private mutating func dropSubtree(_ i: Int) {
        guard kind[i] < 0 else { return }
        if isLine(i) {
            let n = Self.lineBase - 1 - kind[i]
            lines[Int(n)] = Self.emptyLine
            freeLines.append(n)
            kind[i] = 0
            return
        }
        let n = -1 - kind[i]
        subtrees[Int(n)] = .empty
        freeSubtrees.append(n)
        kind[i] = 0
    }

    /// A freed line's placeholder.
    static let emptyLine = StackLine(line: RootLine(), style: emptyStyle, insetStart: 0, insetEnd: 0, gap: 0,
                                     context: DocumentSettings())

    /// The style of a freed node: hidden, no frame.
    static let emptyStyle = LeafStyle(type: "", hidden: true, grow: 0, marginStart: 0, marginEnd: 0,
                                      insets: Edges(top: 0, left: 0, bottom: 0, right: 0), separator: SeparatorStyle(),
                                      crossStart: 0, crossLength: 0)
}
