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
    /// The first broken rule of a stack line, or nil: its line's rules (its own stack lines'
    /// included); every entry filled, with its contribution (outer length + the stack's spacing
    /// when shown, else 0). O(rows of the line).
    func invariantViolation() -> String? {
        if let broken = line.invariantViolation() { return broken }
        var node = line.first()
        while node >= 0 {
            let i = Int(node)
            guard line.entries.isFilled(i) else { return "entry \(node) is not a laid-out child" }
            let c = line.entries.shown(i) ? line.entries.outerLength(i) + gap : 0
            if line.contribution[i].bitPattern != c.bitPattern { return "entry \(node) contributes \(line.contribution[i]), not \(c)" }
            node = line.successor(node)
        }
        return nil
    }
}

extension LiveLayout {
    /// The first broken rule of the layout's index, or nil: the root line's rules (every stack
    /// line's, at any depth, included); every stack line where its number's `links` say; every
    /// row found where its location says (`path(of:)`), at its document-order position. O(n log n).
    func invariantViolation() -> String? {
        guard full == nil else { return nil }
        if let broken = line.invariantViolation() { return "root line: \(broken)" }
        func check(_ l: RootLine, number: Int32, path: [Int32]) -> String? {
            var node = l.first()
            while node >= 0 {
                let i = Int(node)
                if l.entries.isLine(i) {
                    let sl = l.entries.stackLine(i)
                    guard sl.number >= 0, Int(sl.number) < links.count, links[Int(sl.number)].parent == number,
                          links[Int(sl.number)].node == node else { return "stack line \(l.entries.ids[i]): link of number \(sl.number)" }
                    if let broken = check(sl.line, number: sl.number, path: path + [node]) { return broken }
                }
                node = l.successor(node)
            }
            return nil
        }
        if let broken = check(line, number: -1, path: []) { return broken }
        var position = 0
        for r in layout().rows {
            guard self.position(of: r.id) == position else { return "row \(r.id) is not found at \(position)" }
            position += 1
        }
        return nil
    }
}
