import Foundation
import Layout
import Store
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 9, item 1: a session whose document another process wrote rebuilds everything derived
/// from it before planning the next command, and its queries never mix old and new state.
@Suite(.longRunning) struct StaleSessionTests {
    /// The scenario: A opens d; B hides c and resizes a; A's next edit, touching none of
    /// those rows, is planned again on B's version and committed (issue 34.2; it used to fail as
    /// stale and reload); from then on A's layout, scroll planning and log are those of the stored
    /// document.
    @Test func reloadedSessionRebuildsItsLayout() throws {
        let db = SharedDatabase()
        defer { db.remove() }
        let a = try db.session()
        try a.line("new d viewport 320 300")
        try a.line("add a b c fixed 100")
        _ = try a.text("layout")  // A has its whole layout cached too
        let b = try db.session()
        try b.line("open d")
        try b.line("hide c")
        try b.line("set a fixed 500")
        try expectReplanned(a, "add x fixed 10")
        try expectLikeFreshSession(a, db)
    }

    /// The same with B a real `stackdoc` process.
    @Test func reloadedSessionRebuildsItsLayoutAcrossProcesses() async throws {
        let exe = try #require(Binary.stackdoc, "the stackdoc binary is built with the tests")
        let db = SharedDatabase()
        defer { db.remove() }
        let a = try db.session()
        try a.line("new d viewport 320 300")
        try a.line("add a b c fixed 100")
        _ = try a.text("layout")
        let b = try await Binary.run(exe, ["--db", db.path], stdin: "open d\nhide c\nset a fixed 500\n")
        #expect(b.status == 0, "\(b.stderr)")
        try expectReplanned(a, "add x fixed 10")
        try expectLikeFreshSession(a, db)
    }

    /// `status`, `history`, `layout` on a session that has not noticed another process's writes
    /// (including undo steps it never saw) answer from the stored state, as a fresh session does.
    @Test func queriesOnAStaleSessionReloadFirst() throws {
        let db = SharedDatabase()
        defer { db.remove() }
        let a = try db.session()
        try a.line("new d viewport 320 300")
        try a.line("add a fixed 100")
        let b = try db.session()
        try b.line("open d")
        try b.line("add b c fixed 100")
        try b.line("add e fixed 100")
        try b.line("undo")
        try b.line("hide b")
        for query in ["status", "history", "layout", "rows", "visible", "draw", "export"] {
            let fresh = try db.session()
            try fresh.line("open d")
            #expect(try a.text(query) == (try fresh.text(query)), "\(query)")
        }
        #expect(try a.text("status").contains("log       6 entries"))
        #expect(try a.text("history").contains("hide b"))
    }

    /// With three writers taking turns at random commands, every log replays to the stored
    /// document (the issue: 4 of 6 such runs produced unreplayable logs).
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func threeConcurrentWritersKeepReplayableLogs(seed: UInt64) throws {
        let db = SharedDatabase()
        defer { db.remove() }
        let first = try db.session()
        try first.line("new d viewport 320 400")
        try first.line("add r0 r1 r2 r3 fixed 100")
        var writers = [first, try db.session(), try db.session()]
        for w in writers.dropFirst() { try w.line("open d") }
        var random = RandomLines(seed: seed)
        for _ in 0..<120 {
            let w = random.int(3)
            let line = random.next()
            if let failure = writers[w].lineRetryingStale(line) {
                #expect(!failure.contains("internal"), "\(line): \(failure)")
            }
            if random.int(10) == 0 { _ = try writers[random.int(3)].text("layout --visible") }
            if writers[w].current == nil { writers[w] = try db.session(); try writers[w].line("open d") }
        }
        _ = try? first.line("commit")  // a group may be open (none is fine)
        try StaleChecks.replaysByteForByte(first.store, "d", "seed \(seed)")
        let fresh = try db.session()
        try fresh.line("open d")
        for w in writers {
            #expect(try w.text("layout") == (try fresh.text("layout")), "seed \(seed)")
        }
    }

    // MARK: Helpers

    /// `line`, run on a stale session, commits at once (planned again on the newest version),
    /// after the other session's changes.
    private func expectReplanned(_ a: Session, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let doc = try #require(a.current, sourceLocation: sourceLocation)
        #expect(try doc.isStale(), "the session has not seen the other's writes yet", sourceLocation: sourceLocation)
        try a.line(line)
        #expect(try !doc.isStale(), sourceLocation: sourceLocation)
    }

