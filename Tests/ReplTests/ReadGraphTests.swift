import Foundation
import Testing
import Store
import OrderStatistics
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 35 items 4 and 8: a script that `read`s a script already being read is refused at once
/// with one error naming the cycle (it used to be read again until the depth limit: 3¹⁶ reads
/// for three lines `read self3.sd`); a diamond (two files reading a third) is no cycle.
@Suite(.offThePool) struct ReadGraphTests {
    /// Runs `lines` at the top level of a JSON runner in `dir`: standard output and errors.
    static func run(_ lines: [String], in dir: String) throws -> (out: [String], err: [String]) {
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        nonisolated(unsafe) var out: [String] = [], err: [String] = []
        var runner = BatchRunner(session: session, json: true, bail: false, showFile: false,
                                 sink: Sink(out: { out.append($0) }, err: { err.append($0) }))
        // A run that multiplies (a cycle read again and again) is stopped after 20 s, and fails
        // the test instead of hanging it.
        let deadline = Date().addingTimeInterval(20)
        runner.interrupted = { Date() > deadline }
        _ = runner.run(lines: lines, file: nil)
        return (out, err)
    }

    @Test func aScriptThatReadsItselfFailsAtOnceNamingTheCycle() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "read self3.sd\nread self3.sd\nread self3.sd\n".write(toFile: dir + "/self3.sd", atomically: true, encoding: .utf8)
        let (_, err) = try Self.run(["read self3.sd"], in: dir)
        #expect(err == (1...3).map { "self3.sd:\($0): read: self3.sd is already being read (self3.sd:\($0) → self3.sd)" })
    }

    /// Through two files and through another spelling of the path (`./a.sd`): one file, one cycle.
    @Test func aCycleThroughTwoFilesIsNamedWholeHoweverThePathIsSpelt() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "# a\nread b.sd\n".write(toFile: dir + "/a.sd", atomically: true, encoding: .utf8)
        try "read ./a.sd\n".write(toFile: dir + "/b.sd", atomically: true, encoding: .utf8)
        let (_, err) = try Self.run(["read a.sd"], in: dir)
        #expect(err == ["b.sd:1: read: ./a.sd is already being read (a.sd:2 → b.sd:1 → ./a.sd)"])
    }

    /// The top-level script given to `stackdoc` counts as being read: the binary reports the
    /// cycle at once (it was killed after 60 s with two million error lines).
    @Test(.enabled(if: Binary.hasStackdoc)) func theBinaryStopsASelfReadingScriptAtOnce() async throws {
        let binary = try #require(Binary.stackdoc)
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "read self3.sd\nread self3.sd\nread self3.sd\n".write(toFile: dir + "/self3.sd", atomically: true, encoding: .utf8)
        let result = try await Binary.run(binary, ["--db", ":memory:", "self3.sd"], directory: dir, timeout: 60)
        #expect(result.status == 1)
        #expect(result.stderr == (1...3).map { "error: \($0): read: self3.sd is already being read (self3.sd:\($0) → self3.sd)\n" }.joined())
    }

    // MARK: The property: random read graphs against a model

    /// A graph of script files: file i's lines, each `read fJ.sd` (J may name a missing file)
    /// or a comment.
    struct Graph: CustomStringConvertible {
        var files: [[Int?]]  // nil: a comment line
        var description: String {
            files.enumerated().map { i, lines in "f\(i): " + lines.map { $0.map { "f\($0)" } ?? "#" }.joined(separator: " ") }.joined(separator: "; ")
        }

        /// What the runner must give, from `read f0.sd` at the top: the errors, and the files
        /// whose `read` completed, in the order their replies come.
        func expected(existing: Int) -> (err: [String], completed: [String]) {
            var err: [String] = [], completed: [String] = []
            var stack: [(file: Int, line: Int)] = []
            func read(_ file: Int) {
                stack.append((file, 0))
                for (n, line) in files[file].enumerated() {
                    stack[stack.count - 1].line = n + 1
                    guard let target = line else { continue }
                    let place = "f\(file).sd:\(n + 1)"
                    if target >= existing {
                        err.append("\(place): cannot read 'f\(target).sd': No such file or directory")
                    } else if let start = stack.firstIndex(where: { $0.file == target }) {
                        let chain = stack[start...].map { "f\($0.file).sd:\($0.line)" } + ["f\(target).sd"]
                        err.append("\(place): read: f\(target).sd is already being read (\(chain.joined(separator: " → ")))")
                    } else {
                        read(target)
                    }
                }
                stack.removeLast()
                completed.append("f\(file).sd")
            }
            read(0)
            return (err, completed)
        }
    }

    /// Cycles, self-reads, diamonds and missing files, against the model; each run ends at once
    /// (at most one read per path through the graph, never a re-read of a running file).
    @Test func randomReadGraphsAgreeWithTheModel() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var sawCycle = false, sawDiamond = false, sawMissing = false
        for seed in 0..<60 {
            var random = SplitMix64(seed: UInt64(seed))
            let existing = random.int(1..<6)
            var graph = Graph(files: [])
            for _ in 0..<existing {
                graph.files.append((0..<random.int(0..<5)).map { _ in random.chance(4) ? nil : random.int(0..<(existing + 1)) })
            }
            for i in 0..<6 { unlink(dir + "/f\(i).sd") }
            for (i, lines) in graph.files.enumerated() {
                let text = lines.map { $0.map { "read f\($0).sd" } ?? "# comment" }.joined(separator: "\n") + "\n"
                try text.write(toFile: dir + "/f\(i).sd", atomically: true, encoding: .utf8)
            }
            let expected = graph.expected(existing: existing)
            let (out, err) = try Self.run(["read f0.sd"], in: dir)
            #expect(err == expected.err, "seed \(seed): \(graph)")
            let completed = out.compactMap { line -> String? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let result = object["result"] as? [String: Any] else { return nil }
                return result["read"] as? String
            }
            #expect(completed == expected.completed, "seed \(seed): \(graph)")
            // Every line of standard output is one reply: a completed read or a failure.
            #expect(out.count == expected.completed.count + expected.err.count, "seed \(seed): \(graph)")
            sawCycle = sawCycle || expected.err.contains { $0.contains("already being read") }
            sawMissing = sawMissing || expected.err.contains { $0.contains("No such file") }
            sawDiamond = sawDiamond || Set(expected.completed).count < expected.completed.count
        }
        #expect(sawCycle && sawDiamond && sawMissing, "the seeds cover cycles, diamonds and missing files")
    }
}
