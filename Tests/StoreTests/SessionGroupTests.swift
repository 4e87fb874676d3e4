import Foundation
import Layout
import Store
import StackDocTestSupport
import Testing

/// Groups belong to the session (SPEC §3 "Groups belong to the session", issue 34 item 3): two
/// connections — as two processes have — edit one document as `alice` and `bob`, on each
/// backend of the run (PostgreSQL only with STACKDOC_TEST_POSTGRES set; otherwise the
/// PostgreSQL cases are not run, and `TestStores.skipNote` says why). Every case checks the
/// stored state against a replay of the acknowledged log (`verify(replan:)`) on both handles.
@Suite(.offThePool) struct SessionGroupTests {
    /// Two stores on one new database of `backend` (two connections), with document `p` holding
    /// rows a, b, c made by alice; alice's and bob's handles.
    static func twoSessions(_ backend: TestStores.Backend) throws -> (alice: StoredDocument, bob: StoredDocument, url: String) {
        let url: String
        switch backend {
        case .sqlite: url = temporaryDirectory().appendingPathComponent("g.sqlite").path
        case .postgresql: url = try TestStores.url(.postgresql)
        }
        let alice = try DocumentStore(url: url).create("p")
        alice.origin = "alice"
        try alice.perform(.add(ids: ["a", "b", "c"], spec: [], position: nil, parent: nil))
        let bob = try DocumentStore(url: url).open("p")
        bob.origin = "bob"
        return (alice, bob, url)
    }

    static func size(_ doc: StoredDocument, _ id: RowID) -> RowSize? { doc.document.config(of: id)?.size }

    /// The stored state equals a replay of the log, for every handle (each catches up first).
    static func expectReplays(_ docs: StoredDocument...) throws {
        for doc in docs {
            _ = try doc.refreshIfStale()
            let problems = try doc.verify(replan: true)
            #expect(problems.isEmpty, "\(doc.origin ?? "-"): \(problems)")
        }
    }

    @Test(arguments: TestStores.backends)
    func anotherSessionsEditsNeverJoinYourGroup(_ backend: TestStores.Backend) throws {
        let (alice, bob, _) = try Self.twoSessions(backend)
        try alice.begin("g")
        try alice.perform(.set(id: "a", spec: [.fixed(10)]))
        _ = try bob.refreshIfStale()
        #expect(bob.openGroup == nil, "alice's group is not bob's")
        #expect(bob.othersOpenGroups == ["alice"])
        let before = bob.cursor
        try bob.perform(.set(id: "b", spec: [.fixed(20)]))
        #expect(bob.cursor == before + 1, "bob's edit is a step of its own")
        _ = try alice.refreshIfStale()
        #expect(alice.openGroup?.label == "g", "alice's group is still open after bob's edit")
        try alice.perform(.set(id: "c", spec: [.fixed(30)]))
        let step = try #require(try alice.commit())
        #expect(step.edits == [.set(id: "a", spec: [.fixed(10)]), .set(id: "c", spec: [.fixed(30)])], "the group holds only alice's operations")
        #expect(step.origin == "alice" && step.label == "g")
        let steps = try alice.history()
        #expect(steps.map(\.origin) == ["alice", "bob", "alice"])
        #expect(steps[1].edits == [.set(id: "b", spec: [.fixed(20)])])
        try Self.expectReplays(alice, bob)

        // Undo of the group bob wrote during: one compensating step for the whole group, bob's row kept.
        let move = try alice.undoOwn()
        #expect(move.compensatingStep != nil, "bob wrote while the group was open: a compensating step")
        #expect(Self.size(alice, "a") == .fit && Self.size(alice, "c") == .fit)
        #expect(Self.size(alice, "b") == .fixed(20), "bob's edit stays")
        try Self.expectReplays(alice, bob)
        // Bob's own undo reverts only his row.
        _ = try bob.refreshIfStale()
        try bob.undoOwn()
        #expect(Self.size(bob, "b") == .fit)
        try Self.expectReplays(alice, bob)
    }

    @Test(arguments: TestStores.backends)
    func undoOfYourGroupConflictsWithTheirEditDuringIt(_ backend: TestStores.Backend) throws {
        let (alice, bob, _) = try Self.twoSessions(backend)
        try alice.begin()
        try alice.perform(.set(id: "a", spec: [.fixed(10)]))
        _ = try bob.refreshIfStale()
        try bob.perform(.set(id: "a", spec: [.fixed(20)]))
        _ = try alice.refreshIfStale()
        try alice.commit()
        let (document, cursor, steps) = (alice.document, alice.cursor, alice.stepCount)
        #expect(throws: StackDocError.self) { try alice.undoOwn() }
        do { try alice.undoOwn() } catch {
            #expect("\(error)".contains("step 2 by 'bob' changed row 'a' field size"), "\(error)")
        }
        #expect(alice.document == document && alice.cursor == cursor && alice.stepCount == steps, "a refused undo changes nothing")
        #expect(Self.size(alice, "a") == .fixed(20))
        try Self.expectReplays(alice, bob)
    }

