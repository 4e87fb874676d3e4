import Foundation
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// The shell's command line as users of sqlite3 and psql expect it (issue 13): `-c`, `--echo`,
/// the init file, `--version`, `help SUBCOMMAND`, flags before a subcommand, `-` for standard
/// input, every script checked before anything runs, lines that are not UTF-8, `--doc` saying
/// that it created, and a run that ends with a group open saying so.
@Suite(.serialized, .offThePool) struct ShellOptionsTests {
    func stackdoc(_ args: [String], stdin: String? = nil, in dir: String, environment: [String: String] = [:]) async throws -> Binary.Result {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        return try await Binary.run(binary, args, stdin: stdin, directory: dir, environment: environment)
    }

    func write(_ text: String, _ name: String, in dir: String) throws {
        try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
    }

    @Test func commandsRunInOrderBeforeTheScriptsThenExit() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        try write("add b fixed 20\nrows\n", "s.sd", in: dir)
        // Standard input is not read when -c is given: 'add never' must not run.
        let out = try await stackdoc(["--db", "x.sqlite", "-c", "new d", "--command", "add a fixed 10", "s.sd"],
                               stdin: "add never\n", in: dir)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("step 1: add a fixed 10"))
        #expect(out.stdout.contains("step 2: add b fixed 20"))
        #expect(!out.stdout.contains("never"))
        // Alone, then the database keeps what they did.
        let again = try await stackdoc(["--db", "x.sqlite", "-c", "open d", "-c", "layout --visible"], in: dir)
        #expect(again.status == 0)
        #expect(again.stdout.contains("0  a   view  0,0 390x34"), "\(again.stdout)")
        // A failed -c command is named as such when a script runs too, and the status is 1.
        let bad = try await stackdoc(["--db", ":memory:", "-c", "new d", "-c", "bogus", "s.sd"], in: dir)
        #expect(bad.status == 1)
        #expect(bad.stderr == "error: -c:2: unknown command 'bogus' (type 'help' for the list)\n")
        #expect(bad.stdout.contains("step 1: add b fixed 20"))
    }

    @Test func echoPrintsEachCommandAfterThePrompt() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        let out = try await stackdoc(["--db", ":memory:", "--echo"], stdin: "new d\n# a comment\n\nadd a fixed 10\nbegin x\nadd b\n", in: dir)
        #expect(out.stdout == """
            stackdoc> new d
            created d: 0 rows, vertical, viewport 390x844, content 390x844
            stackdoc(d)> add a fixed 10
            step 1: add a fixed 10
              frames: a
                a: - -> 0,0 390x34
              a: (new) -> entire
            stackdoc(d)> begin x
            begin x: the next operations make one undo step
            stackdoc(d)*> add b
            pending in group x: add b
              frames: b
                b: - -> 0,34 390x24
              b: (new) -> entire

            """)
        // Without --echo: no command lines.
        let plain = try await stackdoc(["--db", ":memory:"], stdin: "new d\n", in: dir)
        #expect(!plain.stdout.contains("stackdoc>"))
    }

    @Test func aRunThatEndsWithAGroupOpenSaysSo() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        let out = try await stackdoc(["--db", ":memory:"], stdin: "new d\nbegin \"tidy up\"\nadd a\n", in: dir)
        #expect(out.status == 0)
        #expect(out.stderr == "warning: document 'd' ends with the group 'tidy up' open: its operations stay pending until 'commit' or 'rollback' (in this or a later session)\n")
        let closed = try await stackdoc(["--db", ":memory:"], stdin: "new d\nbegin\nadd a\ncommit\n", in: dir)
        #expect(closed.stderr.isEmpty)
    }

    @Test func initFileRunsOnlyWhenAskedInBatch() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        try write("new fromrc\n", ".stackdocrc", in: dir)
        // HOME's ~/.stackdocrc is never read in batch mode.
        let batch = try await stackdoc(["--db", ":memory:"], stdin: "docs\n", in: dir, environment: ["HOME": dir])
        #expect(batch.stdout == "(no documents)\n")
        let asked = try await stackdoc(["--db", ":memory:", "--init", ".stackdocrc"], stdin: "docs\n", in: dir, environment: ["HOME": dir])
        #expect(asked.stdout.hasPrefix("created fromrc: 0 rows"), "\(asked.stdout)")
        #expect(asked.stdout.contains("fromrc     0      0       0"), "\(asked.stdout)")
        // An error of the init file names it.
        try write("bogus\n", "bad.rc", in: dir)
        let bad = try await stackdoc(["--db", ":memory:", "--init", "bad.rc"], stdin: "", in: dir)
        #expect(bad.stderr == "error: bad.rc:1: unknown command 'bogus' (type 'help' for the list)\n")
    }

    @Test func versionAndHelpOfASubcommandCreateNoDatabase() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        let version = try await stackdoc(["--version"], in: dir)
        #expect(version.status == 0)
        #expect(version.stdout == "\(StackDocVersion.text)\n")
        #expect(version.stdout.hasPrefix("stackdoc ") && version.stdout.contains("stackdoc/1"))
        let help = try await stackdoc(["help", "layout"], in: dir)
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("USAGE: stackdoc layout <file>"), "\(help.stdout)")
        let unknown = try await stackdoc(["help", "frob"], in: dir)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("error: no subcommand 'frob'"))
        let root = try await stackdoc(["--help"], in: dir)
        for variable in ["STACKDOC_INIT", "STACKDOC_HISTORY", "STACKDOC_TIMING", "--command", "--echo", "--no-init"] {
            #expect(root.stdout.contains(variable), "\(variable) is not in --help")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/stackdoc.sqlite"))
    }

    @Test func flagsBeforeASubcommandGoToIt() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        try write(#"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","size":{"fixed":10}}]}"#, "f.json", in: dir)
        let out = try await stackdoc(["--json", "layout", "f.json"], in: dir)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasPrefix(#"{"document":"d""#), "\(out.stdout)")
        #expect(StackDocCommand.route(["--db", "layout", "x.sd"]).isRoot, "layout is the value of --db here")
        #expect(!FileManager.default.fileExists(atPath: dir + "/stackdoc.sqlite"))
    }

    @Test func negativeOffsetAndTildePaths() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        try write(#"{"format":"stackdoc/1","name":"d","viewport":{"width":100,"height":50},"rows":[{"id":"a","size":{"fixed":100}}]}"#, "f.json", in: dir)
        let out = try await stackdoc(["layout", "f.json", "--offset", "-5", "--json"], in: dir)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains(#""offset":0,"#), "clamped: \(out.stdout)")
        // ~ is the home directory in the paths of commands (read, import, export, …).
        try write("new fromhome\n", "home.sd", in: dir)
        let tilde = try await stackdoc(["--db", ":memory:", "-c", "read ~/home.sd", "-c", "export ~/saved.json"], in: "/", environment: ["HOME": dir])
        #expect(tilde.status == 0, "\(tilde.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/saved.json"))
        // … and in --db, also where the shell does not expand it (--db=~/…), and in every path
        // a command writes or reads: output, once, import, log export.
        let db = try await stackdoc(["--db=~/home.sqlite", "-c", "new d", "-c", "output ~/o.txt", "-c", "docs", "-c", "output",
                               "-c", "once ~/once.txt", "-c", "docs", "-c", "import ~/saved.json as e", "-c", "log export ~/log.sd"],
                              in: "/", environment: ["HOME": dir])
        #expect(db.status == 0, "\(db.stderr)")
        for file in ["home.sqlite", "o.txt", "once.txt", "log.sd"] {
            #expect(FileManager.default.fileExists(atPath: dir + "/" + file), "\(file)")
        }
        #expect(db.stdout.contains("imported e"), "\(db.stdout)")
    }

    @Test func missingScriptRunsNothingAndCreatesNoDatabase() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        try write("new d\nexport first.json\n", "one.sd", in: dir)
        let out = try await stackdoc(["one.sd", "missing.sd", "gone.sd"], in: dir)
        #expect(out.status == 1)
        #expect(out.stdout.isEmpty)
        #expect(out.stderr == "error: cannot read 'missing.sd': No such file or directory\nerror: cannot read 'gone.sd': No such file or directory\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/stackdoc.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/first.json"))
    }

    @Test func dashIsStandardInputAmongTheScripts() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        try write("new d\n", "one.sd", in: dir)
        try write("rows\n", "three.sd", in: dir)
        let out = try await stackdoc(["--db", ":memory:", "one.sd", "-", "three.sd"], stdin: "add a fixed 10\nadd a\n", in: dir)
        #expect(out.status == 1)
        #expect(out.stdout.contains("step 1: add a fixed 10"))
        #expect(out.stdout.hasSuffix("a   -           0  view  fixed 10  0x0      default  0,0,0,0     0       0  auto\n"), "\(out.stdout)")
        #expect(out.stderr == "error: -:2: row 'a' already exists\n")
    }

    @Test func aLineThatIsNotUTF8FailsAloneWithItsNumber() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        try Data("new d\nadd a\u{1}".utf8 + [0xFF] + Array(" fixed 1\nadd b fixed 5\n".utf8)).write(to: URL(fileURLWithPath: dir + "/bad.sd"))
        let out = try await stackdoc(["--db", ":memory:", "bad.sd"], in: dir)
        #expect(out.status == 1)
        #expect(out.stderr == "error: 2: not UTF-8 text: byte 0xFF at column 7\n")
        #expect(out.stdout.contains("step 1: add b fixed 5"))
    }

    @Test func docSaysWhenItCreatesTheDocument() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        let first = try await stackdoc(["--db", "x.sqlite", "--doc", "feed"], stdin: "", in: dir)
        #expect(first.stdout == "created feed: 0 rows, vertical, viewport 390x844, content 390x844\n")
        let second = try await stackdoc(["--db", "x.sqlite", "--doc", "feed"], stdin: "", in: dir)
        #expect(second.stdout.isEmpty)
        let json = try await stackdoc(["--db", "x.sqlite", "--doc", "other", "--json"], stdin: "", in: dir)
        #expect(json.stdout.hasPrefix(#"{"ok":true,"command":"new other","#), "\(json.stdout)")
    }
}

extension StackDocCommand.Route {
    var isRoot: Bool {
        if case .root = self { return true }
        return false
    }
}
