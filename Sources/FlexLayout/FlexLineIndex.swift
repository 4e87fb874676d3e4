/// An incremental index of one flex line's main-axis lengths (issue 5).
///
/// For a stack whose items have explicit main sizes and no free space to distribute
/// (`justify-content: flex-start`, or content at least as long as the container, and no
/// `flex-grow`/`flex-shrink` at work), CSS Flexbox §9.5 places item *i* at
///
///     padding-start + Σ_{visible j < i} (outer length_j + gap) + margin-start_i
///
/// where an item's *outer length* is margin-start + border-box main size + margin-end and
/// `display: none` items take no length and no gap. `FlexLineIndex` keeps those outer lengths
/// in an implicit treap (a randomised balanced binary tree ordered by position) whose nodes
/// carry subtree sums (item count, visible count, visible length), so every edit and query
/// costs O(log n) expected:
///
/// | operation | cost |
/// |---|---|
/// | `insert`, `remove`, `move`, `setLength`, `setHidden` | O(log n) |
/// | `offset(at:)`, `length(at:)`, `index(of:)` | O(log n) |
/// | `index(atOffset:)` | O(log n) |
/// | `visibleItems(from:to:)` | O(log n + k) (k = items returned and hidden items skipped) |
/// | `init(lengths:hidden:gap:)` | O(n) |
///
/// Offsets are relative to the container's content-box start (add padding-start, and the
/// item's own margin-start for its border box). Indexes count all items, hidden ones included.
/// Out-of-range indexes are programming errors (`precondition`).
public struct FlexLineIndex: Sendable {
    /// A stable handle to an item: it survives edits of other items and moves of the item
    /// itself, and is invalid once the item is removed.
    public struct Item: Hashable, Sendable {
        let slot: Int32
        let generation: UInt32
    }

    /// One item of `visibleItems(from:to:)`.
    public struct Placement: Hashable, Sendable {
        /// Index of the item (hidden items counted).
        public var index: Int
        /// Start of the item's margin box, relative to the content-box start.
        public var offset: Double
        /// The item's outer length.
        public var length: Double
    }

    /// The gap between consecutive visible items (`row-gap`/`column-gap` on the main axis).
    public var gap: Double {
        didSet { if !(gap.isFinite && gap >= 0) { gap = 0 } }
    }

    // Node pool, one column per field, indexed by slot; -1 = no node.
    private var left: [Int32] = []
    private var right: [Int32] = []
    private var up: [Int32] = []
    private var priority: [UInt64] = []
    private var size: [Int32] = []        // items in the subtree; 0 marks a free slot
    private var visible: [Int32] = []     // visible items in the subtree
    private var sum: [Double] = []        // outer lengths of the visible items in the subtree
    private var length: [Double] = []
    private var hidden: [Bool] = []
    private var generation: [UInt32] = []
    private var freeSlots: [Int32] = []
    private var root: Int32 = -1
    private var random: SplitMix64

    /// An empty line.
    public init(gap: Double = 0, seed: UInt64 = 0x5EED) {
        self.gap = (gap.isFinite && gap >= 0) ? gap : 0
        random = SplitMix64(seed: seed)
    }

