import Foundation
import StackDocTestSupport

/// Runs the example sessions of one documentation page through the built `stackdoc`, in one
/// scratch directory of the page's own, block after block in page order (as a reader following
/// the page in one terminal would), and collects what differs from the page.
struct DocExampleRunner {
    /// The page as failures name it (`README.md`, `docs/tutorial.md`).
    let page: String
    /// The page's scratch directory: every command runs in it.
    let directory: String
    /// The `stackdoc` executable.
    let binary: String
    /// One message per command whose output (or exit status, or file) differs from the page,
    /// each starting `PAGE:LINE:`.
    private(set) var failures: [String] = []

    init(page: String, directory: String, binary: String) {
        self.page = page
        self.directory = directory
        self.binary = binary
    }

    /// Every page whose examples are checked: README.md, docs/*.md and the DocC articles
    /// (Sources/*/*.docc/**/*.md), as paths from `root`, sorted.
    static func pages(root: URL) -> [String] {
        let files = FileManager.default
        var pages = ["README.md"]
        let docs = (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        pages += docs.filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let sources = (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? []
        for target in sources {
            let targetDir = root.appendingPathComponent("Sources/\(target)")
            for catalog in ((try? files.contentsOfDirectory(atPath: targetDir.path)) ?? []) where catalog.hasSuffix(".docc") {
                let base = "Sources/\(target)/\(catalog)"
                let walker = files.enumerator(atPath: root.appendingPathComponent(base).path)
                while let file = walker?.nextObject() as? String {
                    if file.hasSuffix(".md") { pages.append(base + "/" + file) }
                }
            }
        }
        return pages.sorted()
    }

    /// Whether `actual` (what a command wrote) is the `expected` lines: byte for byte, except
    /// that an expected line starting `time:` stands for any line starting `time:`.
    static func matches(expected: [String], actual: String) -> Bool {
        let lines = outputLines(actual)
        guard lines.count == expected.count else { return false }
        return zip(expected, lines).allSatisfy { want, got in
            want == got || (want.hasPrefix("time:") && got.hasPrefix("time:"))
        }
    }

    /// `text` as lines without their breaks (a last line break ends the last line).
    static func outputLines(_ text: String) -> [String] {
        if text.isEmpty { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if text.hasSuffix("\n") { lines.removeLast() }
        return lines
    }

    /// Runs every command of `example`.
    mutating func run(_ example: DocExample) async {
        for command in example.commands {
            do {
                try await run(command)
            } catch {
                failures.append("\(page):\(command.line): `$ \(command.text)`: \(error)")
            }
        }
    }

    private mutating func run(_ command: DocExample.Command) async throws {
        let shell = try ShellLine(command.text)
        switch shell.words.first {
        case "cat":
            guard shell.words.count == 2, shell.input == nil else {
                failures.append("\(page):\(command.line): `$ cat` takes one file name: `$ \(command.text)`")
                return
            }
            try cat(shell.words[1], command)
        case "stackdoc":
            try await stackdoc(shell, command)
        default:
            failures.append("\(page):\(command.line): only `$ stackdoc …` and `$ cat FILE` run in an example (docs/guide.md, \"Example sessions\"): `$ \(command.text)`")
        }
    }

    /// `$ cat NAME`: a file an earlier command wrote is compared with the lines; otherwise the
    /// lines become the file (each line ending with a line break).
    private mutating func cat(_ name: String, _ command: DocExample.Command) throws {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
        let text = command.output.map { $0 + "\n" }.joined()
        if let existing = try? String(contentsOf: url, encoding: .utf8) {
            if !Self.matches(expected: command.output, actual: existing) {
                failures.append("\(page):\(command.line): `$ cat \(name)` (written by an earlier command) differs from the page:\n"
                                + LineDiff.unified(expected: text, actual: existing, name: name))
            }
            return
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// `$ stackdoc ARGS [< FILE]`: the built binary in the page's directory, its standard error
    /// merged into its standard output as a terminal shows them.
    private mutating func stackdoc(_ shell: ShellLine, _ command: DocExample.Command) async throws {
        var stdin = ""
        if let input = shell.input {
            stdin = try String(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(input), encoding: .utf8)
        }
        let result = try await Binary.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" 2>&1", binary] + shell.words.dropFirst(),
                                    stdin: stdin, directory: directory, environment: ["HOME": directory], timeout: 120)
        let expected = command.output.map { $0 + "\n" }.joined()
        if !Self.matches(expected: command.output, actual: result.stdout) {
            failures.append("\(page):\(command.line): `$ \(command.text)` printed other than the page shows:\n"
                            + LineDiff.unified(expected: expected, actual: result.stdout, name: page))
        }
        let showsError = command.output.contains { $0.hasPrefix("error:") }
        if (result.status == 0) == showsError {
            failures.append("\(page):\(command.line): `$ \(command.text)` exited with status \(result.status)"
                            + (showsError ? " although the page shows an error" : " (an example that fails shows its `error:` line)"))
        }
    }
}
