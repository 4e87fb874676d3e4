import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// `verify`'s replay (with `replan`) keeps a live layout of the replayed document up to date.
/// It must cost what the store's own updates cost: one update per log entry, O(changes · log n)
/// plus the subtrees the changes touch. Replaying an undo or redo change by change made that
/// quadratic for sticky rows (each insert a full relayout) and for rows re-inserted into a
/// stack nested in a root row (each insert that root row's subtree laid out again). The work
/// is counted (`LiveLayout.rowsLaidOut`: rows the engine laid out), not timed.
@Suite(.offThePool) struct VerifyReplayWorkTests {
    /// Rows added by one `add`, then undone and redone (a few hundred: the quadratic replay
    /// laid out ≈ n²/2 rows per move, the linear one ≈ n).
    static let rows = 600

    /// The replay of `doc`'s whole log with `replan`, as `verify` runs it.
    static func replayed(_ doc: StoredDocument) throws -> Replayer {
        try doc.reading { tx in try doc.replay(tx, replan: true) }
    }

    /// Adds `rows` rows of `spec` into `parent` (nil: the root) as one step, undoes and redoes
    /// it, and checks that verify's replay lays out a bounded multiple of the rows, and that
    /// the document verifies.
    static func expectLinearReplay(_ name: String, spec: [RowSpecItem], stacks: [Axis] = []) throws {
        let store = try DocumentStore(path: ":memory:", options: StoreOptions(snapshots: .off))
        let doc = try store.create("d")
        var parent: RowID?
        for (depth, axis) in stacks.enumerated() {
            try doc.perform(.add(ids: ["s\(depth)"], spec: [.stack(axis)], position: nil, parent: parent))
            parent = "s\(depth)"
        }
        try doc.perform(.add(ids: (0..<rows).map { "x\($0)" }, spec: spec, position: nil, parent: parent))
        try doc.undo()
        try doc.redo()
        let replay = try replayed(doc)
        // One layout of the rows per entry that moves them (add, undo, redo) and the stacks:
        // ≈ 3n. The change-by-change replay: ≈ n².
        let bound = 4 * (rows + stacks.count)
        #expect(replay.rowsLaidOut <= bound, "\(name): the replay laid out \(replay.rowsLaidOut) rows for \(rows) rows (bound \(bound))")
        #expect(replay.rowsLaidOut >= rows, "\(name): the count counts (\(replay.rowsLaidOut))")
        #expect(try doc.verify(replan: true) == [], "\(name)")
    }

    @Test func plainRows() throws { try Self.expectLinearReplay("plain", spec: [.fixed(20)]) }

    @Test func stickyRows() throws { try Self.expectLinearReplay("sticky", spec: [.fixed(20), .sticky(true)]) }

    @Test func textAndAspectRows() throws {
        try Self.expectLinearReplay("text", spec: [.text(TextRun(count: 40))])
        try Self.expectLinearReplay("aspect", spec: [.aspect(Size(width: 4, height: 1))])
    }

    /// At any depth: the rows inside one, two and three nested stacks.
    @Test func rowsInNestedStacks() throws {
        try Self.expectLinearReplay("depth 1", spec: [.fixed(20)], stacks: [.vertical])
        try Self.expectLinearReplay("depth 2", spec: [.fixed(20)], stacks: [.vertical, .horizontal])
        try Self.expectLinearReplay("depth 3", spec: [.fixed(20)], stacks: [.vertical, .horizontal, .vertical])
        try Self.expectLinearReplay("depth 2, sticky", spec: [.fixed(20), .sticky(true)], stacks: [.vertical, .horizontal])
    }
}
