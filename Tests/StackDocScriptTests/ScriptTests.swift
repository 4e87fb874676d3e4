import Foundation
import Layout
import StackDocScript
import StackDocTestSupport
import Store
import Testing

// The library's entry points as a client uses them: a plain (not @testable) import, so a test
// here fails to compile when something a client needs is not public.

/// Parsing scripts: every line is read before anything runs.
@Suite(.offThePool) struct ScriptParsingTests {
    @Test func commandsKeepTheirLineNumbersAndCommentsAreSkipped() throws {
        let script = try Script("\u{FEFF}# a feed\r\nnew feed\r\n\r\nadd a b fixed 50   # two rows\nlayout\n")
        #expect(script.lines.map(\.number) == [2, 4, 5])
        #expect(script.lines.map(\.text) == ["new feed", "add a b fixed 50   # two rows", "layout"])
        #expect(script.lines[1].command == .edit(.add(ids: ["a", "b"], spec: [.fixed(50)], position: nil, parent: nil)))
        #expect(script.file == nil)
    }

    @Test func aBadLineIsNamedAndNothingRuns() throws {
        let session = try Session(database: ":memory:")
        #expect {
            let script = try Script("new feed\nadd a\nadd b fixed\nadd c\n", file: "feed.sd")
            _ = try session.run(script)
        } throws: { error in
            guard let e = error as? ScriptError else { return false }
            return e.file == "feed.sd" && e.line == 3 && "\(e)".hasPrefix("feed.sd:3: ")
        }
        #expect(try session.store.documents().isEmpty)
    }

    @Test func aMissingFileIsAScriptErrorWithoutALine() throws {
        let dir = try Scratch.directory("script")
        defer { Scratch.remove(dir) }
        do {
            _ = try Script(contentsOf: dir + "/missing.sd")
            Issue.record("a missing script parsed")
        } catch {
            #expect(error.line == 0)
            #expect(error.file == dir + "/missing.sd")
            #expect(error.description.contains("missing.sd"))
        }
    }
}

/// Running scripts and single commands against a store.
@Suite(.offThePool) struct ScriptRunTests {
    static let feed = """
        new feed viewport 390 300
        add header fixed 60
        add a b c fixed 100
        hide b
        """

