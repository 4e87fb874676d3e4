/// A pool of nodes forming any number of implicit treaps: randomised balanced binary trees
/// ordered by position (no keys), each subtree carrying the total of its elements' summaries,
/// so that position and summary queries and edits cost O(log n) expected.
///
/// Storage is struct-of-arrays indexed by node (`Int32`, `-1` = none): child and parent links
/// and the subtree totals; the elements live in `elements` (`TreapElements`), either the
/// element summaries themselves (`ImplicitTreap`, `StoredSummaries`) or the client's own
/// per-element storage from which each element's summary is computed when needed (no second
/// copy per node). Copying is cheap and a mutation copies the arrays once while another copy
/// shares them. A node is made detached (a tree of its own), placed in a tree with
/// `insert`/`append`/`merge`, taken out with `remove`, and returned to the free list with `free`.
/// A tree is named by its root node; the caller keeps each tree's root.
///
/// A node's heap priority is a fixed bijective mix of its number (`SplitMix64.mix`), so no two
/// nodes tie and nothing is stored for it. Parent links (`up`) are exact after every public
/// call; `invariantViolation(roots:)` checks every structural rule.
public struct AugmentedTreap<Elements: TreapElements>: Sendable {
    public typealias Summary = Elements.Summary

    @usableFromInline var left: [Int32] = []
    @usableFromInline var right: [Int32] = []
    @usableFromInline var up: [Int32] = []
    @usableFromInline var total: [Summary] = []
    @usableFromInline var freeList: [Int32] = []
    /// The elements, one per node. A client that changes one in place calls
    /// `elementChanged(_:)` for it (while it is in a tree) before any other call.
    public var elements: Elements

    /// An empty pool keeping its elements in `elements` (which must be empty).
    public init(elements: Elements) {
        precondition(elements.count == 0, "AugmentedTreap(elements:): elements must be empty")
        self.elements = elements
    }

    /// A pool of `elements.count` nodes, one per element, forming one tree in the elements'
    /// order; `root` is its root (-1 when empty). O(n). Inlinable, so that it is specialised
    /// for the client's elements (as every other operation).
    @inlinable
    public init(building elements: Elements, root: inout Int32) {
        self.init(unlinked: elements, totals: Array(repeating: .zero, count: elements.count))
        root = build(0..<Int32(truncatingIfNeeded: elements.count))
    }

    /// A pool of `elements.count` nodes with no links yet and `totals` as its totals' storage
    /// (one per element): where the building initialisers start.
    @inlinable
    init(unlinked elements: Elements, totals: [Summary]) {
        let n = elements.count
        precondition(n < Int(Int32.max), "AugmentedTreap: too many nodes")
        precondition(totals.count == n, "AugmentedTreap(building:summaries:): one summary per element")
        self.elements = elements
        left = Array(repeating: -1, count: n)
        right = Array(repeating: -1, count: n)
        up = Array(repeating: -1, count: n)
        total = totals
    }

    /// As `init(building:root:)`, given every element's summary in node order
    /// (`summaries[x] == elements.summary(of: x)`): the tree keeps that array as its totals'
    /// storage and sums each node's children onto its own summary, so no element summary is
    /// computed here (a client computes them in one tight pass of its own). O(n).
    @inlinable
    public init(building elements: Elements, summaries: [Summary], root: inout Int32) {
        self.init(unlinked: elements, totals: summaries)
        root = Self.cartesian(0..<Int32(truncatingIfNeeded: elements.count), left: &left, right: &right, up: &up, total: &total) { x, total in
            total[Int(x)]
        }
    }

