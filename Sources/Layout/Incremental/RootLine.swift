/// The root stack's rows as an implicit treap (a randomised balanced tree ordered by position)
/// whose nodes carry subtree aggregates, so that `LiveLayout` can insert, remove, move and
/// resize root rows and find positions and the rows in a main-axis range in O(log n).
///
/// Every entry is one root row with its whole subtree laid out on its own (`LocalRows`), in
/// coordinates relative to the row's margin-box start along the main axis. Aggregates per
/// subtree: entry count, shown entries, `sum` of contributions (outer length + gap of each shown
/// entry), the main-axis extent `lo…hi` of every framed row below (relative to the subtree's
/// first position; negative margins and overflowing nested rows make it differ from `sum`),
/// rows at every depth, and — for the change report — touched entries and framed rows of
/// untouched entries.
struct RootLine {
    // Tree columns, indexed by node; -1 = none.
    var left: [Int32] = []
    var right: [Int32] = []
    var up: [Int32] = []
    var priority: [UInt64] = []
    // Aggregates.
    var size: [Int32] = []
    var shownCount: [Int32] = []
    var sum: [Double] = []
    var lo: [Double] = []
    var hi: [Double] = []
    var rowTotal: [Int] = []
    var touchedCount: [Int32] = []
    var untouchedFramed: [Int] = []
    // Payload.
    var entries = LiveEntries(axis: .vertical)
    var contribution: [Double] = []
    var touched: [Bool] = []

    var root: Int32 = -1
    var freeNodes: [Int32] = []
    private var random = SplitMix64(seed: 0x1A7E_5EED)

    var count: Int { sz(root) }

    init() {}

    /// A line of `entries` in order with contributions `contributions`, in O(n).
    init(entries list: LiveEntries, contributions: [Double]) {
        let n = list.count
        entries = list
        contribution = contributions
        left = Array(repeating: -1, count: n)
        right = Array(repeating: -1, count: n)
        up = Array(repeating: -1, count: n)
        size = Array(repeating: 1, count: n)
        shownCount = Array(repeating: 0, count: n)
        sum = Array(repeating: 0, count: n)
        lo = Array(repeating: 0, count: n)
        hi = Array(repeating: 0, count: n)
        rowTotal = Array(repeating: 0, count: n)
        touchedCount = Array(repeating: 0, count: n)
        untouchedFramed = Array(repeating: 0, count: n)
        touched = Array(repeating: false, count: n)
        priority.reserveCapacity(n)
        for _ in 0..<n { priority.append(nextRandom()) }
        var spine: [Int32] = []
        for i in 0..<n {
            var last: Int32 = -1
            while let top = spine.last, priority[Int(top)] < priority[i] { last = spine.removeLast() }
            left[i] = last
            if let top = spine.last { right[Int(top)] = Int32(i) }
            spine.append(Int32(i))
        }
        root = spine.first ?? -1
        var stack: [(Int32, Bool)] = root >= 0 ? [(root, false)] : []
        while let (t, expanded) = stack.popLast() {
            if expanded {
                pull(t)
            } else {
                stack.append((t, true))
                if left[Int(t)] >= 0 { stack.append((left[Int(t)], false)) }
                if right[Int(t)] >= 0 { stack.append((right[Int(t)], false)) }
            }
        }
    }

    // MARK: Aggregates

    @inline(__always) func sz(_ t: Int32) -> Int { t < 0 ? 0 : Int(size[Int(t)]) }
    @inline(__always) func total(_ t: Int32) -> Double { t < 0 ? 0 : sum[Int(t)] }
    @inline(__always) func shown(_ t: Int32) -> Int { t < 0 ? 0 : Int(shownCount[Int(t)]) }
    @inline(__always) func rows(_ t: Int32) -> Int { t < 0 ? 0 : rowTotal[Int(t)] }
    @inline(__always) func touchedIn(_ t: Int32) -> Int { t < 0 ? 0 : Int(touchedCount[Int(t)]) }
    @inline(__always) func untouchedFramedIn(_ t: Int32) -> Int { t < 0 ? 0 : untouchedFramed[Int(t)] }
    @inline(__always) func loOf(_ t: Int32) -> Double { t < 0 ? .infinity : lo[Int(t)] }
    @inline(__always) func hiOf(_ t: Int32) -> Double { t < 0 ? -.infinity : hi[Int(t)] }

