import Testing
import OrderStatistics
@testable import Layout
import StackDocTestSupport

/// `planRestore(to:)` plans the smallest change list: the restored document is the target
/// (its view kept), and restoring the result of k random changes takes no more changes than
/// undoing them would — k for moves within stacks (one longest run of rows that keep their
/// order stays), at most 2k in general (a row that changes stacks is parked, then placed).
/// The planner before moved every row after a moved one: one move of the last of 2,000 rows
/// to the front was restored by 2,000 moves.
@Suite(.longRunning) struct PlanRestorePropertyTests {
    /// A random nested document of `length` valid random edits.
    static func randomDocument(_ rng: inout SplitMix64, length: Int) throws -> Document {
        var document = Document(name: "restore")
        for _ in 0..<length {
            let (_, changes) = RandomOps.edit(for: document, rng: &rng)
            try document.apply(changes)
        }
        return document
    }

    /// `plan` applied to `current` gives `target` with `current`'s view.
    static func expectRestores(_ current: Document, to target: Document, _ plan: [Change], _ context: String) throws {
        var restored = current
        try restored.apply(plan)
        var expected = target
        expected.settings = target.settings.withView(of: current.settings)
        #expect(restored == expected, "\(context): the restored document is the target")
        #expect(try restored.planRestore(to: target).isEmpty, "\(context): nothing left to restore")
    }

    @Test func oneMoveIsRestoredByOneMove() throws {
        var document = Document(name: "d")
        for i in 0..<2000 { try document.appendRow("x\(i)", config: RowConfig(size: .fixed(20)), parent: nil) }
        let original = document
        try document.apply([.moveRow(id: "x1999", fromParent: nil, fromIndex: 1999, toParent: nil, toIndex: 0)])
        let plan = try document.planRestore(to: original)
        #expect(plan == [.moveRow(id: "x1999", fromParent: nil, fromIndex: 0, toParent: nil, toIndex: 1999)])
        try Self.expectRestores(document, to: original, plan, "one move")
        // And the other way: the first row moved to the end.
        var other = original
        try other.apply([.moveRow(id: "x0", fromParent: nil, fromIndex: 0, toParent: nil, toIndex: 1999)])
        #expect(try other.planRestore(to: original).count == 1)
    }

    @Test(arguments: [7, 99, 2026] as [UInt64])
    func movesWithinStacksAreRestoredByAtMostAsManyMoves(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for round in 0..<40 {
            let target = try Self.randomDocument(&rng, length: 30 + round * 3)
            var stacks: [RowID?] = [nil]
            target.forEachRow { id, _, _, config in if config.stack != nil { stacks.append(id) } }
            stacks = stacks.filter { target.childCount(of: $0) >= 2 }
            guard !stacks.isEmpty else { continue }
            var current = target
            let k = rng.int(1..<6)
            for _ in 0..<k {
                let stack = rng.pick(stacks), count = current.childCount(of: stack)
                let from = rng.int(0..<count), to = rng.int(0..<count)
                try current.apply([.moveRow(id: current.child(at: from, of: stack)!, fromParent: stack, fromIndex: from, toParent: stack, toIndex: to)])
            }
            let plan = try current.planRestore(to: target)
            let context = "seed \(seed) round \(round)"
            #expect(plan.count <= k, "\(context): \(k) moves restored by \(plan.count) changes")
            #expect(plan.allSatisfy { if case .moveRow = $0 { return true } else { return false } }, "\(context)")
            try Self.expectRestores(current, to: target, plan, context)
        }
    }

    @Test(arguments: [3, 41, 500] as [UInt64])
    func randomEditsAreRestoredByAtMostTwiceTheirChanges(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for round in 0..<40 {
            let target = try Self.randomDocument(&rng, length: 20 + round * 3)
            var current = target
            var undone = 0
            for _ in 0..<rng.int(1..<6) {
                let (_, changes) = RandomOps.edit(for: current, rng: &rng)
                try current.apply(changes)
                undone += changes.count
            }
            let plan = try current.planRestore(to: target)
            let context = "seed \(seed) round \(round)"
            #expect(plan.count <= 2 * undone, "\(context): \(undone) changes restored by \(plan.count)")
            try Self.expectRestores(current, to: target, plan, context)
        }
    }
}
