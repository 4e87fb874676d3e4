import Foundation
import OrderStatistics
import Testing
@testable import Layout
import StackDocTestSupport

/// Issue 15 item 8: a long run of removals (`clear`, `remove` of many rows, the undo of an
/// `add`) is planned by walking slots (`removalChanges`) and applied with one compaction at its
/// end (`Document.apply(run:applied:)`) instead of one at each halving. Both must give exactly
/// what the one-by-one path gives: the planner against the walk over `children(of:)` and
/// `config(of:)` it replaced, the run against `apply(_:)` of each change.
@Suite(.longRunning) struct RemovalRunTests {
    /// A random document of `leaves` leaf rows under the root and `stacks` stacks nested up to
    /// three deep (some empty), with random configs.
    static func sample(seed: UInt64, leaves: Int, stacks: Int) throws -> Document {
        var rng = SplitMix64(seed: seed)
        var doc = Document(name: "d")
        var stackIDs: [RowID?] = [nil]
        var depth: [RowID: Int] = [:]
        for s in 0..<stacks {
            let parent = stackIDs.randomElement(using: &rng)!
            let d = parent.map { depth[$0]! + 1 } ?? 1
            guard d <= 3 else { continue }
            let id = "s\(s)"
            let count = doc.childCount(of: parent)
            try doc.insertRow(id, config: DocumentStoragePropertyTests.randomConfig(&rng, stack: true), parent: parent,
                              at: Int.random(in: 0...count, using: &rng))
            stackIDs.append(id)
            depth[id] = d
        }
        for i in 0..<leaves {
            let parent = stackIDs.randomElement(using: &rng)!
            let count = doc.childCount(of: parent)
            try doc.insertRow("r\(i)", config: DocumentStoragePropertyTests.randomConfig(&rng, stack: false), parent: parent,
                              at: Int.random(in: 0...count, using: &rng))
        }
        return doc
    }

    /// The planner before it walked slots: `children(of:)` and `config(of:)` per row.
    static func referenceRemovalChanges(_ doc: Document, of id: RowID, parent: RowID?, index: Int, into changes: inout [Change]) {
        struct Item { var id: RowID; var parent: RowID?; var index: Int; var expanded: Bool }
        var pending = [Item(id: id, parent: parent, index: index, expanded: false)]
        while var item = pending.popLast() {
            let kids = doc.children(of: item.id)
            if !item.expanded, !kids.isEmpty {
                item.expanded = true
                pending.append(item)
                for (i, kid) in kids.enumerated() {
                    pending.append(Item(id: kid, parent: item.id, index: i, expanded: false))
                }
            } else if let config = doc.config(of: item.id) {
                changes.append(.removeRow(id: item.id, config: config, parent: item.parent, index: item.index))
            }
        }
    }

    static func referenceClear(_ doc: Document, parent: RowID?) -> [Change] {
        var changes: [Change] = []
        for (index, id) in doc.children(of: parent).enumerated().reversed() {
            referenceRemovalChanges(doc, of: id, parent: parent, index: index, into: &changes)
        }
        return changes
    }

