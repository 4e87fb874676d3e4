// The root line's invariant checker, run by the property tests.

extension RootLine {
    /// The first broken rule, or nil when all hold: the tree's own rules
    /// (`AugmentedTreap.invariantViolation(roots:)`: links, heap order, free list, every total
    /// equal to its recomputation from the entries, bit for bit); one contribution and one touched
    /// flag per entry; freed entries empty; outside an update, no entry touched. O(n).
    func invariantViolation() -> String? {
        let n = entries.count
        if contribution.count != n || touched.count != n {
            return "\(contribution.count) contributions and \(touched.count) touched flags for \(n) entries"
        }
        if let broken = tree.invariantViolation(roots: [root]) { return broken }
        for f in tree.freeNodes where entries.isFilled(Int(f)) || touched[Int(f)] || contribution[Int(f)] != 0 {
            return "free node \(f) keeps an entry"
        }
        if summary.touched != 0 { return "\(summary.touched) entries are still touched" }
        for i in 0..<n where entries.isLine(i) && entries.isFilled(i) {
            if let broken = entries.stackLine(i).invariantViolation() { return "stack line \(entries.ids[i]): \(broken)" }
        }
        return nil
    }
}

extension StackLine {
    /// The first broken rule of a stack line, or nil: its line's rules; every entry filled, with
    /// its contribution (outer length + the stack's spacing when shown, else 0); the framed
    /// count equal to its entries'. O(rows of the line).
    func invariantViolation() -> String? {
        if let broken = line.invariantViolation() { return broken }
        var framed = 0
        var node = line.first()
        while node >= 0 {
            let i = Int(node)
            guard line.entries.isFilled(i), !line.entries.isLine(i) else { return "entry \(node) is not a laid-out child" }
            let c = line.entries.shown(i) ? line.entries.outerLength(i) + gap : 0
            if line.contribution[i].bitPattern != c.bitPattern { return "entry \(node) contributes \(line.contribution[i]), not \(c)" }
            framed += line.entries.framedCount(i)
            node = line.successor(node)
        }
        return framed == self.framed ? nil : "\(self.framed) framed rows kept, \(framed) counted"
    }
}
