extension AugmentedTreap {
    /// The first broken rule of the pool whose trees are rooted at `roots` (a detached node is
    /// a tree of its own), or nil when all hold. O(n). Rules: every node is free or in exactly
    /// one of the trees; roots have no parent and every child's parent link names its parent;
    /// a parent's priority is above its children's; every total is `left + element + right`
    /// (compared with `==`); free nodes are unlinked; there is one element per node.
    public func invariantViolation<Roots: Sequence>(roots: Roots) -> String? where Roots.Element == Int32 {
        let n = left.count
        guard right.count == n, up.count == n, total.count == n, elements.count == n else {
            return "columns of different lengths"
        }
        // 0 = unseen, 1 = in a tree, 2 = free
        var seen = [UInt8](repeating: 0, count: n)
        for x in freeList {
            guard x >= 0, Int(x) < n else { return "free node \(x) out of range" }
            guard seen[Int(x)] == 0 else { return "node \(x) freed twice" }
            seen[Int(x)] = 2
            if left[Int(x)] >= 0 || right[Int(x)] >= 0 || up[Int(x)] >= 0 { return "free node \(x) is linked" }
        }
        var stack: [Int32] = []
        for root in roots where root >= 0 {
            guard Int(root) < n else { return "root \(root) out of range" }
            if up[Int(root)] >= 0 { return "root \(root) has parent \(up[Int(root)])" }
            stack.append(root)
            while let t = stack.popLast() {
                let i = Int(t)
                switch seen[i] {
                case 1: return "node \(t) reached twice"
                case 2: return "free node \(t) is in a tree"
                default: seen[i] = 1
                }
                for child in [left[i], right[i]] where child >= 0 {
                    guard Int(child) < n else { return "node \(t) has child \(child) out of range" }
                    if up[Int(child)] != t { return "node \(child) has parent link \(up[Int(child)]), not \(t)" }
                    if Self.priority(child) > Self.priority(t) { return "node \(child) outranks its parent \(t)" }
                    stack.append(child)
                }
                if total[i] != summary(of: left[i]) + elements.summary(of: t) + summary(of: right[i]) {
                    return "node \(t) has a stale total"
                }
            }
        }
        if let lost = seen.firstIndex(of: 0) { return "node \(lost) is neither free nor in a tree" }
        return nil
    }
}