    /// As `init(building:summaries:root:)`, the tree built in two halves that `inHalves` may
    /// build at once on two threads: it calls its argument once with `0` and once with `1`
    /// (in any order, or both at once) and returns when both calls have. The nodes
    /// `0..<n/2` and `n/2..<n` make a tree each (each half writes its own nodes' links and
    /// totals only), then the two are merged along their facing spines, O(log n). A node's
    /// priority is fixed by its number, so the tree is the one-pass tree, link for link, and
    /// every total is computed from the same children in the same order: bit for bit the same
    /// columns (`OrderStatisticsTests`). O(n).
    @inlinable
    public init(building elements: Elements, summaries: [Summary], root: inout Int32,
                inHalves: (_ half: @Sendable (Int) -> Void) -> Void) {
        self.init(unlinked: elements, totals: summaries)
        let n = elements.count
        let middle = Int32(truncatingIfNeeded: n / 2), end = Int32(truncatingIfNeeded: n)
        var roots: [Int32] = [-1, -1]
        left.withUnsafeMutableBufferPointer { left in
            right.withUnsafeMutableBufferPointer { right in
                up.withUnsafeMutableBufferPointer { up in
                    total.withUnsafeMutableBufferPointer { total in
                        roots.withUnsafeMutableBufferPointer { roots in
                            let columns = Columns(left: left, right: right, up: up, total: total)
                            let halfRoots = HalfRoots(roots: roots)
                            inHalves { half in
                                let nodes = half == 0 ? 0..<middle : middle..<end
                                halfRoots.roots[half] = Self.cartesian(nodes, columns) { x, total in total[Int(x)] }
                            }
                        }
                    }
                }
            }
        }
        root = merge(roots[0], roots[1])
    }

    /// The roots of the two halves of a build, lent to the threads that build them.
    @usableFromInline
    struct HalfRoots: @unchecked Sendable {
        @usableFromInline let roots: UnsafeMutableBufferPointer<Int32>

        @inlinable
        init(roots: UnsafeMutableBufferPointer<Int32>) { self.roots = roots }
    }

    /// Number of nodes ever made (in trees, detached, or free); node numbers are `0..<nodeCount`.
    @inlinable public var nodeCount: Int { left.count }

    /// Number of nodes on the free list.
    @inlinable public var freeCount: Int { freeList.count }

    /// The nodes on the free list.
    public var freeNodes: [Int32] { freeList }

    /// Makes room for `n` nodes in total.
    public mutating func reserveCapacity(_ n: Int) {
        left.reserveCapacity(n)
        right.reserveCapacity(n)
        up.reserveCapacity(n)
        total.reserveCapacity(n)
        elements.reserveCapacity(n)
    }

    /// A detached node holding `element`: the last freed node if any, else a new node numbered
    /// `nodeCount`.
    @inlinable
    public mutating func makeNode(_ element: Elements.Element) -> Int32 {
        let x: Int32
        if let reused = freeList.popLast() {
            x = reused
            let i = Int(x)
            left[i] = -1
            right[i] = -1
            up[i] = -1
        } else {
            precondition(left.count < Int(Int32.max), "AugmentedTreap: too many nodes")
            x = Int32(truncatingIfNeeded: left.count)
            left.append(-1)
            right.append(-1)
            up.append(-1)
            total.append(.zero)
        }
        elements.store(element, at: x)
        total[Int(x)] = elements.summary(of: x)
        return x
    }

    /// `n` new detached nodes each holding `element`, numbered `nodeCount ..< nodeCount + n`
    /// (the free list must be empty): a bulk load's nodes, one pass per column instead of one
    /// `makeNode` per node. O(n).
    @inlinable
    public mutating func makeNodes(_ n: Int, _ element: Elements.Element) {
        precondition(freeList.isEmpty, "AugmentedTreap.makeNodes: nodes are free to reuse")
        precondition(n >= 0 && left.count + n < Int(Int32.max), "AugmentedTreap: too many nodes")
        let first = left.count
        left.append(contentsOf: repeatElement(-1, count: n))
        right.append(contentsOf: repeatElement(-1, count: n))
        up.append(contentsOf: repeatElement(-1, count: n))
        for x in first..<(first + n) { elements.store(element, at: Int32(truncatingIfNeeded: x)) }
        let elements = self.elements
        total.reserveCapacity(first + n)
        for x in first..<(first + n) { total.append(elements.summary(of: Int32(truncatingIfNeeded: x))) }
    }