    @Test func aScriptReturnsEveryResultAndTheLayout() throws {
        let run = try Session(database: ":memory:").run(Script(Self.feed))
        #expect(run.steps.map(\.line.number) == [1, 2, 3, 4])
        guard case .opened(let opened) = run.steps[0].result else { Issue.record("new: \(run.steps[0].result)"); return }
        #expect(opened.name == "feed" && opened.viewport == Size(width: 390, height: 300))
        guard case let .edited(operation, outcome, report) = run.steps[3].result else { Issue.record("hide: \(run.steps[3].result)"); return }
        #expect(operation == "hide b" && outcome == .step(3))
        #expect(report.transitions == [VisibilityTransition(row: "b", from: .partial, to: .hidden),
                                       VisibilityTransition(row: "c", from: .offscreen, to: .partial)])
        let layout = try #require(run.layout)
        // Rows inherit the default insets (12 above and below): 60 + 24 and 100 + 24.
        #expect(layout.row("header")?.frame == Rect(x: 0, y: 0, width: 390, height: 84))
        #expect(layout.row("a")?.frame == Rect(x: 0, y: 84, width: 390, height: 124))
        #expect(layout.row("b")?.frame == nil && layout.row("b")?.visibility == .hidden)
        #expect(layout.row("c")?.frame == Rect(x: 0, y: 208, width: 390, height: 124))
        #expect(layout.row("c")?.visibility == .partial)
        #expect(layout.contentSize == Size(width: 390, height: 332))
        // The layout is the document's own.
        #expect(run.document?.layout() == layout)
    }

    @Test func singleCommandsRenderAsTheREPLPrintsThem() throws {
        let session = try Session(database: ":memory:")
        #expect(try session.run(line: "# nothing") == nil)
        try session.run(line: "new feed viewport 390 300")
        let added = try #require(try session.run(line: "add header fixed 60"))
        #expect(added.text == "step 1: add header fixed 60\n  frames: header\n    header: - -> 0,0 390x84\n  header: (new) -> entire")
        let scrolled = try #require(try session.run(line: "scroll 100"))
        #expect(scrolled.text == "no change: scroll 100")  // nothing to scroll: the content fits
        var json: [UInt8] = []
        try #require(try session.run(line: "hit 10 10")).appendJSON(to: &json)
        #expect(String(decoding: json, as: UTF8.self) == #""header""#)
        #expect(try session.currentLayout().rows.map(\.id) == ["header"])
    }

    @Test func aFailedCommandIsNamedAndChangesNothingWhileEarlierOnesStay() throws {
        let session = try Session(database: ":memory:")
        do {
            _ = try session.run(Script("new feed\nadd a b fixed 50\nremove zz\nadd c\n", file: "x.sd"))
            Issue.record("remove zz ran")
        } catch {
            #expect(error.line == 3)
            #expect(error.error == .document(.noSuchRow("zz")))
        }
        let document = try #require(session.document)
        #expect(document.rowCount == 2)
        #expect(try session.store.open("feed").status().steps == 1)
    }

    @Test func quitEndsTheRun() throws {
        let run = try Session(database: ":memory:").run(Script("new d\nadd a\nquit\nadd b\n"))
        #expect(run.steps.count == 3)
        #expect(run.document?.rowCount == 1)
    }

    @Test func noDocumentOpenMeansNoLayout() throws {
        let run = try Session(database: ":memory:").run(Script("new d\nclose\n"))
        #expect(run.layout == nil && run.document == nil)
    }

    /// A script against a database file: a second session on the file sees what the first did.
    @Test func aFileDatabaseKeepsWhatAScriptDid() throws {
        let dir = try Scratch.directory("script")
        defer { Scratch.remove(dir) }
        let first = try Session(database: dir + "/docs.sqlite").run(Script(Self.feed))
        let again = try Session(database: dir + "/docs.sqlite").run(Script("open feed\n"))
        #expect(again.layout == first.layout)
        #expect(again.document == first.document)
    }
}

/// Scripts against a bare `Document` (no database of the caller's).
@Suite(.offThePool) struct DocumentScriptTests {
    @Test func aDocumentRunsAScriptOnACopy() throws {
        var original = Document(name: "list")
        original.settings.viewport = Size(width: 320, height: 200)
        let run = try original.running(Script("add a b c fixed 80\nmove c to top\nscroll to a top\n"))
        #expect(original.rowCount == 0)
        let document = try #require(run.document)
        #expect(document.children(of: nil) == ["c", "a", "b"])
        let layout = try #require(run.layout)
        // a sits under c (104 tall); scrolled so that a's frame starts at the top of the viewport.
        #expect(layout.offset == 104)
        #expect(layout.row("a")?.visibility == .entire)
        #expect(layout.row("c")?.visibility == .offscreen)
        #expect(layout == document.layout())
    }

    @Test func undoTakesTheDocumentSessionBackToTheGivenDocument() throws {
        var original = Document(name: "list")
        let session = try Session(document: original)
        try session.run(line: "add a fixed 10")
        try session.run(line: "undo")
        #expect(session.document == original)
        original.settings.offset = 0
        #expect(try session.currentLayout() == original.layout())
    }
}

