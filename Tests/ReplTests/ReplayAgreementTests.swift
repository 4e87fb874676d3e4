import Foundation
import Layout
import Store
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 9, items 4 and 9: what `export`, `status`, the layout and a replay of `log export`
/// show agree byte for byte, whatever process, restart or clamp made the document.
@Suite struct ReplayAgreementTests {
    /// Item 4: `log export` of an imported document whose saved offset is past the end rebuilds
    /// the same `export` (the import stores the clamped offset).
    @Test func importedOffsetPastTheEndReplaysByteForByte() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var saved = Document(name: "d")
        saved.settings.viewport = Size(width: 320, height: 200)
        saved.settings.offset = 5000
        try saved.apply([.insertRow(id: "a", config: RowConfig(size: .fixed(150)), parent: nil, index: 0),
                         .insertRow(id: "b", config: RowConfig(size: .fixed(150)), parent: nil, index: 1)])
        try (DocumentFormat.encode(saved) + "\n").write(toFile: dir + "/d.json", atomically: true, encoding: .utf8)
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        try session.line("import d.json")
        let exported = try session.text("export")
        let offset = try #require(session.current?.document.settings.offset)
        #expect(offset > 0 && offset < 5000 && offset == session.current?.document.layout().maxOffset)
        #expect(exported.contains("\"offset\": \(Format.number(offset))"))
        #expect(try session.text("status").contains("offset    \(Format.number(offset))"))
        try StaleChecks.replaysByteForByte(session.store, "d", "import")
    }

    /// Item 9: after the content shrinks, `status`, `export` and the layout show one offset, and
    /// a later `add` at the bottom does not scroll back.
    @Test func clampedOffsetIsWhatEveryOutputShows() throws {
        let session = Session(store: try DocumentStore(path: ":memory:"))
        try session.line("new d viewport 320 100")
        try session.line("add r0 r1 r2 r3 r4 r5 r6 r7 r8 r9 fixed 50")
        try session.line("scroll 10000")
        let removed = try session.text("remove r5 r6 r7 r8 r9")
        let doc = try #require(session.current)
        let offset = doc.document.settings.offset
        #expect(offset == doc.document.layout().maxOffset)
        #expect(removed.contains("offset: ") && removed.contains(" -> \(Format.number(offset))"))
        #expect(try session.text("export").contains("\"offset\": \(Format.number(offset))"))
        #expect(try session.text("status").contains("offset    \(Format.number(offset))"))
        let added = try session.text("add z fixed 50")
        #expect(!added.contains("offset:"), "the view does not move: \(added)")
        #expect(doc.document.settings.offset == offset)
        try StaleChecks.replaysByteForByte(session.store, "d", "clamp")
    }

    /// Issue 15 item 8: random histories that start with an import (every imported setting) and
    /// hold marks, undo/redo to marks, restores and compactions: the `log export` script (an
    /// `import begin … import commit` block, then one line per entry) rebuilds the same export,
    /// history, marks and log, both verify, and undo/redo behave alike.
    @Test(arguments: [UInt64(21), 22, 23, 24, 25, 26])
    func randomHistoriesFromAnImportReplay(seed: UInt64) throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var saved = try ImportBlockTests.savedDocument()
        saved.name = "d"
        try (DocumentFormat.encode(saved) + "\n").write(toFile: dir + "/d.json", atomically: true, encoding: .utf8)
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        try session.line("import d.json")
        var random = RandomLines(seed: seed)
        var marks = 0
        for _ in 0..<80 {
            let line: String
            switch random.int(16) {
            case 0: marks += 1; line = "mark m\(marks)"
            case 1: line = marks > 0 ? "undo to m\(1 + random.int(marks))" : "undo"
            case 2: line = marks > 0 ? "redo to m\(1 + random.int(marks))" : "redo"
            case 3: line = "restore \(1 + random.int(max(1, (try? session.current?.status().logEntries) ?? 1)))"
            case 4: line = random.int(4) == 0 ? "history compact before now~\(random.int(6))" : "rows"
            default: line = random.next()
            }
            _ = try? session.line(line)
        }
        if session.current?.openGroup != nil { try session.line("commit") }
        try StaleChecks.replaysByteForByte(session.store, "d", "seed \(seed)")
    }

    /// Item 4: random commands interleaved with restarts (the store closed and reopened) and with
    /// a second writer — another connection, and now and then a real `stackdoc` process — end in
    /// a document whose `export` equals a replay of its `log export` on an empty database.
    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16, 17, 18])
    func randomCommandsRestartsAndASecondProcessReplayByteForByte(seed: UInt64) throws {
        let exe = try #require(Binary.stackdoc, "the stackdoc binary is built with the tests")
        let db = SharedDatabase()
        defer { db.remove() }
        var a = try db.session()
        try a.line("new d viewport 320 300")
        try a.line("add r0 r1 r2 fixed 120")
        var b = try db.session()
        try b.line("open d")
        var random = RandomLines(seed: seed)
        for _ in 0..<100 {
            switch random.int(20) {
            case 0:  // restart A
                a = try db.session()
                try a.line("open d")
            case 1:  // restart B
                b = try db.session()
                try b.line("open d")
            case 2:  // another process
                let lines = (0..<3).map { _ in random.next() }
                let run = try Binary.run(exe, ["--db", db.path], stdin: (["open d"] + lines).joined(separator: "\n") + "\n")
                #expect(!run.stderr.contains("internal"), "seed \(seed): \(lines): \(run.stderr)")
            case 3, 4, 5:
                if let failure = b.lineRetryingStale(random.next()) { #expect(!failure.contains("internal"), "\(failure)") }
            default:
                if let failure = a.lineRetryingStale(random.next()) { #expect(!failure.contains("internal"), "\(failure)") }
            }
            if a.current == nil { try a.line("open d") }
            if b.current == nil { try b.line("open d") }
        }
        try? a.line("commit")
        try StaleChecks.replaysByteForByte(a.store, "d", "seed \(seed)")
        let fresh = try db.session()
        try fresh.line("open d")
        #expect(try a.text("export") == (try fresh.text("export")), "seed \(seed)")
    }
}
