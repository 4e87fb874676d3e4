import Dispatch
import Testing
@testable import OrderStatistics
import StackDocTestSupport

/// A summary whose `+` rounds (floating-point sums), with the count beside it: a total formed
/// from its children in another order or grouping shows in its bits.
struct RoundingSum: TreapSummary {
    var sum: Double
    var count: Int
    static let zero = RoundingSum(sum: 0, count: 0)
    static func + (lhs: RoundingSum, rhs: RoundingSum) -> RoundingSum { RoundingSum(sum: lhs.sum + rhs.sum, count: lhs.count + rhs.count) }
    static func == (a: RoundingSum, b: RoundingSum) -> Bool { a.sum.bitPattern == b.sum.bitPattern && a.count == b.count }
}

/// `AugmentedTreap.init(building:summaries:root:inHalves:)` (a big live layout's root line built
/// by two threads) against the one-pass build: the same root and the same columns — links and
/// totals — bit for bit, whether the halves run one after the other or at once, and a tree that
/// takes edits as any other.
@Suite(.longRunning) struct HalvesBuildTests {
    static func elements<S>(_ own: [S]) -> StoredSummaries<S> {
        var elements = StoredSummaries<S>()
        for (x, s) in own.enumerated() { elements.store(s, at: Int32(x)) }
        return elements
    }

    @Test(arguments: [0, 1, 2, 3, 10, 1000, 70_001])
    func halvesGiveTheOnePassTree(count: Int) {
        var rng = SplitMix64(seed: UInt64(count) + 5)
        let own = (0..<count).map { _ in RoundingSum(sum: Double(rng.next() % 1_000_000) / 7.0, count: 1) }
        var oneRoot: Int32 = -7
        let one = AugmentedTreap(building: Self.elements(own), summaries: own, root: &oneRoot)
        for atOnce in [false, true] {
            var root: Int32 = -7
            let halves = AugmentedTreap(building: Self.elements(own), summaries: own, root: &root) { half in
                if atOnce {
                    DispatchQueue.concurrentPerform(iterations: 2, execute: half)
                } else {
                    half(1)
                    half(0)
                }
            }
            #expect(root == oneRoot, "\(count) nodes, at once: \(atOnce)")
            #expect(halves.left == one.left && halves.right == one.right && halves.up == one.up, "\(count) nodes, at once: \(atOnce)")
            #expect(halves.total == one.total, "\(count) nodes, at once: \(atOnce)")
            #expect(halves.invariantViolation(roots: count == 0 ? [] : [root]) == nil)
        }
    }

    @Test func aHalvesTreeHoldsItsElementsInOrderAndTakesEdits() {
        let own = (0..<5000).map { Trace(items: [$0]) }
        var root: Int32 = -1
        var treap = AugmentedTreap(building: Self.elements(own), summaries: own, root: &root) { half in
            DispatchQueue.concurrentPerform(iterations: 2, execute: half)
        }
        var model = Array(0..<5000)
        #expect(treap.summary(of: root).items == model)
        let x = treap.node(at: 2500, in: root)
        treap.remove(x, root: &root)
        model.remove(at: 2500)
        treap.insert(x, at: 10, root: &root)
        model.insert(2500, at: 10)
        #expect(treap.summary(of: root).items == model)
        #expect(treap.invariantViolation(roots: [root]) == nil)
    }
}