    /// Puts the detached node `x` on the free list (its number is reused by `makeNode`) and
    /// releases its element.
    @inlinable
    public mutating func free(_ x: Int32) {
        let i = Int(x)
        precondition(left[i] < 0 && right[i] < 0 && up[i] < 0, "AugmentedTreap.free: node \(x) is in a tree")
        elements.release(x)
        total[i] = .zero
        freeList.append(x)
    }

    /// The priority of node `x` (parents above children); a bijection, so no two nodes tie.
    @inlinable @inline(__always)
    static func priority(_ x: Int32) -> UInt64 {
        SplitMix64.mix(UInt64(UInt32(bitPattern: x)) &* SplitMix64.increment)
    }
}

extension AugmentedTreap {
    /// An empty pool.
    public init<S>() where Elements == StoredSummaries<S> {
        self.init(elements: StoredSummaries())
    }

    /// True when `self` and `other` share every buffer (one is an unchanged copy of the other). O(1).
    public func sharesStorage<S>(with other: Self) -> Bool where Elements == StoredSummaries<S> {
        func same<T>(_ a: [T], _ b: [T]) -> Bool {
            a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress && x.count == y.count } }
        }
        return same(left, other.left) && same(right, other.right) && same(up, other.up)
            && same(total, other.total) && same(freeList, other.freeList)
            && elements.sharesStorage(with: other.elements)
    }
}

// MARK: Reading

extension AugmentedTreap {
    /// The summary of the whole tree rooted at `root` (`zero` for `-1`).
    @inlinable @inline(__always)
    public func summary(of root: Int32) -> Summary { root < 0 ? .zero : total[Int(root)] }

    /// Number of elements in the tree rooted at `root`.
    @inlinable @inline(__always)
    public func count(_ root: Int32) -> Int { root < 0 ? 0 : total[Int(root)].count }

    /// The element summary of node `x`.
    @inlinable @inline(__always)
    public func element(_ x: Int32) -> Summary { elements.summary(of: x) }

    /// The parent of `x`, or -1 for a root.
    @inlinable @inline(__always)
    public func parent(_ x: Int32) -> Int32 { up[Int(x)] }

    /// The root of the tree holding `x`. O(log n).
    @inlinable
    public func root(of x: Int32) -> Int32 {
        var c = x
        while up[Int(c)] >= 0 { c = up[Int(c)] }
        return c
    }

    /// The node at position `k` of the tree rooted at `root` (select), or -1 when `k` is
    /// outside `0..<count(root)`. O(log n).
    @inlinable
    public func node(at k: Int, in root: Int32) -> Int32 {
        var t = root
        var k = k
        while t >= 0 {
            let l = count(left[Int(t)])
            if k < l {
                t = left[Int(t)]
            } else {
                k -= l
                let n = elements.count(of: t)
                if k < n { return t }
                k -= n
                t = right[Int(t)]
            }
        }
        return -1
    }

    /// The position of `x` in its tree (rank, the inverse of `node(at:in:)`): the count of
    /// `summary(before:)`. O(log n).
    @inlinable
    public func rank(of x: Int32) -> Int {
        var i = count(left[Int(x)])
        var c = x
        var p = up[Int(c)]
        while p >= 0 {
            if right[Int(p)] == c { i += count(left[Int(p)]) + elements.count(of: p) }
            c = p
            p = up[Int(c)]
        }
        return i
    }

    /// The summary of every element before `x` in its tree. O(log n).
    @inlinable
    public func summary(before x: Int32) -> Summary {
        var s = summary(of: left[Int(x)])
        var c = x
        var p = up[Int(c)]
        while p >= 0 {
            if right[Int(p)] == c { s = summary(of: left[Int(p)]) + elements.summary(of: p) + s }
            c = p
            p = up[Int(c)]
        }
        return s
    }