    mutating func pull(_ t: Int32) {
        let i = Int(t)
        let l = left[i], r = right[i]
        let shownHere = entries.shown(i)
        let ls = total(l)
        size[i] = Int32(sz(l) + 1 + sz(r))
        shownCount[i] = Int32(shown(l) + (shownHere ? 1 : 0) + shown(r))
        let mine = contribution[i]
        sum[i] = ls + mine + total(r)
        var a = loOf(l), b = hiOf(l)
        let (elo, ehi) = entries.extent(i)
        if shownHere, elo <= ehi {
            a = min(a, ls + elo)
            b = max(b, ls + ehi)
        }
        if r >= 0 {
            a = min(a, ls + mine + lo[Int(r)])
            b = max(b, ls + mine + hi[Int(r)])
        }
        lo[i] = a
        hi[i] = b
        rowTotal[i] = rows(l) + entries.rowCount(i) + rows(r)
        touchedCount[i] = Int32(touchedIn(l) + (touched[i] ? 1 : 0) + touchedIn(r))
        untouchedFramed[i] = untouchedFramedIn(l) + (touched[i] ? 0 : entries.framedCount(i)) + untouchedFramedIn(r)
        if l >= 0 { up[Int(l)] = t }
        if r >= 0 { up[Int(r)] = t }
    }

    /// Recomputes the aggregates from `t` up to the root (after its payload changed).
    mutating func pullToRoot(_ t: Int32) {
        var x = t
        while x >= 0 {
            pull(x)
            x = up[Int(x)]
        }
    }

    private mutating func nextRandom() -> UInt64 { random.next() }

    // MARK: Split and merge

    private mutating func split(_ t: Int32, _ k: Int) -> (Int32, Int32) {
        if t < 0 { return (-1, -1) }
        let i = Int(t)
        let ls = sz(left[i])
        if k <= ls {
            let (a, b) = split(left[i], k)
            left[i] = b
            if a >= 0 { up[Int(a)] = -1 }
            pull(t)
            return (a, t)
        }
        let (a, b) = split(right[i], k - ls - 1)
        right[i] = a
        if b >= 0 { up[Int(b)] = -1 }
        pull(t)
        return (t, b)
    }

    private mutating func merge(_ a: Int32, _ b: Int32) -> Int32 {
        if a < 0 { return b }
        if b < 0 { return a }
        if priority[Int(a)] > priority[Int(b)] {
            right[Int(a)] = merge(right[Int(a)], b)
            pull(a)
            return a
        }
        left[Int(b)] = merge(a, left[Int(b)])
        pull(b)
        return b
    }

    // MARK: Edits

    /// Inserts `entry` at `index` and returns its node.
    mutating func insert(_ entry: LocalRows, contribution c: Double, touched isTouched: Bool, at index: Int) -> Int32 {
        let node: Int32
        if let reused = freeNodes.popLast() {
            node = reused
            let i = Int(node)
            left[i] = -1; right[i] = -1; up[i] = -1
            priority[i] = nextRandom()
            entries.set(i, entry, config: nil, defaults: DocumentDefaults())
            contribution[i] = c
            touched[i] = isTouched
        } else {
            node = Int32(left.count)
            left.append(-1); right.append(-1); up.append(-1)
            priority.append(nextRandom())
            size.append(1); shownCount.append(0); sum.append(0); lo.append(0); hi.append(0)
            rowTotal.append(0); touchedCount.append(0); untouchedFramed.append(0)
            entries.append(entry, config: nil, defaults: DocumentDefaults())
            contribution.append(c)
            touched.append(isTouched)
        }
        pull(node)
        let (a, b) = split(root, index)
        root = merge(merge(a, node), b)
        up[Int(root)] = -1
        return node
    }

    /// Takes the entry at `index` out of the tree; its node stays allocated (for `reinsert`).
    mutating func detach(at index: Int) -> Int32 {
        let (a, rest) = split(root, index)
        let (node, b) = split(rest, 1)
        root = merge(a, b)
        if root >= 0 { up[Int(root)] = -1 }
        up[Int(node)] = -1
        return node
    }

    /// Puts a detached node back at `index`.
    mutating func reinsert(_ node: Int32, at index: Int) {
        let (a, b) = split(root, index)
        root = merge(merge(a, node), b)
        up[Int(root)] = -1
    }

    /// Frees a detached node.
    mutating func release(_ node: Int32) {
        let i = Int(node)
        entries.clear(i)
        left[i] = -1; right[i] = -1; up[i] = -1
        freeNodes.append(node)
    }

