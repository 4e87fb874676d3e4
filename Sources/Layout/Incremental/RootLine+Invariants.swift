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
        return nil
    }
}