    /// A line of `lengths.count` items in order, built in O(n). `hidden`, when given, must have
    /// the same count. Negative or non-finite lengths count as 0.
    public init(lengths: [Double], hidden isHidden: [Bool]? = nil, gap: Double = 0, seed: UInt64 = 0x5EED) {
        if let isHidden {
            precondition(isHidden.count == lengths.count, "FlexLineIndex: hidden flags must match the lengths")
        }
        self.init(gap: gap, seed: seed)
        let n = lengths.count
        precondition(n < Int(Int32.max), "FlexLineIndex: too many items")
        left = Array(repeating: -1, count: n)
        right = Array(repeating: -1, count: n)
        up = Array(repeating: -1, count: n)
        size = Array(repeating: 1, count: n)
        visible = Array(repeating: 0, count: n)
        sum = Array(repeating: 0, count: n)
        length = lengths.map(Self.sanitized)
        hidden = isHidden ?? Array(repeating: false, count: n)
        generation = Array(repeating: 0, count: n)
        priority.reserveCapacity(n)
        for _ in 0..<n { priority.append(nextRandom()) }
        // Cartesian tree (max-heap on priority) over the in-order sequence, with a stack of
        // the right spine.
        var spine: [Int32] = []
        for i in 0..<n {
            let node = Int32(i)
            var last: Int32 = -1
            while let top = spine.last, priority[Int(top)] < priority[i] {
                last = spine.removeLast()
            }
            left[i] = last
            if let top = spine.last { right[Int(top)] = node }
            spine.append(node)
        }
        root = spine.first ?? -1
        // Aggregates, children before parents (iterative post-order).
        var stack: [(Int32, Bool)] = root >= 0 ? [(root, false)] : []
        while let (node, expanded) = stack.popLast() {
            if expanded {
                pull(node)
            } else {
                stack.append((node, true))
                let l = left[Int(node)], r = right[Int(node)]
                if l >= 0 { stack.append((l, false)) }
                if r >= 0 { stack.append((r, false)) }
            }
        }
        if root >= 0 { up[Int(root)] = -1 }
    }

    // MARK: Size

    /// Number of items, hidden ones included.
    public var count: Int { sz(root) }

    /// Number of visible items.
    public var visibleCount: Int { vis(root) }

    /// The line's main-axis content length: visible outer lengths plus the gaps between them.
    public var totalLength: Double {
        let v = vis(root)
        return v == 0 ? 0 : total(root) + gap * Double(v - 1)
    }

    // MARK: Edits

    /// Inserts an item of outer length `length` at `index` (0...count) and returns its handle.
    @discardableResult
    public mutating func insert(length itemLength: Double, hidden isHidden: Bool = false, at index: Int) -> Item {
        precondition(index >= 0 && index <= count, "FlexLineIndex.insert: index \(index) out of 0...\(count)")
        let node = allocate(length: Self.sanitized(itemLength), hidden: isHidden)
        let (a, b) = split(root, index)
        root = merge(merge(a, node), b)
        up[Int(root)] = -1
        return Item(slot: node, generation: generation[Int(node)])
    }

    /// Removes the item at `index`.
    public mutating func remove(at index: Int) {
        precondition(index >= 0 && index < count, "FlexLineIndex.remove: index \(index) out of 0..<\(count)")
        let node = detach(at: index)
        release(node)
    }

    /// Moves the item at `source` so that it ends up at index `destination` (both in
    /// 0..<count), like `Array.remove(at:)` followed by `insert(_:at:)`. Its handle stays valid.
    public mutating func move(from source: Int, to destination: Int) {
        precondition(source >= 0 && source < count, "FlexLineIndex.move: source \(source) out of 0..<\(count)")
        precondition(destination >= 0 && destination < count,
                     "FlexLineIndex.move: destination \(destination) out of 0..<\(count)")
        guard source != destination else { return }
        let node = detach(at: source)
        let (a, b) = split(root, destination)
        root = merge(merge(a, node), b)
        up[Int(root)] = -1
    }

    /// Sets the outer length of the item at `index` (a resize).
    public mutating func setLength(_ newLength: Double, at index: Int) {
        let node = self.node(at: index, "setLength")
        length[Int(node)] = Self.sanitized(newLength)
        pullToRoot(node)
    }

    /// Hides (`display: none`) or shows the item at `index`.
    public mutating func setHidden(_ isHidden: Bool, at index: Int) {
        let node = self.node(at: index, "setHidden")
        guard hidden[Int(node)] != isHidden else { return }
        hidden[Int(node)] = isHidden
        pullToRoot(node)
    }

    // MARK: Queries

    /// The outer length of the item at `index` (also when hidden).
    public func length(at index: Int) -> Double { length[Int(node(at: index, "length"))] }

    /// Whether the item at `index` is hidden.
    public func isHidden(at index: Int) -> Bool { hidden[Int(node(at: index, "isHidden"))] }

