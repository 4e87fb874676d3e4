import Foundation
import Testing
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Tab completion (issue 13): command words, ROWSPEC and SEPSPEC words, row ids of the open
/// document, document names and file paths; in-process, then through libedit on a pty.
@Suite(.offThePool) struct CompletionTests {
    func session() throws -> Session {
        let session = Session(store: try DocumentStore(path: ":memory:"))
        for line in ["new feed", "add header fixed 10", "add hero card fixed 20", "new other", "open feed"] {
            _ = try session.run(try #require(try Parser.parse(line)))
        }
        return session
    }

    func complete(_ line: String, _ session: Session?) -> Completion.Candidates {
        let start = line.lastIndex(of: " ").map { line.distance(from: line.startIndex, to: $0) + 1 } ?? 0
        return Completion.candidates(line: line, start: start, prefix: String(line.dropFirst(start)), session: session)
    }

    @Test func wordsOfEveryKind() throws {
        let s = try session()
        #expect(complete("hi", s) == .words(["hide", "history", "hit"]))
        #expect(complete("EX", s) == .words(["exit", "export"]))
        #expect(complete("help row", s) == .words(["row", "rows", "rowspec"]))
        #expect(complete("hide he", s) == .words(["header", "hero"]))
        #expect(complete("set c", s) == .words(["card"]))
        #expect(complete("set st", s) == .words(["stack"]))
        #expect(complete("set card fi", s) == .words(["fit", "fixed"]))
        #expect(complete("set card separator th", s) == .words(["thickness"]))
        #expect(complete("defaults separator co", s) == .words(["color"]))
        #expect(complete("add x stack h", s) == .words(["horizontal"]))
        #expect(complete("add x after he", s) == .words(["header", "hero"]))
        #expect(complete("set card justify space", s) == .words(["spaceAround", "spaceBetween", "spaceEvenly"]))
        #expect(complete("open o", s) == .words(["other"]))
        #expect(complete("scroll to hea", s) == .words(["header"]))
        #expect(complete("scroll to header m", s) == .words(["middle"]))
        #expect(complete("layout --v", s) == .words(["--visible"]))
        #expect(complete("add ne", s) == .words([]), "a new id is not completed")
        #expect(complete("import sa", s) == .files)
        #expect(complete("export svg pi", s) == .files)
        #expect(complete("log export f", s) == .files)
        #expect(complete("log e", s) == .words(["export"]))
        // No document open: no ids, no crash.
        #expect(complete("hide he", nil) == .words([]))
    }

    /// Only what the grammar takes at that point (issue 32): no positions after `set ROW`, no
    /// ROWSPEC after `move ROW`; mark names where a REF goes.
    @Test func onlyWhatTheGrammarTakes() throws {
        let s = try session()
        _ = try s.run(.mark("v1"))
        _ = try s.run(.mark("v2"))
        #expect(complete("set header a", s) == .words(["align", "align-items", "aspect"]))
        #expect(complete("set header t", s) == .words(["text", "type"]), "not 'to', 'top'")
        #expect(complete("set header ", s) == .words((RowSpecWords.keywords + ["card", "header", "hero"]).sorted()))
        #expect(complete("add x a", s) == .words(["after", "align", "align-items", "aspect", "at"]))
        #expect(complete("add x at t", s) == .words(["top"]))
        #expect(complete("move header ", s) == .words(["after", "before", "in", "to"]))
        #expect(complete("move header to ", s) == .words(["bottom", "top"]))
        #expect(complete("replace header ", s) == .words(["with"]))
        #expect(complete("replace header with n", s) == .words([]))
        #expect(complete("replace header with b2 fi", s) == .words(["fit", "fixed"]))
        for line in ["diff ", "diff v1 ", "undo to ", "redo to ", "restore ", "layout --at ", "draw --at "] {
            #expect(complete(line + "v", s) == .words(["v1", "v2"]), "\(line)")
        }
    }

    /// File paths: the directory's entries, never the open database's -wal and -shm files.
    @Test func filePathsLeaveOutTheDatabasesOwnFiles() throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        let session = Session(store: try DocumentStore(path: dir + "/x.sqlite"))
        _ = try session.run(.new(name: "d", axis: nil, viewport: nil))
        for name in ["x.sqlite-wal", "x.sqlite-shm", "x.sd", "other.sqlite-wal"] where !FileManager.default.fileExists(atPath: dir + "/" + name) {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data()))
        }
        try FileManager.default.createDirectory(atPath: dir + "/xdir", withIntermediateDirectories: false)
        #expect(Completion.fileNames(dir + "/x", session: session) == [dir + "/x.sd", dir + "/x.sqlite", dir + "/xdir/"])
        #expect(Completion.fileNames(dir + "/o", session: session) == [dir + "/other.sqlite-wal"], "another database's file is offered")
    }

    @Test func tabCompletesOnATerminal() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        try "{}".write(toFile: dir + "/saved-document.json", atomically: true, encoding: .utf8)
        let out = try await InteractiveTests.drive([
            ("stackdoc> ", "new feed\r"),
            ("stackdoc(feed)> ", "ad\theader fix\t10\r"),         // command word and ROWSPEC word
            ("stackdoc(feed)> ", "hid\thea\t\r"),                 // row id
            ("stackdoc(feed)> ", "sh\th\t\r"),
            ("stackdoc(feed)> ", "clo\t\r"),
            ("stackdoc> ", "ope\tfe\t\r"),                        // document name
            ("stackdoc(feed)> ", "import saved-d\t\r"),           // file path (libedit)
            ("stackdoc(feed)> ", "quit\r"),
        ], history: dir + "/h", arguments: ["--db", ":memory:", "--no-init"], directory: dir)
        #expect(out.contains("step 1: add header fixed 10"), "\(out)")
        #expect(out.contains("step 2: hide header"), "\(out)")
        #expect(out.contains("step 3: show header"), "\(out)")
        #expect(out.contains("opened feed: 1 row,"), "\(out)")
        #expect(out.contains("'saved-document.json'"), "the path was completed: \(out)")
        #expect(out.hasSuffix("EXIT 0\n"), "\(out)")
    }
}
