import Foundation
import Layout
import OrderStatistics
import Store
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 9, items 4 and 9: what `export`, `status`, the layout and a replay of `log export`
/// show agree byte for byte, whatever process, restart or clamp made the document.
@Suite(.offThePool) struct ReplayAgreementTests {
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

    /// Issue 15 item 8, issue 35 items 1 and 7: random histories that start with an import
    /// (every imported setting, and rows that between them set every row field) and hold marks,
    /// undo/redo to marks, restores (by entry, by mark, by `now~N`) and compactions: the `log
    /// export` script (an `import begin … import commit` block, then one line per entry)
    /// rebuilds the same export, history (as `history` shows it), marks and log, both verify,
    /// and undo/redo behave alike.
    @Test(arguments: [UInt64(21), 22, 23, 24, 25, 26])
    func randomHistoriesFromAnImportReplay(seed: UInt64) throws {
        try Self.randomHistoryFromAnImport(seed: seed, backend: .sqlite)
    }

    /// The same on a PostgreSQL store, replayed on another.
    @Test(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)), arguments: [UInt64(21), 22])
    func randomHistoriesFromAnImportReplayOnPostgreSQL(seed: UInt64) throws {
        try Self.randomHistoryFromAnImport(seed: seed, backend: .postgresql)
    }

    static func randomHistoryFromAnImport(seed: UInt64, backend: TestStores.Backend) throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let saved = try Self.everyFieldDocument(seed: seed)
        try (DocumentFormat.encode(saved) + "\n").write(toFile: dir + "/d.json", atomically: true, encoding: .utf8)
        let session = Session(store: try TestStores.store(backend), directory: dir)
        try session.line("import d.json")
        try StaleChecks.replaysByteForByte(session.store, "d", "seed \(seed): the import")
        try Self.randomHistory(session, seed: seed, lines: 80)
        try StaleChecks.replaysByteForByte(session.store, "d", "seed \(seed)")
    }

    /// Issue 35 item 1: documents built by commands (random rows that set every field), whose
    /// history is then compacted: the base is written as an import block, which keeps every
    /// field, and the rest of the history replays on it.
    @Test(arguments: [UInt64(41), 42, 43, 44])
    func compactedCommandBuiltHistoriesReplay(seed: UInt64) throws {
        let session = Session(store: try DocumentStore(path: ":memory:"))
        try session.line("new d viewport 320 400")
        var edits = DocumentEdits(rng: SplitMix64(seed: seed))
        var built = 0
        for _ in 0..<300 where built < 30 {
            let document = try #require(session.document)
            let parent = edits.parent(in: document)
            let edit = Edit.add(ids: [edits.freshID(in: document)], spec: edits.spec(), position: nil, parent: parent)
            if (try? session.line(Printer.text(edit))) != nil { built += 1 }
        }
        try Self.randomHistory(session, seed: seed, lines: 40)
        _ = try? session.line("history compact before now~\(seed % 4)")
        try StaleChecks.replaysByteForByte(session.store, "d", "seed \(seed): compacted")
    }

    /// Issue 35 item 1: a sticky row (the field the import block left out) and every other
    /// field survive `log export` of an imported document and of a compacted one.
    @Test func everyFieldSurvivesTheImportBlock() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var saved = Document(name: "d")
        try EveryRowField.appendRows(to: &saved)
        try (DocumentFormat.encode(saved) + "\n").write(toFile: dir + "/d.json", atomically: true, encoding: .utf8)
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        try session.line("import d.json")
        #expect(try session.text("export").contains("\"sticky\": true"))
        try StaleChecks.replaysByteForByte(session.store, "d", "imported")
        let built = Session(store: try DocumentStore(path: ":memory:"))
        for line in ["new e", "add h fixed 20 sticky", "add x fixed 30 min 5 max-cross 90 highlight #00FF00", "set x fixed 40", "history compact"] {
            try built.line(line)
        }
        #expect(try LogScript.lines(#require(built.current)).contains("add h fixed 20 sticky"))
        try StaleChecks.replaysByteForByte(built.store, "e", "compacted")
    }

    /// Issue 35 item 7: restores by mark and by `now~N` keep their labels in the document
    /// rebuilt from `log export` (`history` shows the same), also after a compaction that
    /// keeps the mark, and one that drops it.
    @Test func restoresByMarkAndByRelativeReferenceKeepTheirLabels() throws {
        func history(compactingBefore entry: Int?) throws -> Session {
            let session = Session(store: try DocumentStore(path: ":memory:"))
            for line in ["new d", "add a fixed 10", "mark m1", "add b fixed 20", "restore m1", "add c fixed 30", "restore now~1", "restore 6"] {
                try session.line(line)
            }
            if let entry { try session.line("history compact before \(entry)") }
            return session
        }
        func script(_ session: Session) throws -> String { try LogScript.lines(#require(session.current)).joined(separator: "\n") }
        let whole = try history(compactingBefore: nil)
        let wholeScript = try script(whole)
        #expect(wholeScript.contains("restore m1\nadd c fixed 30\nrestore now~1\nrestore 6"), "\(wholeScript)")
        #expect(try whole.text("history").contains("restore now~1"))
        try StaleChecks.replaysByteForByte(whole.store, "d", "restores")
        let markKept = try history(compactingBefore: 3)
        let markKeptScript = try script(markKept)
        #expect(markKeptScript.contains("restore m1\nadd c fixed 30\nrestore now~1\nrestore 5"), "\(markKeptScript)")
        try StaleChecks.replaysByteForByte(markKept.store, "d", "compacted, the mark kept")
        let markDropped = try history(compactingBefore: 4)
        let markDroppedScript = try script(markDropped)
        #expect(markDroppedScript.contains("restore 1\nadd c fixed 30\nrestore now~1\nrestore 4"), "\(markDroppedScript)")
        try StaleChecks.replaysByteForByte(markDropped.store, "d", "compacted, the mark dropped")
    }

    /// An imported document: every imported setting (`ImportBlockTests.savedDocument`), rows that
    /// between them set every field (`EveryRowField`), and random rows of random ROWSPECs.
    static func everyFieldDocument(seed: UInt64) throws -> Document {
        var saved = try ImportBlockTests.savedDocument()
        saved.name = "d"
        try EveryRowField.appendRows(to: &saved, prefix: "every_")
        var edits = DocumentEdits(rng: SplitMix64(seed: seed))
        for _ in 0..<20 {
            let edit = Edit.add(ids: [edits.freshID(in: saved)], spec: edits.spec(), position: nil, parent: edits.parent(in: saved))
            if let changes = try? saved.plan(edit) { try saved.apply(changes) }
        }
        return saved
    }

    /// `lines` random lines on the open document: edits, undo/redo (also to marks), marks,
    /// restores by entry, by mark and by `now~N`, compactions, queries; an open group is
    /// committed at the end.
    static func randomHistory(_ session: Session, seed: UInt64, lines: Int) throws {
        var random = RandomLines(seed: seed)
        var marks = 0
        for _ in 0..<lines {
            let line: String
            let entries = max(1, (try? session.current?.status().logEntries) ?? 1)
            switch random.int(16) {
            case 0: marks += 1; line = "mark m\(marks)"
            case 1: line = marks > 0 ? "undo to m\(1 + random.int(marks))" : "undo"
            case 2: line = marks > 0 ? "redo to m\(1 + random.int(marks))" : "redo"
            case 3: line = "restore \(1 + random.int(entries))"
            case 4: line = marks > 0 ? "restore m\(1 + random.int(marks))" : "restore now~\(random.int(entries))"
            case 5: line = "restore now~\(random.int(min(entries, 8)))"
            case 6: line = random.int(3) == 0 ? "history compact before now~\(random.int(6))" : "rows"
            default: line = random.next()
            }
            _ = try? session.line(line)
        }
        if session.current?.openGroup != nil { try session.line("commit") }
    }

    /// Item 4: random commands interleaved with restarts (the store closed and reopened) and with
    /// a second writer — another connection, and now and then a real `stackdoc` process — end in
    /// a document whose `export` equals a replay of its `log export` on an empty database.
    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16, 17, 18])
    func randomCommandsRestartsAndASecondProcessReplayByteForByte(seed: UInt64) async throws {
        try await Self.randomCommandsRestartsAndASecondProcess(seed: seed, db: SharedDatabase())
    }

    /// The same with the two writers and the processes on one PostgreSQL database.
    @Test(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)), arguments: [UInt64(11), 12, 13])
    func randomCommandsRestartsAndASecondProcessReplayByteForByteOnPostgreSQL(seed: UInt64) async throws {
        try await Self.randomCommandsRestartsAndASecondProcess(seed: seed, db: try SharedDatabase(.postgresql))
    }

    static func randomCommandsRestartsAndASecondProcess(seed: UInt64, db: SharedDatabase) async throws {
        let exe = try #require(Binary.stackdoc, "the stackdoc binary is built with the tests")
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
                let run = try await Binary.run(exe, ["--db", db.path], stdin: (["open d"] + lines).joined(separator: "\n") + "\n")
                #expect(!run.stderr.contains("internal"), "seed \(seed): \(lines): \(run.stderr)")
            case 3, 4, 5:
                if let failure = b.lineRetryingStale(random.next()) { #expect(!failure.contains("internal"), "\(failure)") }
            default:
                if let failure = a.lineRetryingStale(random.next()) { #expect(!failure.contains("internal"), "\(failure)") }
            }
            if a.current == nil { try a.line("open d") }
            if b.current == nil { try b.line("open d") }
        }
        _ = try? a.line("commit")
        try StaleChecks.replaysByteForByte(a.store, "d", "seed \(seed)")
        let fresh = try db.session()
        try fresh.line("open d")
        #expect(try a.text("export") == (try fresh.text("export")), "seed \(seed)")
    }
}