    /// After the reload, A sees what a session opened now sees, cannot scroll to the hidden row,
    /// and its log replays.
    private func expectLikeFreshSession(_ a: Session, _ db: SharedDatabase, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fresh = try db.session()
        try fresh.line("open d")
        for query in ["layout", "layout --visible", "status", "draw", "row a", "row c"] {
            #expect(try a.text(query) == (try fresh.text(query)), "\(query)", sourceLocation: sourceLocation)
        }
        #expect(thrownMessage {
            try a.line("scroll to c")
        } == "cannot scroll to row 'c': it is hidden", sourceLocation: sourceLocation)
        try a.line("scroll to x bottom")
        try StaleChecks.replaysByteForByte(a.store, "d", "after the reload", sourceLocation: sourceLocation)
    }
}

/// Issue 9, item 2: a handle of a dropped document never writes again, even when a document of
/// the same name (and the same reused id and version) exists now.
@Suite(.longRunning) struct DroppedDocumentSessionTests {
    /// The scenario: A's stale `fixed 20` must not overwrite B's re-created document.
    @Test func droppedAndRecreatedDocumentIsNotOverwritten() throws {
        let db = SharedDatabase()
        defer { db.remove() }
        let a = try db.session(), b = try db.session()
        try a.line("new d")
        try a.line("add a1 a2 a3 fixed 10")
        try a.line("set a1 fixed 20")
        try b.line("drop d")
        try b.line("new d")
        try b.line("add a1 a2 a3 fixed 50")
        try b.line("set a2 fixed 60")
        let bExport = try b.text("export")
        #expect(thrownMessage {
            try a.line("set a1 grow 1")
        } == "document 'd' was dropped by another process; closed it (a new document 'd' exists: 'open d' to edit it)")
        #expect(a.current == nil)
        #expect(try a.text("status").contains("document   none open"))  // no document is open: status shows the database
        #expect(try b.text("export") == bExport)
        #expect(try b.text("verify").hasPrefix("ok"))
        // A reopens the new document explicitly and works on it.
        try a.line("open d")
        try a.line("set a1 grow 1")
        #expect(try b.text("rows").contains("a1"))
        try StaleChecks.replaysByteForByte(a.store, "d", "after reopening")
    }

    /// The same with B a real `stackdoc` process.
    @Test func droppedAndRecreatedByAnotherProcess() async throws {
        let exe = try #require(Binary.stackdoc, "the stackdoc binary is built with the tests")
        let db = SharedDatabase()
        defer { db.remove() }
        let a = try db.session()
        try a.line("new d")
        try a.line("add a1 a2 a3 fixed 10")
        try a.line("set a1 fixed 20")
        let b = try await Binary.run(exe, ["--db", db.path], stdin: "drop d\nnew d\nadd a1 a2 a3 fixed 50\nset a2 fixed 60\nexport\n")
        #expect(b.status == 0, "\(b.stderr)")
        #expect(thrownMessage {
            try a.line("set a1 grow 1")
        } == "document 'd' was dropped by another process; closed it (a new document 'd' exists: 'open d' to edit it)")
        let after = try await Binary.run(exe, ["--db", db.path], stdin: "open d\nexport\nverify\n")
        #expect(after.stdout.hasSuffix("ok: the log replays to the stored document\n"), "\(after.stdout)")
        let exportedByB = b.stdout.components(separatedBy: "\n").drop { !$0.hasPrefix("{") }.joined(separator: "\n")
        #expect(exportedByB.contains("\"a2\"") && after.stdout.contains(exportedByB), "B's document is as B left it")
    }

    /// The variant that corrupted history: A at cursor 4 writes after B re-created the document
    /// with 2 steps and the same version; and a query on a dropped document closes it.
    @Test func droppedDocumentKeepsTheNewHistoryIntact() throws {
        let db = SharedDatabase()
        defer { db.remove() }
        let a = try db.session(), b = try db.session()
        try a.line("new d")
        for row in ["a", "b", "c", "e"] { try a.line("add \(row) fixed 10") }  // version 5, cursor 4
        try b.line("drop d")
        try b.line("new d")
        try b.line("add x fixed 10")
        try b.line("add y fixed 10")
        try b.line("scroll 0")  // view operations: logged, no step, so B's version is A's (5)
        try b.line("scroll 0")
        let history = try b.text("history")
        #expect(throws: CommandError.self) { try a.line("add z fixed 10") }
        #expect(a.current == nil)
        #expect(try b.text("history") == history)
        #expect(try b.text("status").contains("cursor    2"))
        #expect(try b.text("verify").hasPrefix("ok"))
        // A query on a dropped document closes it too, saying why.
        try a.line("open d")
        try b.line("drop d")
        #expect(thrownMessage { try a.line("history") } == "document 'd' was dropped by another process; closed it")
        #expect(a.current == nil)
    }
}
