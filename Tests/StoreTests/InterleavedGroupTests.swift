import Foundation
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// SPEC §3 "Cursor walks across interleaved steps": a group's step is made at its commit, so a
/// step another origin made while it was open comes before it on the cursor; walks apply the
/// moved operations in log order and refuse to leave an interleaved step behind. On each backend
/// of the run (PostgreSQL only with STACKDOC_TEST_POSTGRES set; `TestStores.skipNote` says why
/// not), and an upgrade from a file of schema 20 that holds an open group.
@Suite(.offThePool) struct InterleavedGroupTests {
    /// alice's group adds x, bob sets x inside it (his step 2), alice commits (step 3): the shape
    /// the fresh-clone CI found.
    static func interleaved(_ backend: TestStores.Backend) throws -> (alice: StoredDocument, bob: StoredDocument, url: String) {
        let (alice, bob, url) = try SessionGroupTests.twoSessions(backend)
        try alice.begin("g")
        try alice.perform(.add(ids: ["x"], spec: [.fixed(100)], position: nil, parent: nil))
        _ = try bob.refreshIfStale()
        try bob.perform(.set(id: "x", spec: [.fixed(200)]))
        _ = try alice.refreshIfStale()
        try alice.commit()
        #expect(try alice.history().map(\.origin) == ["alice", "bob", "alice"])
        return (alice, bob, url)
    }

    static func expectUnchanged(_ doc: StoredDocument, _ body: () throws -> Void, message: String) throws {
        let (document, cursor, entries) = (doc.document, doc.cursor, try doc.status().logEntries)
        do {
            try body()
            Issue.record("not refused: \(message)")
        } catch let error as StackDocError {
            #expect("\(error)" == message)
        }
        let entriesAfter = try doc.status().logEntries
        #expect(doc.document == document && doc.cursor == cursor && entriesAfter == entries, "a refused walk changes nothing")
    }