    /// The start of the margin box of the item at `index` relative to the content-box start:
    /// the visible outer lengths and gaps before it. A hidden item reports where it would
    /// start (the offset of the next visible item).
    public func offset(at index: Int) -> Double {
        precondition(index >= 0 && index < count, "FlexLineIndex.offset: index \(index) out of 0..<\(count)")
        var t = root
        var k = index
        var acc = 0.0
        while t >= 0 {
            let i = Int(t)
            let l = left[i]
            let ls = sz(l)
            if k < ls {
                t = l
                continue
            }
            acc += total(l) + gap * Double(vis(l))
            if k == ls { return acc }
            if !hidden[i] { acc += length[i] + gap }
            k -= ls + 1
            t = right[i]
        }
        return acc
    }

    /// The current index of `item`, or nil when it was removed.
    public func index(of item: Item) -> Int? {
        let s = Int(item.slot)
        guard s >= 0 && s < size.count && size[s] > 0 && generation[s] == item.generation else { return nil }
        var rank = sz(left[s])
        var x = item.slot
        while up[Int(x)] >= 0 {
            let p = up[Int(x)]
            if right[Int(p)] == x { rank += sz(left[Int(p)]) + 1 }
            x = p
        }
        return rank
    }

    /// The handle of the item at `index`.
    public func item(at index: Int) -> Item {
        let node = self.node(at: index, "item")
        return Item(slot: node, generation: generation[Int(node)])
    }

    /// The first visible item whose margin box ends after `position` (relative to the
    /// content-box start): the item containing `position`, or the next visible one when
    /// `position` falls in a gap or before the first item; nil past the last visible item.
    public func index(atOffset position: Double) -> Int? {
        guard let (index, _) = firstVisible(endingAfter: position) else { return nil }
        return index
    }

    /// The visible items whose margin boxes overlap [start, end), in order, with their
    /// offsets and lengths.
    public func visibleItems(from start: Double, to end: Double) -> [Placement] {
        var result: [Placement] = []
        guard let (firstIndex, firstNode) = firstVisible(endingAfter: start) else { return result }
        var index = firstIndex
        var offset = self.offset(at: firstIndex)
        var t = firstNode
        while t >= 0 {
            let i = Int(t)
            if !hidden[i] {
                if offset >= end { break }
                result.append(Placement(index: index, offset: offset, length: length[i]))
                offset += length[i] + gap
            }
            index += 1
            t = successor(t)
        }
        return result
    }

    /// All items in order as (outer length, hidden) pairs: O(n), for tests and rebuilds.
    public var items: [(length: Double, hidden: Bool)] {
        var result: [(length: Double, hidden: Bool)] = []
        result.reserveCapacity(count)
        var t = root
        if t >= 0 { while left[Int(t)] >= 0 { t = left[Int(t)] } }
        while t >= 0 {
            result.append((length[Int(t)], hidden[Int(t)]))
            t = successor(t)
        }
        return result
    }

    /// Depth of the tree (for tests of balance): O(n).
    var treeHeight: Int {
        var best = 0
        var stack: [(Int32, Int)] = root >= 0 ? [(root, 1)] : []
        while let (t, d) = stack.popLast() {
            best = Swift.max(best, d)
            if left[Int(t)] >= 0 { stack.append((left[Int(t)], d + 1)) }
            if right[Int(t)] >= 0 { stack.append((right[Int(t)], d + 1)) }
        }
        return best
    }

    // MARK: Treap internals

    private static func sanitized(_ v: Double) -> Double { (v.isFinite && v > 0) ? v : 0 }

    private mutating func nextRandom() -> UInt64 { random.next() }

    @inline(__always) private func sz(_ t: Int32) -> Int { t < 0 ? 0 : Int(size[Int(t)]) }
    @inline(__always) private func vis(_ t: Int32) -> Int { t < 0 ? 0 : Int(visible[Int(t)]) }
    @inline(__always) private func total(_ t: Int32) -> Double { t < 0 ? 0 : sum[Int(t)] }