    /// The first node of the tree rooted at `root`, or -1.
    @inlinable @inline(__always)
    public func first(_ root: Int32) -> Int32 {
        guard root >= 0 else { return -1 }
        var t = root
        while left[Int(t)] >= 0 { t = left[Int(t)] }
        return t
    }

    /// The last node of the tree rooted at `root`, or -1.
    @inlinable
    public func last(_ root: Int32) -> Int32 {
        guard root >= 0 else { return -1 }
        var t = root
        while right[Int(t)] >= 0 { t = right[Int(t)] }
        return t
    }

    /// The node after `x` in its tree (successor), or -1. Amortised O(1) over a walk.
    @inlinable @inline(__always)
    public func successor(_ x: Int32) -> Int32 {
        let r = right[Int(x)]
        if r >= 0 { return first(r) }
        var c = x
        var p = up[Int(c)]
        while p >= 0, right[Int(p)] == c {
            c = p
            p = up[Int(c)]
        }
        return p
    }

    /// The first node `x` (in order) of the tree rooted at `root` for which
    /// `isPast(summary of every element up to and including x)` holds, with the summary of the
    /// elements before it; nil when none. `isPast` must be monotone (false…false true…true
    /// along the sequence). O(log n). Selects by any metric the summary holds.
    @inlinable
    public func firstNode(in root: Int32, where isPast: (Summary) -> Bool) -> (node: Int32, before: Summary)? {
        var t = root
        var before = Summary.zero
        while t >= 0 {
            let withLeft = before + summary(of: left[Int(t)])
            if left[Int(t)] >= 0, isPast(withLeft) {
                t = left[Int(t)]
                continue
            }
            let withSelf = withLeft + elements.summary(of: t)
            if isPast(withSelf) { return (t, withLeft) }
            before = withSelf
            t = right[Int(t)]
        }
        return nil
    }

    /// Calls `body(node, before)` in order for the nodes of the tree rooted at `root`, `before`
    /// being the summary of the elements before the node, skipping every subtree for which
    /// `mayContain(before, subtree)` is false (`subtree` is the subtree's total). O(log n + k)
    /// for a range query whose matches are contiguous (k nodes visited).
    @inlinable
    public func forEach(in root: Int32, mayContain: (_ before: Summary, _ subtree: Summary) -> Bool,
                        _ body: (_ node: Int32, _ before: Summary) -> Void) {
        func visit(_ t: Int32, _ before: Summary) {
            guard t >= 0, mayContain(before, total[Int(t)]) else { return }
            let l = left[Int(t)]
            visit(l, before)
            let here = before + summary(of: l)
            body(t, here)
            visit(right[Int(t)], here + elements.summary(of: t))
        }
        visit(root, .zero)
    }
}

// MARK: Changing

extension AugmentedTreap {
    /// Replaces the element of `x` and updates the totals up to its root. O(log n).
    @inlinable
    public mutating func setElement(_ x: Int32, _ element: Elements.Element) {
        elements.store(element, at: x)
        elementChanged(x)
    }

    /// Updates the totals from `x` up to its root after its element changed in `elements`. O(log n).
    @inlinable
    public mutating func elementChanged(_ x: Int32) {
        var c = x
        while c >= 0 {
            pull(c)
            c = up[Int(c)]
        }
    }

    /// Inserts the detached node `x` at position `k` of the tree `root` (at the end when `k`
    /// is at least the count). O(log n).
    @inlinable
    public mutating func insert(_ x: Int32, at k: Int, root: inout Int32) {
        if k >= count(root) {
            append(x, root: &root)
            return
        }
        total[Int(x)] = elements.summary(of: x)
        let (a, b) = split(root, at: k)
        root = merge(merge(a, x), b)
    }