/// The use the library exists for: replaying a committed op log (`log export`) in a test.
@Suite(.offThePool) struct LogReplayTests {
    @Test func anExportedLogReplaysToTheSameDocumentAndLayout() throws {
        let dir = try Scratch.directory("script")
        defer { Scratch.remove(dir) }
        let session = try Session(database: ":memory:", directory: dir)
        let made = try session.run(Script("""
            new feed viewport 390 300
            add header fixed 60
            add s stack horizontal
            add x y fixed 40 grow 1 in s
            begin "two rows"
            add a b fixed 120 after header
            hide y
            commit
            undo
            redo
            scroll 50
            log export feed.sd
            """))
        guard case .wroteLog(_, let commands) = made.steps.last?.result else { Issue.record("log export: \(String(describing: made.steps.last))"); return }
        let script = try Script(contentsOf: dir + "/feed.sd")
        #expect(script.lines.count == commands)
        let replayed = try Session(database: ":memory:").run(script)
        #expect(replayed.document == made.document)
        #expect(replayed.layout == made.layout)
        #expect(replayed.layout?.row("y")?.visibility == .hidden)
        #expect(replayed.layout?.offset == 50)
    }
}

/// Issue 13 items 10 and 11 through a session (the live layout's report): rows that arrive and
/// leave are events wherever they are, and every row that moved visibly carries both frames.
@Suite(.offThePool) struct ChangeEventTests {
    func edited(_ result: CommandResult?) -> ChangeReport? {
        if case let .edited(_, _, report)? = result { return report }
        if case let .historyMove(_, _, _, report)? = result { return report }
        return nil
    }

    @Test func insertedAndRemovedRowsAreEventsOffscreenToo() throws {
        let session = try Session(database: ":memory:")
        try session.run(line: "new d viewport 100 100")
        let added = try #require(edited(try session.run(line: "add a b c fixed 26")))  // 50 tall each
        #expect(added.transitions == [VisibilityTransition(row: "a", from: nil, to: .entire),
                                      VisibilityTransition(row: "b", from: nil, to: .entire),
                                      VisibilityTransition(row: "c", from: nil, to: .offscreen)])
        try session.run(line: "add s stack vertical")
        try session.run(line: "add s1 s2 fixed 10 in s")
        // Removing a stack removes its rows: all of them leave, in document order, after the rows
        // that stay.
        let removed = try #require(edited(try session.run(line: "remove a s")))
        #expect(removed.transitions == [VisibilityTransition(row: "c", from: .offscreen, to: .entire),
                                        VisibilityTransition(row: "a", from: .entire, to: nil),
                                        VisibilityTransition(row: "s", from: .offscreen, to: nil),
                                        VisibilityTransition(row: "s1", from: .offscreen, to: nil),
                                        VisibilityTransition(row: "s2", from: .offscreen, to: nil)])
        let undone = try #require(edited(try session.run(line: "undo")))
        #expect(undone.transitions.filter { $0.from == nil }.map(\.row) == ["a", "s", "s1", "s2"])
        var json: [UInt8] = []
        try #require(try session.run(line: "hide b")).appendJSON(to: &json)
        #expect(String(decoding: json, as: UTF8.self).contains(
            #""moved":[{"row":"b","from":{"x":0,"y":50,"width":100,"height":50},"to":null},{"row":"c","from":{"x":0,"y":100,"width":100,"height":50},"to":{"x":0,"y":50,"width":100,"height":50}}]"#))
    }

    /// Rows of untouched root entries that were offscreen before: their old frame is derived from
    /// the shift, and equals the whole-layout comparison.
    @Test func shiftedRowsCarryTheirOldFrames() throws {
        let session = try Session(database: ":memory:")
        try session.run(line: "new d viewport 100 100")
        try session.run(line: "add r0 r1 r2 r3 r4 r5 r6 r7 fixed 16")  // 40 tall each
        let before = try session.currentLayout()
        let report = try #require(edited(try session.run(line: "remove r0 r1")))
        let after = try session.currentLayout()
        #expect(report.moved == LayoutChangeReport(before: before, after: after).moved)
        #expect(report.moved.map(\.row) == ["r2", "r3", "r4"])
        #expect(report.moved.last == FrameChange(row: "r4", from: Rect(x: 0, y: 160, width: 100, height: 40),
                                                 to: Rect(x: 0, y: 80, width: 100, height: 40)))
        #expect(report.changedCount == 6)
    }
}
