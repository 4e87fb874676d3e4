import Foundation
import Layout
import Store
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 15 item 5 and the `log export` format: every entry's origin survives a rebuild from the
/// script (`as NAME` / `as none` lines), so `history` (origins included) and `undo --mine` answer
/// alike; scripts without `as` lines still run, recording the running session's origin.
@Suite(.offThePool) struct OriginReplayTests {
    /// Random histories written under several origins (named ones, `as none`, one named "none",
    /// the session's own), with groups, marks, undo/redo to marks, `undo --mine`, restores and
    /// now and then a compaction: the rebuilt document, rebuilt by a session of yet another
    /// origin, has the same export, history with origins, log origins and `undo --mine` answers
    /// (`StaleChecks.replaysByteForByte`).
    @Test(arguments: [UInt64(31), 32, 33, 34, 35, 36, 37, 38])
    func randomHistoriesWithSeveralOriginsReplay(seed: UInt64) throws {
        let session = Session(store: try DocumentStore(path: ":memory:"), origin: "first")
        try session.line("new d viewport 320 300")
        var random = RandomLines(seed: seed)
        var marks = 0
        for _ in 0..<120 {
            let line: String
            switch random.int(18) {
            case 0, 1: line = "as " + ["ann", "bob", "none", "\"none\"", "cy:7@host"][random.int(5)]
            case 2: marks += 1; line = "mark m\(marks)"
            case 3: line = marks > 0 ? "undo to m\(1 + random.int(marks))" : "undo"
            case 4: line = "undo --mine \(1 + random.int(2))"
            case 5: line = "restore \(1 + random.int(max(1, (try? session.current?.status().logEntries) ?? 1)))"
            case 6: line = random.int(6) == 0 ? "history compact before now~\(random.int(6))" : "redo"
            default: line = random.next()
            }
            _ = try? session.line(line)
        }
        if session.current?.openGroup != nil { try session.line("commit") }
        // Three more steps of three origins (a compaction may have dropped the earlier ones).
        for (i, origin) in ["ann", "none", "bob"].enumerated() {
            try session.line("as \(origin)")
            try session.line("add zz\(i) fixed 5")
        }
        let doc = try #require(session.current)
        let origins = Set(try doc.history().map(\.origin))
        #expect(origins.count >= 3, "seed \(seed): the history has several origins: \(origins)")
        try StaleChecks.replaysByteForByte(session.store, "d", "seed \(seed)")
    }

    /// A database written before origins were recorded (schema 2): its entries have none; a step
    /// made after the upgrade has one. The script says `as none` for the old entries, and the
    /// rebuilt history shows the old steps without an origin (`-`) and the new one with it.
    @Test func entriesFromBeforeOriginsStayWithout() throws {
        let scratch = try Scratch.directory("origins")
        defer { Scratch.remove(scratch) }
        let path = scratch + "/old.sqlite"
        try FileManager.default.copyItem(atPath: UpgradeTranscriptTests.fixtures + "/schema-0002.db", toPath: path)
        let store = try DocumentStore(path: path)
        let session = Session(store: store, origin: "ann")
        try session.line("open feed")
        try session.line("add after6 fixed 10")
        let doc = try #require(session.current)
        let history = try doc.history()
        #expect(history.count > 2 && history.dropLast().allSatisfy { $0.origin == nil } && history.last?.origin == "ann")
        let lines = try LogScript.lines(doc)
        #expect(lines.filter { $0.hasPrefix("as ") } == ["as none", "as ann"], "\(lines.joined(separator: "\n"))")
        try StaleChecks.replaysByteForByte(store, "feed", "schema 2")
    }

    /// A script written before `as` lines (a `log export` of then, or any hand-written one) runs
    /// as before: every entry records the running session's origin, which `--as` still sets.
    @Test func scriptsWithoutOriginsRecordTheRunningSessionsOrigin() throws {
        let old = """
            # stackdoc log of 'd': run with  stackdoc --db :memory: FILE
            new d vertical viewport 390 844
            add a fixed 10
            begin g
            add b fixed 20
            commit
            mark v1
            undo 1
            redo 1
            """
        for origin in ["zed", nil] {
            let store = try DocumentStore(path: ":memory:")
            var errors: [String] = []
            var runner = BatchRunner(session: Session(store: store, origin: origin), json: false, bail: true, showFile: false,
                                     sink: Sink(out: { _ in }, err: { errors.append($0) }))
            _ = runner.run(text: old, file: nil)
            #expect(errors.isEmpty, "\(errors)")
            let doc = try store.open("d")
            let expected = origin ?? StoredDocument.defaultOrigin
            #expect(try doc.history().map(\.origin) == [expected, expected])
            #expect(try doc.marks().map(\.origin) == [expected])
            #expect(try doc.log().dropFirst().allSatisfy { $0.origin == expected })
            // Its export now says who: one `as` line before the first entry after `new`.
            let lines = try LogScript.lines(doc)
            #expect(lines.filter { $0.hasPrefix("as ") } == ["as \(expected)"])
            #expect(lines.firstIndex(of: "as \(expected)") == 2)
        }
    }

    /// `as` is checked as `--as` is; a bad one changes nothing. `as none` makes `undo --mine`
    /// refuse (it needs an origin) and `as "none"` is an origin like any other.
    @Test func theAsCommand() throws {
        let session = Session(store: try DocumentStore(path: ":memory:"), origin: "ann")
        try session.line("new d")
        #expect(try session.text("as bob") == "origin: bob")
        try session.line("add a fixed 10")
        #expect(throws: CommandError.self) { try session.line("as a*b") }
        #expect(throws: CommandError.self) { try session.line("as") }
        #expect(throws: CommandError.self) { try session.line("as \(String(repeating: "x", count: 65))") }
        #expect(session.origin == "bob")
        #expect(try session.text("as none") == "origin: - (the later log entries record none)")
        try session.line("add b fixed 10")
        #expect(throws: StackDocError.self) { try session.line("undo --mine") }
        try session.line("as \"none\"")
        #expect(session.origin == "none")
        try session.line("add c fixed 10")
        let doc = try #require(session.current)
        #expect(try doc.history().map(\.origin) == ["bob", nil, "none"])
        #expect(try LogScript.lines(doc).filter { $0.hasPrefix("as ") } == ["as bob", "as none", "as \"none\""])
        // An origin set before `open` holds for the document opened after it.
        try session.line("as cy")
        try session.line("close")
        try session.line("open d")
        try session.line("add e fixed 1")
        #expect(try session.current?.history().last?.origin == "cy")
    }
}
