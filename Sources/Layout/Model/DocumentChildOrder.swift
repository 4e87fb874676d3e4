/// The order of every stack's rows: one implicit treap per stack (ordered by position, heap
/// ordered by a fixed hash of the slot), all stored in four `Int32` arrays indexed by row slot
/// (16 bytes per row). Insert at an index, remove, `index(of:)`, row at an index: O(log n)
/// expected; in-order stepping: amortised O(1) with no allocation.
///
/// A tree is named by its root slot (`-1` = empty); the caller keeps each stack's root.
struct DocumentChildOrder: Sendable {
    private(set) var left: [Int32] = []
    private(set) var right: [Int32] = []
    private(set) var up: [Int32] = []
    private(set) var weight: [Int32] = []

    /// Makes room for slots `0..<n`.
    mutating func grow(to n: Int) {
        while left.count < n {
            left.append(-1)
            right.append(-1)
            up.append(-1)
            weight.append(0)
        }
    }

    mutating func reserve(_ n: Int) {
        left.reserveCapacity(n)
        right.reserveCapacity(n)
        up.reserveCapacity(n)
        weight.reserveCapacity(n)
    }

    /// The heap priority of a slot: a bijective mix, so no two slots tie.
    @inline(__always)
    static func priority(_ s: Int32) -> UInt32 {
        var x = UInt32(bitPattern: s) &* 0x9E37_79B1
        x ^= x >> 15
        x &*= 0x85EB_CA77
        x ^= x >> 13
        x &*= 0xC2B2_AE3D
        x ^= x >> 16
        return x
    }

    /// Number of rows in the tree rooted at `t`.
    @inline(__always)
    func count(_ t: Int32) -> Int { t < 0 ? 0 : Int(weight[Int(t)]) }

    // MARK: Reading

    /// Position of slot `x` in its tree.
    func index(of x: Int32) -> Int {
        var i = count(left[Int(x)])
        var c = x
        var p = up[Int(c)]
        while p >= 0 {
            if right[Int(p)] == c { i += count(left[Int(p)]) + 1 }
            c = p
            p = up[Int(c)]
        }
        return i
    }

    /// The slot at position `k` of the tree rooted at `t` (0 ≤ k < count(t)).
    func slot(at k: Int, in t: Int32) -> Int32 {
        var t = t
        var k = k
        while t >= 0 {
            let l = count(left[Int(t)])
            if k < l {
                t = left[Int(t)]
            } else if k == l {
                return t
            } else {
                k -= l + 1
                t = right[Int(t)]
            }
        }
        return -1
    }

    /// The first slot (in order) of the tree rooted at `t`, or -1.
    @inline(__always)
    func first(_ t: Int32) -> Int32 {
        guard t >= 0 else { return -1 }
        var t = t
        while left[Int(t)] >= 0 { t = left[Int(t)] }
        return t
    }

    /// The slot after `x` in its tree, or -1.
    @inline(__always)
    func next(_ x: Int32) -> Int32 {
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

    /// The slot before `x` in its tree, or -1.
    func previous(_ x: Int32) -> Int32 {
        var l = left[Int(x)]
        if l >= 0 {
            while right[Int(l)] >= 0 { l = right[Int(l)] }
            return l
        }
        var c = x
        var p = up[Int(c)]
        while p >= 0, left[Int(p)] == c {
            c = p
            p = up[Int(c)]
        }
        return p
    }

    // MARK: Changing

    /// Inserts the detached slot `x` at position `k` of the tree `root`.
    mutating func insert(_ x: Int32, at k: Int, root: inout Int32) {
        reset(x)
        if k >= count(root) {
            append(x, root: &root)
            return
        }
        let (a, b) = split(root, k)
        root = merge(merge(a, x), b)
        up[Int(root)] = -1
    }

    /// Appends the detached slot `x` at the end of the tree `root`: one walk down the right spine.
    mutating func append(_ x: Int32, root: inout Int32) {
        reset(x)
        let px = Self.priority(x)
        var parent: Int32 = -1
        var c = root
        while c >= 0, Self.priority(c) > px {
            weight[Int(c)] += 1
            parent = c
            c = right[Int(c)]
        }
        left[Int(x)] = c
        if c >= 0 { up[Int(c)] = x }
        weight[Int(x)] = Int32(1 + count(c))
        up[Int(x)] = parent
        if parent < 0 { root = x } else { right[Int(parent)] = x }
    }

    /// Takes slot `x` out of the tree `root` (x is left detached).
    mutating func remove(_ x: Int32, root: inout Int32) {
        let m = merge(left[Int(x)], right[Int(x)])
        let p = up[Int(x)]
        if m >= 0 { up[Int(m)] = p }
        if p < 0 {
            root = m
        } else {
            if left[Int(p)] == x { left[Int(p)] = m } else { right[Int(p)] = m }
            var c = p
            while c >= 0 {
                weight[Int(c)] -= 1
                c = up[Int(c)]
            }
        }
        reset(x)
        weight[Int(x)] = 0
    }

    @inline(__always)
    private mutating func reset(_ x: Int32) {
        left[Int(x)] = -1
        right[Int(x)] = -1
        up[Int(x)] = -1
        weight[Int(x)] = 1
    }

    @inline(__always)
    private mutating func update(_ t: Int32) {
        weight[Int(t)] = Int32(1 + count(left[Int(t)]) + count(right[Int(t)]))
    }

    /// Splits `t` into its first `k` rows and the rest (returned roots have `up` = -1).
    private mutating func split(_ t: Int32, _ k: Int) -> (Int32, Int32) {
        guard t >= 0 else { return (-1, -1) }
        let l = count(left[Int(t)])
        if k <= l {
            let (a, b) = split(left[Int(t)], k)
            left[Int(t)] = b
            if b >= 0 { up[Int(b)] = t }
            update(t)
            if a >= 0 { up[Int(a)] = -1 }
            up[Int(t)] = -1
            return (a, t)
        } else {
            let (a, b) = split(right[Int(t)], k - l - 1)
            right[Int(t)] = a
            if a >= 0 { up[Int(a)] = t }
            update(t)
            if b >= 0 { up[Int(b)] = -1 }
            up[Int(t)] = -1
            return (t, b)
        }
    }

    /// Joins two trees, all of `a` before all of `b`.
    private mutating func merge(_ a: Int32, _ b: Int32) -> Int32 {
        if a < 0 { return b }
        if b < 0 { return a }
        if Self.priority(a) > Self.priority(b) {
            let r = merge(right[Int(a)], b)
            right[Int(a)] = r
            up[Int(r)] = a
            update(a)
            return a
        } else {
            let l = merge(a, left[Int(b)])
            left[Int(b)] = l
            up[Int(l)] = b
            update(b)
            return b
        }
    }
}