    /// `clear` of the root and of every stack, `remove` and `replace` of stacks: the same
    /// changes, in the same order, as the walk over ids.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func planningWalksSlotsAsTheIDWalkDid(seed: UInt64) throws {
        let doc = try Self.sample(seed: seed, leaves: 3_000, stacks: 40)
        var planned = 0
        for parent in [nil] + doc.children(of: nil).filter({ doc.config(of: $0)?.stack != nil }).map(Optional.some) {
            let changes = try doc.plan(.clear(parent: parent))
            #expect(changes == Self.referenceClear(doc, parent: parent), "clear of \(parent ?? "the root")")
            planned += changes.count
        }
        #expect(planned > 3_000)
        var rng = SplitMix64(seed: seed)
        var stacks: [RowID] = []
        doc.forEachRow { id, _, _, config in if config.stack != nil { stacks.append(id) } }
        for stack in stacks.shuffled(using: &rng).prefix(10) {
            let parent = doc.parent(of: stack) ?? nil
            var expected: [Change] = []
            Self.referenceRemovalChanges(doc, of: stack, parent: parent, index: doc.index(of: stack)!, into: &expected)
            #expect(try doc.plan(.remove(ids: [stack])) == expected, "remove \(stack)")
            expected.append(.insertRow(id: "new", config: RowConfig(), parent: parent, index: doc.index(of: stack)!))
            #expect(try doc.plan(.replace(id: stack, newID: "new", spec: [])) == expected, "replace \(stack)")
        }
    }

    /// A run of removals (every shape the planner makes) ends exactly as the changes applied
    /// one by one — and, after a `clear` of everything, holds no slot.
    @Test(arguments: [4, 5, 6] as [UInt64])
    func aRunEndsAsOneByOne(seed: UInt64) throws {
        let doc = try Self.sample(seed: seed, leaves: 12_000, stacks: 30)
        var rng = SplitMix64(seed: seed)
        var leaves: [RowID] = []
        doc.forEachRow { id, _, _, config in if config.stack == nil { leaves.append(id) } }
        let runs: [(String, [Change])] = [
            ("clear of the root", try doc.plan(.clear(parent: nil))),
            ("clear of a stack", try doc.plan(.clear(parent: doc.children(of: nil).first { doc.config(of: $0)?.stack != nil }))),
            ("remove of 9,000 leaves", try doc.plan(.remove(ids: Array(leaves.shuffled(using: &rng).prefix(9_000))))),
        ]
        for (name, changes) in runs {
            var one = doc
            for change in changes { try one.apply(change) }
            var run = doc
            var applied = 0
            try run.apply(run: changes[...], applied: &applied)
            #expect(applied == changes.count, "\(name): applied")
            #expect(run == one, "\(name): the document")
            #expect(run.exportJSON() == one.exportJSON(), "\(name): its export")
            #expect(run.rows.orderInvariantViolation() == nil, "\(name): order trees")
            #expect(!run.rows.wantsCompaction, "\(name): memory given back")
            // And the inverse run puts back the document.
            var back = run
            applied = 0
            try back.apply(run: changes.inverse[...], applied: &applied)
            #expect(back == doc, "\(name): the inverse run")
        }
        var cleared = doc
        var applied = 0
        try cleared.apply(run: try doc.plan(.clear(parent: nil))[...], applied: &applied)
        #expect(cleared.rowCount == 0 && cleared.rows.ids.isEmpty, "a clear of everything keeps no slot")
    }

    /// A change that does not fit in the middle of a run (a row gone, a stack that still has
    /// rows): the run stops where `apply(_:)` one by one stops, with the changes before it
    /// applied and counted.
    @Test func aRunStopsWhereOneByOneStops() throws {
        let doc = try Self.sample(seed: 7, leaves: 10_000, stacks: 20)
        let clear = try doc.plan(.clear(parent: nil))
        // A stack with rows, removed before them (where its first row's removal was).
        let stack = clear.lastIndex { if case let .removeRow(id, _, _, _) = $0 { doc.childCount(of: id) > 0 } else { false } }!
        guard case let .removeRow(stackID, _, _, _) = clear[stack] else { return }
        let firstRow = clear.firstIndex { if case let .removeRow(_, _, parent, _) = $0 { parent == stackID } else { false } }!
        var stackFirst = clear
        stackFirst.insert(clear[stack], at: firstRow)
        var gone = clear
        gone[7_000] = .removeRow(id: "nowhere", config: RowConfig(), parent: nil, index: 0)
        for (name, changes, failing) in [("a stack with rows", stackFirst, firstRow), ("a missing row", gone, 7_000)] {
            var one = doc
            for change in changes.prefix(failing) { try one.apply(change) }
            #expect(throws: StackDocError.self) { var copy = one; try copy.apply(changes[failing]) }
            var run = doc
            var applied = 0
            #expect(throws: StackDocError.self, "\(name)") { try run.apply(run: changes[...], applied: &applied) }
            #expect(applied == failing, "\(name): applied")
            #expect(run == one, "\(name): the document")
            #expect(run.rows.orderInvariantViolation() == nil, "\(name): order trees")
        }
    }
}
