import Foundation
import Layout
import Store
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 15 item 8: `import begin NAME … import commit` builds a document in memory and stores it
/// as `import` stores a file (one transaction, one `import` log entry, one undo step); `log
/// export` writes an imported document (and a compacted history's base) as such a block, so the
/// script rebuilds the same log through the import's bulk path.
@Suite(.offThePool) struct ImportBlockTests {
    static func runner(_ session: Session, json: Bool = false) -> (BatchRunner, () -> (out: [String], err: [String])) {
        nonisolated(unsafe) var out: [String] = [], err: [String] = []
        let runner = BatchRunner(session: session, json: json, bail: false, showFile: false,
                                 sink: Sink(out: { out.append($0) }, err: { err.append($0) }))
        return (runner, { (out, err) })
    }

    /// A document with every imported setting that `log export` must carry: root stack
    /// settings, defaults, nested stacks, viewport insets, keyboard and an offset.
    static func savedDocument() throws -> Document {
        let session = Session(store: try DocumentStore(path: ":memory:"))
        for line in ["new d horizontal viewport 300 200", "set stack spacing 4", "defaults separator color #FF0000",
                     "add s stack vertical", "add a fixed 80 grow 1", "add b c fixed 120 in s", "add t fixed 30 hidden",
                     "viewport insets 10 0 20 0", "keyboard 30", "scroll 150"] {
            try session.line(line)
        }
        return try #require(session.document)
    }

    /// The block stores the same document, log entry and history as `import FILE` of it.
    @Test func aBlockIsTheSameImportAsTheFile() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let saved = try Self.savedDocument()
        try (DocumentFormat.encode(saved) + "\n").write(toFile: dir + "/d.json", atomically: true, encoding: .utf8)
        let fromFile = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        try fromFile.line("import d.json")
        let original = try #require(fromFile.current)
        let script = try LogScript.lines(original)
        #expect(script.contains("import begin d horizontal viewport 300 200") && script.last == "import commit", "\(script)")
        #expect(!script.contains { $0.hasPrefix("new ") || $0.hasPrefix("begin") || $0 == "commit" })

        let rebuiltSession = Session(store: try DocumentStore(path: ":memory:"))
        var (runner, output) = Self.runner(rebuiltSession)
        _ = runner.run(lines: script, file: nil)
        #expect(output().err.isEmpty, "\(output().err)")
        let rebuilt = try #require(rebuiltSession.current)
        #expect(rebuilt.document == original.document)
        #expect(try rebuilt.importedDocument(at: 1) == original.importedDocument(at: 1))
        #expect(try rebuilt.log().map(\.kind) == [.importDocument])
        #expect(try StaleChecks.historyLines(rebuilt) == StaleChecks.historyLines(original))
        #expect(try LogScript.lines(rebuilt) == script)
        #expect(try rebuilt.verify(replan: true) == [])
        // Each line inside the block says it is pending; the commit opens the document.
        #expect(output().out.first == "import of d begun: edits build it until 'import commit'")
        #expect(output().out.dropFirst().dropLast().allSatisfy { $0.hasPrefix("pending in import d: ") }, "\(output().out)")
        #expect(output().out.last?.hasPrefix("imported d: 5 rows, horizontal, viewport 300x200") == true, "\(output().out)")
        // Not an undo step, as the file's import (the old script's `begin import … commit` was one).
        for doc in [original, rebuilt] { #expect(throws: StackDocError.self) { try doc.undo(1) } }
    }

    /// A bad line inside the block fails alone (the block's document unchanged) and the block
    /// goes on; other commands are refused; nothing is stored before `import commit`;
    /// `import rollback` drops the block.
    @Test func errorsInsideTheBlockChangeNothing() throws {
        let store = try DocumentStore(path: ":memory:")
        let session = Session(store: store)
        var (runner, output) = Self.runner(session)
        _ = runner.run(text: """
            new taken
            import commit
            import begin taken
            import begin d viewport 100 100
            add a fixed 10
            add a fixed 20
            add b wobble 3
            layout
            import begin e
            undo
            add b fixed 20 after a
            import rollback
            import begin d viewport 100 100
            add z fixed 5
            import commit
            """, file: nil)
        #expect(output().err == [
            "2: import commit: no 'import begin' block is open",
            "3: document 'taken' already exists",
            "6: row 'a' already exists",
            "7: row id: invalid row id '3': expected 1 to 64 characters from A-Z a-z 0-9 _ . - starting with a letter or _",
            "8: 'layout' cannot run inside the import block of d: only edits until 'import commit' (or 'import rollback')",
            "9: 'import begin e' cannot run inside the import block of d: only edits until 'import commit' (or 'import rollback')",
            "10: 'undo 1' cannot run inside the import block of d: only edits until 'import commit' (or 'import rollback')",
        ], "\(output().err)")
        #expect(output().out.contains("import of d rolled back: 2 rows dropped, nothing stored"))
        #expect(try store.documentNames().sorted() == ["d", "taken"])
        let d = try store.open("d")
        #expect(d.document.rowCount == 1 && DocumentFormat.encode(d.document).contains("\"z\""))
        #expect(try d.log().map(\.kind) == [.importDocument])
    }

    /// Scripts that `log export` wrote before the block (`new`, `begin import NAME`, one `add`
    /// per row, `commit`) still run and rebuild the same document (with its extra steps).
    @Test func scriptsOfTheOldFormatStillRun() throws {
        let saved = try Self.savedDocument()
        let session = try Session(document: saved)
        let old = ["new d horizontal viewport 300 200", "begin import d", "set stack spacing 4", "defaults separator color #FF0000",
                   "add s stack vertical", "add a fixed 80 grow 1", "add b in s fixed 120", "add c in s fixed 120",
                   "add t fixed 30 hidden", "commit", "viewport insets 10 0 20 0", "keyboard 30", "scroll 150"]
        let replay = Session(store: try DocumentStore(path: ":memory:"))
        var (runner, output) = Self.runner(replay)
        _ = runner.run(lines: old, file: nil)
        #expect(output().err.isEmpty, "\(output().err)")
        #expect(try DocumentFormat.encode(#require(replay.document)) == DocumentFormat.encode(#require(session.document)))
    }

    /// The block in JSON mode: one envelope per line.
    @Test func jsonEnvelopes() throws {
        let session = Session(store: try DocumentStore(path: ":memory:"))
        var (runner, output) = Self.runner(session, json: true)
        _ = runner.run(text: "import begin d\nadd a fixed 10\nimport commit\n", file: nil)
        #expect(output().out == [
            #"{"ok":true,"command":"import begin d","result":{"import":"d","rows":0},"events":[]}"#,
            #"{"ok":true,"command":"add a fixed 10","result":{"import":"d","operation":"add a fixed 10","rows":1},"events":[]}"#,
            #"{"ok":true,"command":"import commit","result":{"document":"d","rows":1,"axis":"vertical","viewport":{"width":390,"height":844},"contentSize":{"width":390,"height":844}},"events":[]}"#,
        ], "\(output().out)")
    }

    /// The words of the block parse and print back; a file named like them is quoted.
    @Test func parsesAndPrints() throws {
        for line in ["import begin d", "import begin d horizontal viewport 300 200", "import commit", "import rollback", "import \"begin\""] {
            let command = try #require(try Parser.parse(line))
            #expect(Printer.text(command) == line)
        }
        #expect(try Parser.parse("import \"commit\"") == .importDocument(path: "commit", name: nil))
    }
}
