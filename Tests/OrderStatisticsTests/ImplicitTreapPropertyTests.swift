import Testing
@testable import OrderStatistics
import StackDocTestSupport

/// The exact summary: the elements themselves, in order. Its `+` is concatenation (a monoid,
/// not commutative), so any misplaced, lost or duplicated element shows in a total.
struct Trace: TreapSummary {
    var items: [Int]
    static let zero = Trace(items: [])
    var count: Int { items.count }
    static func + (lhs: Trace, rhs: Trace) -> Trace { Trace(items: lhs.items + rhs.items) }
}

/// `ImplicitTreap` against a plain model (one array per tree): seeded random sequences of every
/// edit, each followed by the invariant checker and a comparison of every tree.
@Suite("ImplicitTreap vs arrays", .longRunning)
struct ImplicitTreapPropertyTests {
    struct Forest {
        var treap = ImplicitTreap<Trace>()
        var roots: [Int32] = []
        var model: [[Int]] = []
        var nodeOf: [Int: Int32] = [:]
        var next = 0

        mutating func makeNode() -> (Int32, Int) {
            let value = next
            next += 1
            let x = treap.makeNode(Trace(items: [value]))
            nodeOf[value] = x
            return (x, value)
        }

        func check(_ step: String) {
            #expect(treap.invariantViolation(roots: roots) == nil, "\(step)")
            for (t, root) in roots.enumerated() {
                #expect(treap.summary(of: root).items == model[t], "\(step): tree \(t)")
                #expect(treap.count(root) == model[t].count)
                // In-order walk by `successor`.
                var walked: [Int] = []
                var c = treap.first(root)
                while c >= 0 {
                    walked.append(treap.element(c).items[0])
                    c = treap.successor(c)
                }
                #expect(walked == model[t], "\(step): successor walk of tree \(t)")
                if let lastValue = model[t].last {
                    #expect(treap.last(root) == nodeOf[lastValue])
                } else {
                    #expect(treap.first(root) == -1 && treap.last(root) == -1)
                }
            }
        }
    }

