import Foundation
import Testing
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// `stackdoc` as a process: batch from files and pipes, exit status, --bail, --json, --db,
/// --doc, persistence between runs, and log export replayed through the binary.
@Suite(.serialized, .offThePool) struct CommandLineTests {
    func stackdoc(_ args: [String], stdin: String? = nil, in dir: String) async throws -> Binary.Result {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        return try await Binary.run(binary, args, stdin: stdin, directory: dir)
    }

    @Test func pipedBatchWritesTheDefaultDatabaseAndSurvivesRestarts() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try await stackdoc([], stdin: "new d\nadd a b fixed 10\n# comment\n\nadd a\n", in: dir)
        #expect(first.status == 1)
        #expect(first.stderr == "error: 5: row 'a' already exists\n")
        #expect(first.stdout.contains("step 1: add a b fixed 10"))
        #expect(FileManager.default.fileExists(atPath: dir + "/stackdoc.sqlite"))
        let second = try await stackdoc(["--doc", "d"], stdin: "undo\nhistory\n", in: dir)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("undone step 1: add a b fixed 10"))
        #expect(second.stdout.split(separator: "\n").contains { $0.hasPrefix("   1  undone ") && $0.hasSuffix("  add a b fixed 10") }, "\(second.stdout)")
    }

    @Test func bailStopsAtTheFirstError() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = "new d\nbogus\nadd a fixed 10\n"
        let go = try await stackdoc(["--db", ":memory:"], stdin: script, in: dir)
        #expect(go.status == 1)
        #expect(go.stdout.contains("step 1: add a"))
        let bail = try await stackdoc(["--db", ":memory:", "--bail"], stdin: script, in: dir)
        #expect(bail.status == 1)
        #expect(!bail.stdout.contains("step 1"))
        #expect(bail.stderr == "error: 2: unknown command 'bogus' (type 'help' for the list)\n")
    }

    @Test func jsonPrintsOneObjectPerCommand() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = try await stackdoc(["--db", ":memory:", "--json"], stdin: "new d viewport 100 100\n# no output\nadd a b fixed 76\nscroll 50\nadd a\n", in: dir)
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["ok"] != nil, "\(line)")
        }
        #expect(lines[2].contains(#""events":[{"row":"a","from":"entire","to":"partial"},{"row":"b","from":"offscreen","to":"partial"}]"#), "\(lines[2])")
        #expect(lines[3] == #"{"ok":false,"error":"row 'a' already exists","line":5}"#)
        #expect(out.stderr == "error: 5: row 'a' already exists\n")
    }

    @Test func severalScriptsRunInOrderAndNameTheFile() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "new d\nadd a fixed 10\n".write(toFile: dir + "/one.sd", atomically: true, encoding: .utf8)
        try "add a fixed 10\nrows\n".write(toFile: dir + "/two.sd", atomically: true, encoding: .utf8)
        let out = try await stackdoc(["--db", ":memory:", "one.sd", "two.sd"], in: dir)
        #expect(out.status == 1)
        #expect(out.stderr == "error: two.sd:1: row 'a' already exists\n")
        #expect(out.stdout.hasSuffix("a   -           0  view  fixed 10  0x0      default  0,0,0,0     0       0  auto\n"))
        let missing = try await stackdoc(["--db", ":memory:", "nope.sd"], in: dir)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: cannot read 'nope.sd': No such file or directory\n")
    }

    // Bad database files through the binary: Tests/FuzzTests/CorruptFileCLITests.swift.

    @Test func logExportReplaysThroughTheBinary() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = """
            new d viewport 300 200
            add a b c fixed 50
            add s stack horizontal at 1
            add s1 content 20 20 in s
            begin tidy
            set b fixed 10
            hide c
            commit
            undo
            redo
            scroll 40
            export original.json
            log export d.sd
            """
        let first = try await stackdoc(["--db", "one.sqlite"], stdin: script, in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let replay = try await stackdoc(["--db", ":memory:", "d.sd"], stdin: nil, in: dir)
        #expect(replay.status == 0, "\(replay.stderr)")
        let rebuilt = try await stackdoc(["--db", ":memory:"], stdin: try String(contentsOfFile: dir + "/d.sd", encoding: .utf8) + "\nexport rebuilt.json\n", in: dir)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let a = try String(contentsOfFile: dir + "/original.json", encoding: .utf8)
        let b = try String(contentsOfFile: dir + "/rebuilt.json", encoding: .utf8)
        #expect(a == b)
    }
}

@Suite(.offThePool) struct BatchRunnerTests {
    @Test func byteOrderMarkAndCRLFLinesAreFine() throws {
        let session = Session(store: try Store.DocumentStore(path: ":memory:"))
        var out: [String] = []
        var runner = BatchRunner(session: session, json: false, bail: false, showFile: false,
                                 sink: Sink(out: { out.append($0) }, err: { out.append("error: " + $0) }))
        _ = runner.run(text: "\u{FEFF}new d\r\nadd a fixed 10\r\n", file: nil)
        #expect(!runner.failed, "\(out)")
        #expect(out.first == "created d: 0 rows, vertical, viewport 390x844, content 390x844")
    }
}
