import Foundation
import Testing
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// `read`, `output`, `once` and `timer` beyond the golden script: nested reads with paths
/// relative to the reading file, the depth limit, FILE:LINE errors, `--bail` and `quit` inside
/// a read, the database never written over, and `timer` off by default.
@Suite(.offThePool) struct ShellCommandTests {
    struct Run {
        var out: [String] = []
        var err: [String] = []
    }

    func run(_ script: String, in dir: String, json: Bool = false, bail: Bool = false, store: DocumentStore? = nil) throws -> (Run, BatchRunner) {
        let session = Session(store: try store ?? DocumentStore(path: ":memory:"), directory: dir)
        nonisolated(unsafe) var result = Run()
        var runner = BatchRunner(session: session, json: json, bail: bail, showFile: false,
                                 sink: Sink(out: { result.out.append($0) }, err: { result.err.append($0) }))
        _ = runner.run(text: script, file: nil)
        return (result, runner)
    }

    @Test func nestedReadsResolveAgainstTheReadingFileAndNameFileAndLine() throws {
        let dir = try Scratch.directory("shell")
        defer { Scratch.remove(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/lib/deeper", withIntermediateDirectories: true)
        try "add a fixed 10\nread deeper/inner.sd\nbogus\n".write(toFile: dir + "/lib/outer.sd", atomically: true, encoding: .utf8)
        try "add b fixed 20\nadd a\n".write(toFile: dir + "/lib/deeper/inner.sd", atomically: true, encoding: .utf8)
        let (r, runner) = try run("new d\nread lib/outer.sd\nrows\n", in: dir)
        #expect(runner.failed)
        #expect(r.err == ["lib/deeper/inner.sd:2: row 'a' already exists", "lib/outer.sd:3: unknown command 'bogus' (type 'help' for the list)"])
        #expect(r.out.contains { $0.hasPrefix("step 1: add a fixed 10\n  frames: a") })
        #expect(r.out.contains { $0.hasPrefix("step 2: add b fixed 20\n  frames: b") }, "one undo step per command: \(r.out)")
        #expect(r.out.last?.contains("b   -           1") == true, "\(r.out)")
    }

    @Test func aFileThatReadsItselfIsRefusedAsACycle() throws {
        let dir = try Scratch.directory("shell")
        defer { Scratch.remove(dir) }
        try "# reads itself\nread loop.sd\n".write(toFile: dir + "/loop.sd", atomically: true, encoding: .utf8)
        let (r, _) = try run("new d\nadd x\nread loop.sd\n", in: dir)
        #expect(r.err == ["loop.sd:2: read: loop.sd is already being read (loop.sd:2 → loop.sd)"])
        #expect(r.err.count == 1)
        #expect(r.out.contains { $0.hasPrefix("step 1: add x\n  frames: x") })
    }

    @Test func bailAndQuitInsideAReadStopTheRun() throws {
        let dir = try Scratch.directory("shell")
        defer { Scratch.remove(dir) }
        try "bogus\nadd after\n".write(toFile: dir + "/bad.sd", atomically: true, encoding: .utf8)
        try "quit\n".write(toFile: dir + "/quit.sd", atomically: true, encoding: .utf8)
        let (bailed, _) = try run("new d\nread bad.sd\nadd later\n", in: dir, bail: true)
        #expect(bailed.err == ["bad.sd:1: unknown command 'bogus' (type 'help' for the list)"])
        #expect(!bailed.out.joined().contains("after") && !bailed.out.joined().contains("later"))
        let (quit, _) = try run("new d\nread quit.sd\nadd later\n", in: dir)
        #expect(!quit.out.joined().contains("later"))
    }

    @Test func outputNeverWritesOverTheDatabase() throws {
        let dir = try Scratch.directory("shell")
        defer { Scratch.remove(dir) }
        let store = try DocumentStore(path: dir + "/db.sqlite")
        let (r, _) = try run("output db.sqlite\noutput db.sqlite-wal\nnew d\n", in: dir, store: store)
        #expect(r.err.count == 2)
        #expect(r.err.first?.contains("it is the open database") == true, "\(r.err)")
        #expect(r.out == ["created d: 0 rows, vertical, viewport 390x844, content 390x844"])
        #expect(try store.documentNames() == ["d"])
    }

    @Test func outputAndOnceWriteTheFilesAndTimerIsOffByDefault() throws {
        let dir = try Scratch.directory("shell")
        defer { Scratch.remove(dir) }
        let (r, runner) = try run("new d\noutput all.txt\nadd a fixed 10\nonce one.txt\nhit 1 1\nrows\noutput\nfind type view\n", in: dir)
        #expect(!runner.timer)
        #expect(r.out == ["created d: 0 rows, vertical, viewport 390x844, content 390x844", "hit 1 1: result written to 'one.txt'", "a"])
        let all = try String(contentsOfFile: dir + "/all.txt", encoding: .utf8)
        #expect(all.hasPrefix("step 1: add a fixed 10\n  frames: a\n"), "\(all)")
        #expect(all.contains("\nid  parent"), "\(all)")
        #expect(try String(contentsOfFile: dir + "/one.txt", encoding: .utf8) == "a\n")
    }

    @Test func timerTimesEachCommand() throws {
        let dir = try Scratch.directory("shell")
        defer { Scratch.remove(dir) }
        let (r, _) = try run("new d\ntimer on\nadd a\nrows\ntimer off\nrows\n", in: dir)
        let times = r.out.filter { $0.hasPrefix("time: ") }
        #expect(times.count == 2, "add and rows, not the shell's own commands: \(r.out)")
        #expect(times.first?.wholeMatch(of: #/time: \d+\.\d\d ms \(store and layout \d+\.\d\d ms\)/#) != nil, "\(times)")
        #expect(times.dropFirst().first?.wholeMatch(of: #/time: \d+\.\d\d ms/#) != nil, "\(times)")
        let (j, _) = try run("new d\ntimer on\nadd a\n", in: dir, json: true)
        #expect(j.out.last?.contains(#/"events":\[[^\]]*\],"ms":\d+\.\d\d\}$/#) == true, "\(j.out)")
    }
}
