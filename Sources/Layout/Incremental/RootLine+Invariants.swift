// The root line's invariant checker, run by the property tests.

extension RootLine {
    /// The first broken structural rule, or nil when there is none: every column has one value
    /// per node; the root has no parent; every node is reached from the root once or is on the
    /// free list (once), never both; every child's `up` is its parent and its priority is not
    /// above its parent's (a max-heap); every stored aggregate equals its recomputation from the
    /// children (`pull`), bit for bit. Outside an update, no entry is touched. O(n).
    func invariantViolation() -> String? {
        let n = left.count
        let lengths = [right.count, up.count, priority.count, size.count, shownCount.count, sum.count, lo.count,
                       hi.count, rowTotal.count, touchedCount.count, untouchedFramed.count, contribution.count,
                       touched.count, entries.count]
        if let bad = lengths.first(where: { $0 != n }) { return "a column has \(bad) values for \(n) nodes" }
        if root >= 0 {
            guard Int(root) < n else { return "root \(root) is not a node" }
            if up[Int(root)] != -1 { return "root \(root) has parent \(up[Int(root)])" }
        }
        var seen = [Bool](repeating: false, count: n)
        var order: [Int32] = []
        var stack: [Int32] = root >= 0 ? [root] : []
        while let t = stack.popLast() {
            if seen[Int(t)] { return "node \(t) is reached twice" }
            seen[Int(t)] = true
            order.append(t)
            for c in [left[Int(t)], right[Int(t)]] where c >= 0 {
                guard Int(c) < n else { return "node \(t) has child \(c), not a node" }
                if up[Int(c)] != t { return "node \(c) has up \(up[Int(c)]), its parent is \(t)" }
                if priority[Int(c)] > priority[Int(t)] { return "node \(c) has a priority above its parent \(t)'s" }
                stack.append(c)
            }
        }
        var free = [Bool](repeating: false, count: n)
        for f in freeNodes {
            guard f >= 0, Int(f) < n else { return "free node \(f) is not a node" }
            if free[Int(f)] { return "node \(f) is freed twice" }
            free[Int(f)] = true
        }
        for i in 0..<n where seen[i] == free[i] {
            return seen[i] ? "node \(i) is in the tree and free" : "node \(i) is neither in the tree nor free"
        }
        var fresh = self
        for t in order.reversed() { fresh.pull(t) }
        for t in order {
            let i = Int(t)
            let stored = (size[i], shownCount[i], sum[i], lo[i], hi[i], rowTotal[i], touchedCount[i], untouchedFramed[i])
            let recomputed = (fresh.size[i], fresh.shownCount[i], fresh.sum[i], fresh.lo[i], fresh.hi[i],
                              fresh.rowTotal[i], fresh.touchedCount[i], fresh.untouchedFramed[i])
            // Compared by bits: lo and hi are ±infinity for subtrees without framed rows.
            if stored.0 != recomputed.0 || stored.1 != recomputed.1 || stored.2.bitPattern != recomputed.2.bitPattern
                || stored.3.bitPattern != recomputed.3.bitPattern || stored.4.bitPattern != recomputed.4.bitPattern
                || stored.5 != recomputed.5 || stored.6 != recomputed.6 || stored.7 != recomputed.7 {
                return "node \(t): aggregates \(stored) stored, \(recomputed) recomputed"
            }
        }
        if touchedIn(root) != 0 { return "\(touchedIn(root)) entries are still touched" }
        return nil
    }
}
