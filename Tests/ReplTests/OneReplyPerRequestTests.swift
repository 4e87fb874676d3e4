import Foundation
import Testing
import Store
import OrderStatistics
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 35 items 2, 6 and 8: a client that sends one request and waits for its reply gets it,
/// whatever the request: inside a `begin … commit` group (whose batching read ahead and held
/// the reply until the next line came) and around `once`/`output` (which sent their own reply,
/// and with `--json` every reply after them, into the file).
@Suite(.serialized, .offThePool) struct OneReplyPerRequestTests {
    typealias CoProcess = ReplyFlushTests.CoProcess

    /// How long a reply may take before the test calls it held back (a hang otherwise).
    static let timeout = 20.0

    @Test(arguments: [false, true]) func eachEditInAGroupIsAnsweredBeforeTheNextLineComes(json: Bool) throws {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let child = try CoProcess(binary, ["--db", "g.sqlite"] + (json ? ["--json"] : []), directory: dir)
        defer { child.finish() }
        // Text replies of several lines: each request waits for a line naming it.
        let requests = [("new g", "created g"), ("begin tidy", "tidy"), ("add a fixed 10", "add a fixed 10"),
                        ("add b fixed 20", "add b fixed 20"), ("add c fixed 5", "add c fixed 5"), ("commit", "step 1: tidy (3 operations)")]
        for (request, mark) in requests {
            child.send(request)
            var found = false
            while !found, let line = child.readLine(timeout: Self.timeout) {
                found = json ? line.contains(#""command":"\#(request)""#) : line.contains(mark)
            }
            #expect(found, "no reply to '\(request)' within \(Self.timeout) s (json: \(json))")
            if !found { return }
        }
    }

    /// `once` and `output` answer on standard output; `once` sends exactly the next result to
    /// its file, and that command is acknowledged on standard output.
    @Test func onceAndOutputAnswerOnStandardOutput() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for json in [false, true] {
            let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
            nonisolated(unsafe) var out: [String] = [], err: [String] = []
            var runner = BatchRunner(session: session, json: json, bail: false, showFile: false,
                                     sink: Sink(out: { out.append($0) }, err: { err.append($0) }))
            _ = runner.run(lines: ["new d", "once once.txt", "status", "docs", "output out.txt", "rows", "bogus", "output"], file: nil)
            let once = try FileIO.read(dir + "/once.txt")
            let output = try FileIO.read(dir + "/out.txt")
            if json {
                try #require(out.count == 8, "one line per request: \(out)")
                #expect(out[1].hasPrefix(#"{"ok":true,"command":"once once.txt""#), "\(out[1])")
                #expect(out[2] == #"{"ok":true,"command":"status","result":{"writtenTo":"once.txt"},"events":[]}"#)
                #expect(out[3].hasPrefix(#"{"ok":true,"command":"docs""#), "\(out[3])")
                #expect(out[4].hasPrefix(#"{"ok":true,"command":"output out.txt""#), "\(out[4])")
                #expect(out[5] == #"{"ok":true,"command":"rows","result":{"writtenTo":"out.txt"},"events":[]}"#)
                #expect(out[6].hasPrefix(#"{"ok":false"#), "\(out[6])")
                #expect(out[7].hasPrefix(#"{"ok":true,"command":"output""#), "\(out[7])")
                #expect(once.hasPrefix(#"{"ok":true,"command":"status""#) && once.filter { $0 == "\n" }.count == 1, "\(once)")
                #expect(output.hasPrefix(#"{"ok":true,"command":"rows""#) && output.filter { $0 == "\n" }.count == 1, "\(output)")
            } else {
                #expect(out.first?.hasPrefix("created d") == true)
                #expect(Array(out.dropFirst(1).prefix(1)) == ["status: result written to 'once.txt'"], "\(out)")
                #expect(out.count == 3 && out[2].hasPrefix("name  rows"), "\(out)")  // docs; rows went to out.txt
                #expect(once.hasPrefix("database"), "\(once)")
                #expect(output == "(no rows)\n", "\(output)")
            }
            #expect(err.count == 1 && err.first?.hasPrefix("7: unknown command 'bogus'") == true, "\(err)")
        }
    }

    // MARK: The property: a co-process driven one request at a time

    /// The requests a client may send: edits, groups, queries, `once`, `output`, bad lines.
    static func request(_ random: inout SplitMix64, rows: inout Int) -> String {
        switch random.int(0..<16) {
        case 0: return "begin"
        case 1: return random.chance(2) ? "commit" : "rollback"
        case 2: return "once once\(random.int(0..<3)).txt"
        case 3: return random.chance(2) ? "output out.txt" : "output"
        case 4: return "status"
        case 5: return "rows"
        case 6: return random.chance(2) ? "undo" : "redo"
        case 7: return "bogus \(random.int(0..<9))"
        case 8: return "set r\(random.int(0..<max(rows, 1))) fixed \(random.int(1..<50))"
        case 9: return "remove r\(random.int(0..<max(rows, 1)))"
        case 10: return "history"
        default:
            rows += 1
            return "add r\(rows - 1) fixed \(random.int(1..<50))"
        }
    }

    /// Every request gets exactly one reply line, by itself (nothing sent after it), and that
    /// reply is its own: a success naming the command, or a failure naming its line.
    @Test(.enabled(if: Binary.hasStackdoc)) func everyRequestIsAnsweredByItself() throws {
        let binary = try #require(Binary.stackdoc)
        for seed in 0..<3 {
            let dir = try Binary.scratchDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let child = try CoProcess(binary, ["--db", "p.sqlite", "--json"], directory: dir)
            defer { child.finish() }
            var random = SplitMix64(seed: UInt64(seed))
            var rows = 0
            var sent = ["new d"] + (0..<3).map { "add r\($0) fixed 10" }
            rows = 3
            while sent.count < 80 { sent.append(Self.request(&random, rows: &rows)) }
            for (i, request) in sent.enumerated() {
                child.send(request)
                guard let reply = child.readLine(timeout: Self.timeout) else {
                    Issue.record("seed \(seed): no reply to request \(i + 1) '\(request)' within \(Self.timeout) s; sent: \(sent[...i])")
                    return
                }
                let object = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any], "\(reply)")
                if object["ok"] as? Bool == true {
                    let canonical = try Parser.parse(request).map(Printer.text)
                    #expect(object["command"] as? String == canonical, "seed \(seed), request \(i + 1) '\(request)': \(reply)")
                } else {
                    #expect(object["line"] as? Int == i + 1, "seed \(seed), request \(i + 1) '\(request)': \(reply)")
                }
            }
            // Nothing more came than one line per request.
            try? child.input.fileHandleForWriting.close()
            #expect(child.remainingLines().isEmpty, "seed \(seed): lines after the last reply")
        }
    }
}