    @Test(arguments: TestStores.backends)
    func rollbackRevertsOnlyYourGroup(_ backend: TestStores.Backend) throws {
        let (alice, bob, _) = try Self.twoSessions(backend)
        // Bob's group, open while alice edits and rolls back hers.
        _ = try bob.refreshIfStale()
        try alice.begin("mine")
        try alice.perform(.set(id: "a", spec: [.fixed(10)]))
        try alice.perform(.hide(ids: ["c"]))
        let reverted = try alice.rollback()
        #expect(reverted.count == 2)
        #expect(Self.size(alice, "a") == .fit && alice.document.config(of: "c")?.hidden == false)
        #expect(alice.openGroup == nil)
        try Self.expectReplays(alice, bob)

        // Bob wrote after alice's begin: her entries stay in the log under his, and her rollback
        // reverts only her operations as compensation (no step), his edit kept.
        try alice.begin("again")
        try alice.perform(.set(id: "a", spec: [.fixed(11)]))
        _ = try bob.refreshIfStale()
        try bob.perform(.set(id: "b", spec: [.fixed(21)]))
        _ = try alice.refreshIfStale()
        let (entries, steps) = (try alice.status().logEntries, alice.stepCount)
        let applied = try alice.rollback()
        #expect(applied.count == 1 && Self.size(alice, "a") == .fit && Self.size(alice, "b") == .fixed(21))
        #expect(alice.openGroup == nil && alice.stepCount == steps, "a rollback makes no step")
        let last = try #require(try alice.log().last)
        #expect(last.seq == entries + 1 && last.kind == .commit && last.rollsBack && last.origin == "alice")
        try Self.expectReplays(alice, bob)
        #expect(bob.othersOpenGroups.isEmpty)

        // When bob changed what her rollback would set back, it is refused, changing nothing.
        try alice.begin("third")
        try alice.perform(.set(id: "a", spec: [.fixed(12)]))
        _ = try bob.refreshIfStale()
        try bob.perform(.set(id: "a", spec: [.fixed(22)]))
        _ = try alice.refreshIfStale()
        let (document, before) = (alice.document, try alice.status().logEntries)
        do {
            try alice.rollback()
            Issue.record("a rollback under another session's change of the same field was not refused")
        } catch {
            #expect("\(error)" == "cannot roll back the group 'third' of 'alice': log entry \(before) by 'bob' changed row 'a' field size after its begin; 'commit' keeps your operations as one step", "\(error)")
        }
        let entriesAfter = try alice.status().logEntries
        #expect(alice.document == document && entriesAfter == before && alice.openGroup != nil)
        try Self.expectReplays(alice, bob)
    }

    @Test(arguments: TestStores.backends)
    func reopeningFindsYourOpenGroupOnly(_ backend: TestStores.Backend) throws {
        let (alice, bob, url) = try Self.twoSessions(backend)
        try alice.begin("kept")
        try alice.perform(.set(id: "a", spec: [.fixed(10)]))
        // A REPL restarted mid-group: a new connection, as alice and as bob.
        let again = try DocumentStore(url: url).open("p")
        again.origin = "alice"
        #expect(again.openGroup?.label == "kept" && again.openGroup?.seq == alice.openGroup?.seq)
        let other = try DocumentStore(url: url).open("p")
        other.origin = "bob"
        #expect(other.openGroup == nil && other.othersOpenGroups == ["alice"])
        // Undo moves steps under alice's open group: refused for bob until she commits.
        do {
            try other.undoOwn()
            Issue.record("bob's undo under alice's open group was not refused")
        } catch {
            #expect("\(error)".contains("'alice''s group is open") || "\(error)".contains("alice"), "\(error)")
        }
        try again.perform(.set(id: "b", spec: [.fixed(20)]))
        let step = try #require(try again.commit())
        #expect(step.edits.count == 2 && step.label == "kept")
        #expect(again.othersOpenGroups.isEmpty)
        try Self.expectReplays(again, other, alice, bob)
        _ = try bob.refreshIfStale()
        #expect(bob.othersOpenGroups.isEmpty)
    }

    /// A document one origin edits keeps today's log: a group's entries in one run, the commit's
    /// step its whole range, the rollback deleting its entries.
    @Test func oneOriginKeepsTodaysLog() throws {
        let doc = try TestStores.store(.sqlite).create("p")
        doc.origin = "alice"
        try doc.begin("g")
        try doc.perform(.add(ids: ["a"], spec: [], position: nil, parent: nil))
        try doc.perform(.set(id: "a", spec: [.fixed(5)]))
        let step = try #require(try doc.commit())
        #expect(step.firstSeq == 2 && step.lastSeq == 5)
        let log = try doc.log()
        #expect(log.map(\.kind) == [.newDocument, .begin, .op, .op, .commit])
        #expect(log.dropFirst(2).allSatisfy { $0.group == 2 })
        try doc.begin()
        try doc.perform(.set(id: "a", spec: [.fixed(6)]))
        try doc.rollback()
        let kept = try doc.log().count
        #expect(kept == 5)
        let problems = try doc.verify(replan: true)
        #expect(problems.isEmpty)
    }
}