    @Test(arguments: TestStores.backends)
    func aWalkAcrossAnInterleavedGroupIsExactOrRefused(_ backend: TestStores.Backend) throws {
        let (alice, bob, _) = try Self.interleaved(backend)
        let exports = [try alice.status().logEntries: alice.document.exportJSON()]
        // undo 1 would take the group's x away from under bob's step 2, still applied.
        try Self.expectUnchanged(alice, { try alice.undo(1) }, message: "cannot undo 1 step: step 2 by 'bob' has an operation logged after one of theirs and would stay applied (it was made while a group was open); 'undo 2' moves them together")
        // undo 2 takes bob's set back first (newest log entry first), then the group's add.
        try alice.undo(2)
        #expect(alice.document.config(of: "x") == nil && alice.cursor == 1)
        // redo 1 would re-apply bob's set on a row the group has not added back.
        try Self.expectUnchanged(alice, { try alice.redo(1) }, message: "cannot redo 1 step: step 3 by 'alice' has an operation logged before one of theirs and would stay undone (it was made while a group was open); 'redo 2' moves them together")
        try alice.redo(2)
        #expect(alice.document.config(of: "x")?.size == .fixed(200), "redo restores exactly")
        try alice.undo(3)
        try alice.redo(3)
        #expect(alice.document.config(of: "x")?.size == .fixed(200))
        for (seq, export) in exports { #expect(try alice.document(at: .entry(seq)).exportJSON() == export) }
        for seq in 1...(try alice.status().logEntries) {
            // Every past state is one the walks went through: the replay to it is time travel's.
            let replayed = try alice.reading { tx in try alice.replay(tx, through: seq).document }
            #expect(try alice.document(at: .entry(seq)).exportJSON() == replayed.exportJSON(), "entry \(seq)")
        }
        try SessionGroupTests.expectReplays(alice, bob)
    }

    @Test(arguments: TestStores.backends)
    func ownUndoAroundAnInterleavedGroupCompensates(_ backend: TestStores.Backend) throws {
        let (alice, bob, _) = try Self.interleaved(backend)
        // bob's step 2 changed the row alice's group added: her undo is a conflict.
        #expect(throws: StackDocError.self) { try alice.undoOwn() }
        // bob's own undo is not the last step: a compensating step sets x back to 100.
        _ = try bob.refreshIfStale()
        let move = try bob.undoOwn()
        #expect(move.compensatingStep != nil && bob.document.config(of: "x")?.size == .fixed(100))
        try SessionGroupTests.expectReplays(alice, bob)
    }

    /// Groups open across each other (alice's begins first, bob's commits last): bob's group is
    /// the last step, but alice's group has an operation after bob's first one.
    @Test(arguments: TestStores.backends)
    func groupsOpenAcrossEachOther(_ backend: TestStores.Backend) throws {
        let (alice, bob, _) = try SessionGroupTests.twoSessions(backend)
        try alice.begin("outer")
        try alice.perform(.set(id: "a", spec: [.fixed(1)]))
        _ = try bob.refreshIfStale()
        try bob.begin("inner")
        try bob.perform(.add(ids: ["y"], spec: [], position: nil, parent: nil))
        _ = try alice.refreshIfStale()
        try alice.perform(.set(id: "y", spec: [.fixed(5)]))
        try alice.commit()
        _ = try bob.refreshIfStale()
        try bob.perform(.set(id: "b", spec: [.fixed(2)]))
        try bob.commit()
        // bob's cursor undo of his group would take y away from under alice's set.
        try Self.expectUnchanged(bob, { try bob.undo(1) }, message: "cannot undo 1 step: step 2 by 'alice' has an operation logged after one of theirs and would stay applied (it was made while a group was open); 'undo 2' moves them together")
        // His own undo compensates — and alice's set of y is a conflict for removing y.
        do {
            try bob.undoOwn()
            Issue.record("bob's undo took alice's set of y back")
        } catch {
            #expect("\(error)".contains("'alice'") && "\(error)".contains("row 'y'"), "\(error)")
        }
        try bob.undo(2)
        #expect(bob.document.config(of: "y") == nil && bob.document.config(of: "a")?.size == .fit)
        try bob.redo(2)
        #expect(bob.document.config(of: "y")?.size == .fixed(5) && bob.document.config(of: "b")?.size == .fixed(2))
        try SessionGroupTests.expectReplays(alice, bob)
    }

    /// A file of schema 20 (before 0021) with a document-wide open group opens with the group
    /// kept, as the origin of its `begin` entry's: alice finds it open, bob does not.
    @Test func anOldFilesOpenGroupIsItsBeginsOrigins() throws {
        let dir = try Scratch.directory("upgrade-group")
        defer { Scratch.remove(dir) }
        let path = dir + "/old.sqlite"
        do {
            let doc = try DocumentStore(path: path).create("p")
            doc.origin = "alice"
            try doc.perform(.add(ids: ["a"], spec: [], position: nil, parent: nil))
            try doc.begin("kept")
            try doc.perform(.set(id: "a", spec: [.fixed(10)]))
        }
        // Schema 20 kept the open group in document.open_group and had no open_group table.
        let migration = try #require(Schema.migrations.first { $0.version == 21 }).name
        try Tamper.sql(path, """
            UPDATE document SET open_group = (SELECT seq FROM open_group WHERE open_group.document = document.id);
            DROP TABLE open_group;
            DELETE FROM grdb_migrations WHERE identifier = '\(migration)';
            PRAGMA wal_checkpoint(TRUNCATE)
            """)
        let bob = try DocumentStore(path: path).open("p")
        bob.origin = "bob"
        #expect(bob.openGroup == nil && bob.othersOpenGroups == ["alice"])
        let alice = try DocumentStore(path: path).open("p")
        alice.origin = "alice"
        #expect(alice.openGroup?.label == "kept" && alice.openGroup?.seq == 3)
        try alice.perform(.set(id: "a", spec: [.fixed(11)]))
        let step = try #require(try alice.commit())
        #expect(step.edits.count == 2 && step.label == "kept")
        #expect(try alice.verify(replan: true) == [])
    }
}