    /// Appends the detached node `x` at the end of the tree `root`: one walk down the right
    /// spine, no split. O(log n).
    @inlinable
    public mutating func append(_ x: Int32, root: inout Int32) {
        let px = Self.priority(x)
        let s = elements.summary(of: x)
        var parent: Int32 = -1
        var c = root
        while c >= 0, Self.priority(c) > px {
            total[Int(c)] = total[Int(c)] + s
            parent = c
            c = right[Int(c)]
        }
        left[Int(x)] = c
        if c >= 0 { up[Int(c)] = x }
        total[Int(x)] = summary(of: c) + s
        up[Int(x)] = parent
        if parent < 0 { root = x } else { right[Int(parent)] = x }
    }

    /// Takes `x` out of the tree `root`, leaving it detached. O(log n).
    @inlinable
    public mutating func remove(_ x: Int32, root: inout Int32) {
        if let p = unlink(x, root: &root) {
            var c = p
            while c >= 0 {
                pull(c)
                c = up[Int(c)]
            }
        }
    }

    /// Replaces `x` by the merge of its children and detaches it; returns its former parent
    /// (nil when `x` was the root), whose totals up to the root still count `x`.
    @inlinable
    mutating func unlink(_ x: Int32, root: inout Int32) -> Int32? {
        let l = left[Int(x)], r = right[Int(x)]
        if l >= 0 { up[Int(l)] = -1 }
        if r >= 0 { up[Int(r)] = -1 }
        let m = merge(l, r)
        let p = up[Int(x)]
        if m >= 0 { up[Int(m)] = p }
        if p < 0 {
            root = m
        } else if left[Int(p)] == x {
            left[Int(p)] = m
        } else {
            right[Int(p)] = m
        }
        left[Int(x)] = -1
        right[Int(x)] = -1
        up[Int(x)] = -1
        total[Int(x)] = elements.summary(of: x)
        return p < 0 ? nil : p
    }

    /// Splits the tree `root` into its first `k` elements and the rest; both returned roots
    /// are detached (parent -1). O(log n).
    @inlinable
    public mutating func split(_ root: Int32, at k: Int) -> (Int32, Int32) {
        guard root >= 0 else { return (-1, -1) }
        let t = root
        let l = count(left[Int(t)])
        if k <= l {
            let (a, b) = split(left[Int(t)], at: k)
            left[Int(t)] = b
            if b >= 0 { up[Int(b)] = t }
            pull(t)
            up[Int(t)] = -1
            return (a, t)
        } else {
            let (a, b) = split(right[Int(t)], at: k - l - elements.count(of: t))
            right[Int(t)] = a
            if a >= 0 { up[Int(a)] = t }
            pull(t)
            up[Int(t)] = -1
            return (t, b)
        }
    }

    /// Joins two detached trees, every element of `a` before every element of `b`; returns
    /// the detached root. O(log n).
    @inlinable
    public mutating func merge(_ a: Int32, _ b: Int32) -> Int32 {
        if a < 0 { return b }
        if b < 0 { return a }
        if Self.priority(a) > Self.priority(b) {
            let r = merge(right[Int(a)], b)
            right[Int(a)] = r
            up[Int(r)] = a
            pull(a)
            return a
        } else {
            let l = merge(a, left[Int(b)])
            left[Int(b)] = l
            up[Int(l)] = b
            pull(b)
            return b
        }
    }

    /// One tree of the detached nodes `nodes`, in that order; returns its root. O(n).
    @inlinable
    public mutating func build<S: Sequence>(_ nodes: S) -> Int32 where S.Element == Int32 {
        let elements = self.elements
        return Self.cartesian(nodes, left: &left, right: &right, up: &up, total: &total) { x, _ in elements.summary(of: x) }
    }