    // MARK: Queries

    /// The node at `index`.
    func node(at index: Int) -> Int32 {
        var t = root
        var k = index
        while t >= 0 {
            let ls = sz(left[Int(t)])
            if k < ls {
                t = left[Int(t)]
            } else if k == ls {
                return t
            } else {
                k -= ls + 1
                t = right[Int(t)]
            }
        }
        return -1
    }

    /// Position facts of a node: its index, the sum of contributions before it, the rows (every
    /// depth) before it and the touched entries before it. O(log n).
    func locate(_ node: Int32) -> (index: Int, before: Double, rowsBefore: Int, touchedBefore: Int) {
        var index = sz(left[Int(node)])
        var before = total(left[Int(node)])
        var rowsBefore = rows(left[Int(node)])
        var touchedBefore = touchedIn(left[Int(node)])
        var x = node
        var p = up[Int(x)]
        while p >= 0 {
            if right[Int(p)] == x {
                let pl = left[Int(p)]
                index += sz(pl) + 1
                before += total(pl) + contribution[Int(p)]
                rowsBefore += rows(pl) + entries.rowCount(Int(p))
                touchedBefore += touchedIn(pl) + (touched[Int(p)] ? 1 : 0)
            }
            x = p
            p = up[Int(x)]
        }
        return (index, before, rowsBefore, touchedBefore)
    }

    /// The last shown entry's node, or -1.
    func lastShown() -> Int32 {
        var t = root
        while t >= 0 {
            let r = right[Int(t)]
            if shown(r) > 0 { t = r; continue }
            if entries.shown(Int(t)) { return t }
            t = left[Int(t)]
        }
        return -1
    }

    /// Calls `body(node, start)` in order for every shown entry whose extent meets
    /// [`from`, `to`] (edges inclusive), `start` being the sum of contributions before it.
    /// O(log n + k) when extents follow positions.
    func forEachEntry(meeting from: Double, _ to: Double, _ body: (Int32, Double) -> Void) {
        func visit(_ t: Int32, _ base: Double) {
            if t < 0 { return }
            let i = Int(t)
            if base + lo[i] > to || base + hi[i] < from { return }
            let l = left[i]
            visit(l, base)
            let start = base + total(l)
            let (elo, ehi) = entries.extent(i)
            if entries.shown(i), elo <= ehi, start + elo <= to, start + ehi >= from {
                body(t, start)
            }
            visit(right[i], start + contribution[i])
        }
        visit(root, 0)
    }

    /// The node holding document-order row `k` (every depth) and `k` relative to it.
    func entry(atRow k: Int) -> (node: Int32, offset: Int)? {
        var t = root
        var k = k
        while t >= 0 {
            let l = left[Int(t)]
            let lr = rows(l)
            if k < lr { t = l; continue }
            k -= lr
            let n = entries.rowCount(Int(t))
            if k < n { return (t, k) }
            k -= n
            t = right[Int(t)]
        }
        return nil
    }

    /// The in-order successor of `t`, or -1.
    func successor(_ t: Int32) -> Int32 {
        var x = right[Int(t)]
        if x >= 0 {
            while left[Int(x)] >= 0 { x = left[Int(x)] }
            return x
        }
        x = t
        while true {
            let p = up[Int(x)]
            if p < 0 { return -1 }
            if left[Int(p)] == x { return p }
            x = p
        }
    }

    /// The first node in order, or -1.
    func first() -> Int32 {
        var x = root
        if x < 0 { return -1 }
        while left[Int(x)] >= 0 { x = left[Int(x)] }
        return x
    }

    /// Untouched entries before `rank` (counted among untouched entries only): how many
    /// framed rows they hold. O(log n).
    func untouchedFramedRows(beforeUntouchedRank rank: Int) -> Int {
        var t = root
        var k = rank
        var acc = 0
        while t >= 0, k > 0 {
            let l = left[Int(t)]
            let lu = sz(l) - touchedIn(l)
            if k <= lu { t = l; continue }
            acc += untouchedFramedIn(l)
            k -= lu
            if !touched[Int(t)] {
                acc += entries.framedCount(Int(t))
                k -= 1
            }
            t = right[Int(t)]
        }
        return acc
    }

    /// Clears every touched flag (after a change report). O(touched · log n).
    mutating func clearTouched(_ nodes: [Int32]) {
        for t in nodes where touched[Int(t)] {
            touched[Int(t)] = false
            pullToRoot(t)
        }
    }
}