    /// Recomputes the aggregates of `t` from its children and points the children at it.
    @inline(__always) private mutating func pull(_ t: Int32) {
        let i = Int(t)
        let l = left[i], r = right[i]
        let own = hidden[i] ? 0 : 1
        size[i] = Int32(1 + sz(l) + sz(r))
        visible[i] = Int32(own + vis(l) + vis(r))
        sum[i] = (hidden[i] ? 0 : length[i]) + total(l) + total(r)
        if l >= 0 { up[Int(l)] = t }
        if r >= 0 { up[Int(r)] = t }
    }

    private mutating func pullToRoot(_ t: Int32) {
        var x = t
        while x >= 0 {
            pull(x)
            x = up[Int(x)]
        }
    }

    /// Splits `t` into its first `k` items and the rest.
    private mutating func split(_ t: Int32, _ k: Int) -> (Int32, Int32) {
        guard t >= 0 else { return (-1, -1) }
        let i = Int(t)
        let ls = sz(left[i])
        if k <= ls {
            let (a, b) = split(left[i], k)
            left[i] = b
            pull(t)
            return (a, t)
        }
        let (a, b) = split(right[i], k - ls - 1)
        right[i] = a
        pull(t)
        return (t, b)
    }

    /// Concatenates `a` and `b` (every item of `a` before every item of `b`).
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

    private func node(at index: Int, _ caller: String) -> Int32 {
        precondition(index >= 0 && index < count, "FlexLineIndex.\(caller): index \(index) out of 0..<\(count)")
        var t = root
        var k = index
        while true {
            let l = left[Int(t)]
            let ls = sz(l)
            if k < ls {
                t = l
            } else if k == ls {
                return t
            } else {
                k -= ls + 1
                t = right[Int(t)]
            }
        }
    }

    /// Takes the item at `index` out of the tree and returns it as a single-node tree.
    private mutating func detach(at index: Int) -> Int32 {
        let (a, rest) = split(root, index)
        let (node, b) = split(rest, 1)
        root = merge(a, b)
        if root >= 0 { up[Int(root)] = -1 }
        up[Int(node)] = -1
        return node
    }

    private mutating func allocate(length itemLength: Double, hidden isHidden: Bool) -> Int32 {
        let node: Int32
        if let reused = freeSlots.popLast() {
            node = reused
            let i = Int(node)
            left[i] = -1; right[i] = -1; up[i] = -1
            priority[i] = nextRandom()
            length[i] = itemLength
            hidden[i] = isHidden
            generation[i] &+= 1
        } else {
            precondition(left.count < Int(Int32.max), "FlexLineIndex: too many items")
            node = Int32(left.count)
            left.append(-1); right.append(-1); up.append(-1)
            priority.append(nextRandom())
            size.append(0); visible.append(0); sum.append(0)
            length.append(itemLength)
            hidden.append(isHidden)
            generation.append(0)
        }
        pull(node)
        return node
    }

    private mutating func release(_ node: Int32) {
        let i = Int(node)
        size[i] = 0
        left[i] = -1; right[i] = -1; up[i] = -1
        freeSlots.append(node)
    }

    /// The in-order successor of `t`, or -1.
    private func successor(_ t: Int32) -> Int32 {
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

    /// The first visible item whose margin box ends after `position`, with its node.
    private func firstVisible(endingAfter position: Double) -> (Int, Int32)? {
        var t = root
        var acc = 0.0      // offset of the subtree's first item
        var base = 0       // index of the subtree's first item
        while t >= 0 {
            let i = Int(t)
            let l = left[i]
            let lv = vis(l)
            // The last visible item of the left subtree ends at acc + total(l) + gap·(lv − 1).
            if lv > 0 && acc + total(l) + gap * Double(lv - 1) > position {
                t = l
                continue
            }
            acc += total(l) + gap * Double(lv)
            base += sz(l)
            if !hidden[i] {
                if acc + length[i] > position { return (base, t) }
                acc += length[i] + gap
            }
            base += 1
            t = right[i]
        }
        return nil
    }
}