    /// The tree of the detached nodes `nodes` in that order over the columns (its root): a
    /// Cartesian tree built with a stack of the right spine; children's totals are final when a
    /// node leaves the spine, so its total is computed then, as `pull` does, from `own(x,
    /// total)`, the element's summary. No access to the whole value inside the loop (no copies).
    @inlinable @inline(__always)
    static func cartesian<S: Sequence>(_ nodes: S, left: inout [Int32], right: inout [Int32], up: inout [Int32],
                                       total: inout [Summary],
                                       own: (Int32, UnsafeMutableBufferPointer<Summary>) -> Summary) -> Int32
        where S.Element == Int32 {
        left.withUnsafeMutableBufferPointer { left in
            right.withUnsafeMutableBufferPointer { right in
                up.withUnsafeMutableBufferPointer { up in
                    total.withUnsafeMutableBufferPointer { total in
                        cartesian(nodes, Columns(left: left, right: right, up: up, total: total), own: own)
                    }
                }
            }
        }
    }

    /// The link and total columns lent to a build (`cartesian`), which writes the entries of
    /// its own nodes only: two builds over disjoint nodes may run at once.
    @usableFromInline
    struct Columns: @unchecked Sendable {
        @usableFromInline let left: UnsafeMutableBufferPointer<Int32>
        @usableFromInline let right: UnsafeMutableBufferPointer<Int32>
        @usableFromInline let up: UnsafeMutableBufferPointer<Int32>
        @usableFromInline let total: UnsafeMutableBufferPointer<Summary>

        @inlinable
        init(left: UnsafeMutableBufferPointer<Int32>, right: UnsafeMutableBufferPointer<Int32>,
             up: UnsafeMutableBufferPointer<Int32>, total: UnsafeMutableBufferPointer<Summary>) {
            self.left = left
            self.right = right
            self.up = up
            self.total = total
        }
    }

    /// `cartesian` over lent columns.
    @inlinable @inline(__always)
    static func cartesian<S: Sequence>(_ nodes: S, _ c: Columns,
                                       own: (Int32, UnsafeMutableBufferPointer<Summary>) -> Summary) -> Int32
        where S.Element == Int32 {
        let left = c.left, right = c.right, up = c.up, total = c.total
        @inline(__always) func pull(_ t: Int32) {
            let i = Int(t), l = Int(left[i]), r = Int(right[i])
            // (left + own) + right, `zero` for a missing child, bit for bit as `pull`.
            total[i] = (l >= 0 ? total[l] : .zero) + own(t, total) + (r >= 0 ? total[r] : .zero)
        }
        var spine: [Int32] = []
        for x in nodes {
            var last: Int32 = -1
            while let top = spine.last, priority(top) < priority(x) {
                spine.removeLast()
                if last >= 0 { up[Int(last)] = top }
                right[Int(top)] = last
                pull(top)
                last = top
            }
            left[Int(x)] = last
            if last >= 0 { up[Int(last)] = x }
            spine.append(x)
        }
        var last: Int32 = -1
        while let top = spine.popLast() {
            right[Int(top)] = last
            if last >= 0 { up[Int(last)] = top }
            pull(top)
            last = top
        }
        if last >= 0 { up[Int(last)] = -1 }
        return last
    }

    /// Recomputes the total of `t` from its children and its element.
    @inlinable @inline(__always)
    mutating func pull(_ t: Int32) {
        total[Int(t)] = summary(of: left[Int(t)]) + elements.summary(of: t) + summary(of: right[Int(t)])
    }
}

extension AugmentedTreap where Elements.Summary: SubtractableTreapSummary {
    /// `remove` for a summary that can be subtracted: each ancestor's total loses `x`'s element
    /// by one subtraction. O(log n).
    @inlinable
    public mutating func remove(_ x: Int32, root: inout Int32) {
        if let p = unlink(x, root: &root) {
            let s = elements.summary(of: x)
            var c = p
            while c >= 0 {
                total[Int(c)] = total[Int(c)] - s
                c = up[Int(c)]
            }
        }
    }
}
