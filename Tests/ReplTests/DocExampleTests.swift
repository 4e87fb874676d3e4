import Foundation
import Testing
import StackDocTestSupport

/// Every example session of the README, docs/*.md and the DocC articles runs as printed
/// through the built `stackdoc` (the convention: docs/guide.md, "Example sessions"), and the
/// checker itself finds what differs.
@Suite(.offThePool) struct DocExampleTests {
    static let pages = DocExampleRunner.pages(root: Binary.packageRoot)

    /// Runs the examples of a page (`text`, named `page`) in a fresh scratch directory and
    /// returns the runner's failures.
    static func failures(page: String, text: String) async throws -> [String] {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        let dir = try Scratch.directory("doc-example")
        defer { Scratch.remove(dir) }
        var runner = DocExampleRunner(page: page, directory: dir, binary: binary)
        for example in DocExample.examples(in: text) { await runner.run(example) }
        return runner.failures
    }

    @Test(.enabled(if: Binary.hasStackdoc, "the stackdoc binary is not built"), arguments: pages)
    func examplesRunAsPrinted(page: String) async throws {
        let text = try String(contentsOf: Binary.packageRoot.appendingPathComponent(page), encoding: .utf8)
        for failure in try await Self.failures(page: page, text: text) {
            Issue.record(Comment(rawValue: failure))
        }
    }

    @Test func thePagesWithSessionsAreFound() throws {
        for page in ["README.md", "docs/tutorial.md", "docs/repl.md",
                     "Sources/StackDocScript/StackDocScript.docc/ReplayAnOpLog.md"] {
            #expect(Self.pages.contains(page), "\(page) is not among \(Self.pages)")
            let text = try String(contentsOf: Binary.packageRoot.appendingPathComponent(page), encoding: .utf8)
            #expect(!DocExample.examples(in: text).isEmpty, "\(page) has no example session")
        }
    }

    @Test func blocksCommandsAndTheirOutputAreRead() {
        let text = """
        Intro.

        ```
        $ cat a.sd
        new d
        $ stackdoc --db :memory: a.sd   # a comment
        created d: 0 rows

        ```

        ```sh
        swift build          # not an example: the first line has no `$ `
        $ stackdoc
        ```
        """
        let examples = DocExample.examples(in: text)
        #expect(examples == [DocExample(line: 3, commands: [
            .init(line: 4, text: "cat a.sd", output: ["new d"]),
            .init(line: 6, text: "stackdoc --db :memory: a.sd   # a comment", output: ["created d: 0 rows", ""]),
        ])])
    }

    @Test func commandLinesSplitAsAShellSplitsThem() throws {
        #expect(try ShellLine("stackdoc --db :memory: a.sd   # the prompt") == ShellLine(words: ["stackdoc", "--db", ":memory:", "a.sd"]))
        #expect(try ShellLine(#"stackdoc -c 'add a fixed 10' -c "note \"x\"" -c a\ b '' < in.sd"#)
                == ShellLine(words: ["stackdoc", "-c", "add a fixed 10", "-c", #"note "x""#, "-c", "a b", ""], input: "in.sd"))
        #expect(try ShellLine("stackdoc -c '<' x#y") == ShellLine(words: ["stackdoc", "-c", "<", "x#y"]))
        for bad in ["stackdoc 'open", "stackdoc | head", "stackdoc > out", "stackdoc < a b", "stackdoc <a", "stackdoc $HOME"] {
            #expect(throws: ShellLine.Malformed.self, "\(bad)") { try ShellLine(bad) }
        }
    }

    @Test func timeLinesMatchAnyTimeAndNothingElseDiffers() {
        #expect(DocExampleRunner.matches(expected: ["a", "time: 0.75 ms", ""], actual: "a\ntime: 12.5 ms (store and layout 3 ms)\n\n"))
        #expect(!DocExampleRunner.matches(expected: ["a", "time: 0.75 ms"], actual: "a\nb\n"))
        #expect(!DocExampleRunner.matches(expected: ["a"], actual: "a\n\n"))
        #expect(!DocExampleRunner.matches(expected: ["a "], actual: "a\n"))
        #expect(DocExampleRunner.matches(expected: [], actual: ""))
    }

    @Test(.enabled(if: Binary.hasStackdoc, "the stackdoc binary is not built"))
    func aWrongExampleIsNamedByFileAndLine() async throws {
        let page = """
        ```
        $ cat s.sd
        new d viewport 390 400
        add a fixed 76
        $ stackdoc --db :memory: s.sd
        created d: 0 rows, vertical, viewport 390x400, content 390x400
        step 1: add a fixed 76
          frames: a
            a: - -> 0,0 390x99
          a: (new) -> entire
        $ stackdoc --db :memory: -c bogus
        $ stackdoc --db :memory: -c 'new d'
        error: not so
        $ ls
        ```
        """
        let failures = try await Self.failures(page: "page.md", text: page)
        #expect(failures.count == 6, "\(failures)")
        #expect(failures.first?.hasPrefix("page.md:5: `$ stackdoc --db :memory: s.sd` printed other than the page shows:") == true)
        #expect(failures.first?.contains("-    a: - -> 0,0 390x99\n+    a: - -> 0,0 390x100") == true, "\(failures)")
        #expect(failures.contains { $0.hasPrefix("page.md:11: ") && $0.contains("+error: 1: unknown command 'bogus'") })
        #expect(failures.contains { $0.hasPrefix("page.md:11: ") && $0.contains("exited with status 1 (an example that fails shows") })
        #expect(failures.contains { $0.hasPrefix("page.md:12: ") && $0.contains("exited with status 0 although the page shows an error") })
        #expect(failures.contains { $0.hasPrefix("page.md:14: only `$ stackdoc") })
    }

    @Test(.enabled(if: Binary.hasStackdoc, "the stackdoc binary is not built"))
    func catWritesAFileOrChecksOneACommandWrote() async throws {
        let right = """
        ```
        $ cat s.sd
        new d viewport 390 300
        add a fixed 10
        $ stackdoc --db db.sqlite --as ann s.sd
        created d: 0 rows, vertical, viewport 390x300, content 390x300
        step 1: add a fixed 10
          frames: a
            a: - -> 0,0 390x34
          a: (new) -> entire
        $ stackdoc --db db.sqlite --doc d -c 'log export out.sd'
        wrote 3 commands to out.sd
        $ cat out.sd
        # stackdoc log of 'd': run with  stackdoc --db :memory: FILE
        new d vertical viewport 390 300
        as ann
        add a fixed 10
        ```
        """
        #expect(try await Self.failures(page: "right.md", text: right) == [])
        let wrong = right.replacingOccurrences(of: "add a fixed 10\n```", with: "add a fixed 11\n```")
        let failures = try await Self.failures(page: "wrong.md", text: wrong)
        #expect(failures.count == 1, "\(failures)")
        #expect(failures.first?.hasPrefix("wrong.md:13: `$ cat out.sd` (written by an earlier command) differs from the page:") == true, "\(failures)")
    }
}