    @Test("random edits keep every invariant and match the model", arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomEdits(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var f = Forest()
        for _ in 0..<3 {
            f.roots.append(-1)
            f.model.append([])
        }
        for step in 0..<600 {
            let t = Int.random(in: 0..<f.roots.count, using: &rng)
            let n = f.model[t].count
            switch Int.random(in: 0..<9, using: &rng) {
            case 0, 1: // insert at a random position
                let (x, v) = f.makeNode()
                let k = Int.random(in: 0...n, using: &rng)
                f.treap.insert(x, at: k, root: &f.roots[t])
                f.model[t].insert(v, at: k)
            case 2: // append
                let (x, v) = f.makeNode()
                f.treap.append(x, root: &f.roots[t])
                f.model[t].append(v)
            case 3 where n > 0: // remove and free
                let k = Int.random(in: 0..<n, using: &rng)
                let v = f.model[t].remove(at: k)
                let x = f.nodeOf.removeValue(forKey: v)!
                #expect(f.treap.node(at: k, in: f.roots[t]) == x)
                f.treap.remove(x, root: &f.roots[t])
                f.treap.free(x)
            case 4 where n > 0: // move to another tree
                let k = Int.random(in: 0..<n, using: &rng)
                let v = f.model[t].remove(at: k)
                let x = f.nodeOf[v]!
                f.treap.remove(x, root: &f.roots[t])
                let u = Int.random(in: 0..<f.roots.count, using: &rng)
                let j = Int.random(in: 0...f.model[u].count, using: &rng)
                f.treap.insert(x, at: j, root: &f.roots[u])
                f.model[u].insert(v, at: j)
            case 5 where n > 0: // change an element
                let k = Int.random(in: 0..<n, using: &rng)
                let old = f.model[t][k]
                let x = f.nodeOf.removeValue(forKey: old)!
                let v = f.next
                f.next += 1
                f.nodeOf[v] = x
                f.treap.setElement(x, Trace(items: [v]))
                f.model[t][k] = v
            case 6: // split and merge the halves the other way round
                let k = Int.random(in: 0...n, using: &rng)
                let (a, b) = f.treap.split(f.roots[t], at: k)
                #expect(f.treap.summary(of: a).items == Array(f.model[t][..<k]))
                f.roots[t] = f.treap.merge(b, a)
                f.model[t] = Array(f.model[t][k...] + f.model[t][..<k])
            case 7: // build a new tree and merge it at the end
                var nodes: [Int32] = []
                var values: [Int] = []
                for _ in 0..<Int.random(in: 0...20, using: &rng) {
                    let (x, v) = f.makeNode()
                    nodes.append(x)
                    values.append(v)
                }
                let built = f.treap.build(nodes)
                #expect(f.treap.invariantViolation(roots: f.roots + [built]) == nil)
                #expect(f.treap.summary(of: built).items == values)
                f.roots[t] = f.treap.merge(f.roots[t], built)
                f.model[t] += values
            default: // queries: select, rank, prefix summary, select by another metric
                guard n > 0 else { break }
                let k = Int.random(in: 0..<n, using: &rng)
                let x = f.treap.node(at: k, in: f.roots[t])
                #expect(x == f.nodeOf[f.model[t][k]])
                #expect(f.treap.rank(of: x) == k)
                #expect(f.treap.summary(before: x).items == Array(f.model[t][..<k]))
                #expect(f.treap.root(of: x) == f.roots[t])
                #expect(f.treap.node(at: n, in: f.roots[t]) == -1)
                // The first element whose running sum of values passes a threshold.
                let sums = f.model[t].reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1) }
                let threshold = Int.random(in: 0...(sums.last! + 1), using: &rng)
                let found = f.treap.firstNode(in: f.roots[t]) { $0.items.reduce(0, +) > threshold }
                if let i = sums.firstIndex(where: { $0 > threshold }) {
                    #expect(found?.node == f.nodeOf[f.model[t][i]])
                    #expect(found?.before.items == Array(f.model[t][..<i]))
                } else {
                    #expect(found == nil)
                }
                // The nodes whose values lie in a range, pruning subtrees that hold none.
                let lo = Int.random(in: 0...f.next, using: &rng), hi = lo + Int.random(in: 0...40, using: &rng)
                var visited: [Int] = []
                f.treap.forEach(in: f.roots[t], mayContain: { _, subtree in
                    subtree.items.contains { (lo...hi).contains($0) }
                }) { node, before in
                    let v = f.treap.element(node).items[0]
                    #expect(before.items == Array(f.model[t].prefix { $0 != v }))
                    if (lo...hi).contains(v) { visited.append(v) }
                }
                #expect(visited == f.model[t].filter { (lo...hi).contains($0) })
            }
            f.check("seed \(seed) step \(step)")
        }
    }

    @Test("freed nodes are reused and counted")
    func freeList() {
        var treap = ImplicitTreap<ElementCount>()
        var root: Int32 = -1
        for _ in 0..<10 { treap.append(treap.makeNode(.one), root: &root) }
        let x = treap.node(at: 4, in: root)
        treap.remove(x, root: &root)
        treap.free(x)
        #expect(treap.freeCount == 1 && treap.count(root) == 9)
        #expect(treap.invariantViolation(roots: [root]) == nil)
        #expect(treap.makeNode(.one) == x)
        #expect(treap.freeCount == 0 && treap.nodeCount == 10)
    }

    @Test("the invariant checker reports each broken rule")
    func checkerFindsBreakage() {
        func sample() -> (ImplicitTreap<ElementCount>, Int32) {
            var treap = ImplicitTreap<ElementCount>()
            let nodes = (0..<64).map { _ in treap.makeNode(.one) }
            let root = treap.build(nodes)
            return (treap, root)
        }
        let (good, root) = sample()
        #expect(good.invariantViolation(roots: [root]) == nil)
        let child = good.left[Int(root)] >= 0 ? good.left[Int(root)] : good.right[Int(root)]

        var badParent = good
        badParent.up[Int(child)] = -1
        #expect(badParent.invariantViolation(roots: [root])?.contains("parent link") == true)

        var staleTotal = good
        staleTotal.total[Int(root)] = ElementCount(63)
        #expect(staleTotal.invariantViolation(roots: [root])?.contains("stale total") == true)

        #expect(good.invariantViolation(roots: [] as [Int32])?.contains("neither free nor in a tree") == true)
        #expect(good.invariantViolation(roots: [root, root]) != nil)

        // Two nodes, the one of lower priority made the parent.
        var heap = ImplicitTreap<ElementCount>()
        let a = heap.makeNode(.one), b = heap.makeNode(.one)
        let (top, below) = ImplicitTreap<ElementCount>.priority(a) < ImplicitTreap<ElementCount>.priority(b) ? (a, b) : (b, a)
        heap.left[Int(top)] = below
        heap.up[Int(below)] = top
        heap.total[Int(top)] = ElementCount(2)
        #expect(heap.invariantViolation(roots: [top])?.contains("outranks") == true)
    }
}
