import Foundation
import Testing
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 9 item 7: with standard output on a pipe, each command's reply is written when the
/// command completes (no block buffering), so a client can drive `stackdoc --json` one request
/// at a time, and a SIGKILL never loses the reply of a command that was committed before it.
@Suite(.serialized, .longRunning) struct ReplyFlushTests {
    /// A running `stackdoc` with pipes on standard input and output.
    final class CoProcess {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        private var buffer: [UInt8] = []

        init(_ binary: String, _ arguments: [String], directory: String) throws {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func send(_ line: String) {
            input.fileHandleForWriting.write(Data((line + "\n").utf8))
        }

        /// The next line of standard output, or nil when none arrives within `timeout` seconds
        /// (or the output ends).
        func readLine(timeout: Double = 10) -> String? {
            let fd = output.fileHandleForReading.fileDescriptor
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return line
                }
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return nil }
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, Int32(max(1, left * 1000)))
                guard ready > 0 else { if ready < 0 && errno == EINTR { continue }; return nil }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { return nil }
                buffer.append(contentsOf: chunk[..<n])
            }
        }

        /// Every line left on standard output after the process ended.
        func remainingLines() -> [String] {
            var lines: [String] = []
            while let line = readLine(timeout: 2) { lines.append(line) }
            return lines
        }

        func finish() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    @Test func aClientReadsOneReplyPerRequest() throws {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let child = try CoProcess(binary, ["--db", "co.sqlite", "--json"], directory: dir)
        defer { child.finish() }
        let requests = ["new d", "add a b fixed 10", "set a fixed 20", "undo 1", "status", "rows", "bogus", "history"]
        for (i, request) in requests.enumerated() {
            child.send(request)
            let reply = try #require(child.readLine(), "no reply to '\(request)' (request \(i + 1)) within 10 s")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any], "\(reply)")
            #expect((object["ok"] as? Bool) == (request != "bogus"), "\(request): \(reply)")
            if request != "bogus" { #expect(object["command"] as? String == request, "\(reply)") }
        }
    }

    @Test func textModeRepliesArriveOneCommandAtATime() throws {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let child = try CoProcess(binary, ["--db", ":memory:"], directory: dir)
        defer { child.finish() }
        child.send("new d")
        #expect(child.readLine()?.hasPrefix("created d: 0 rows") == true)
        child.send("add a fixed 10")
        #expect(child.readLine() == "step 1: add a fixed 10")
        #expect(child.readLine() == "  frames: a")
    }

    /// Commands are sent in a burst; once the database shows them all committed, the process
    /// is killed. The reply of every committed command was received (with block buffering they
    /// all sat in the process's buffer and were lost).
    @Test func aSIGKILLLosesNoReplyOfACommittedCommand() throws {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let child = try CoProcess(binary, ["--db", "kill.sqlite", "--json"], directory: dir)
        let count = 12
        child.send((["new d"] + (1...count).map { "add r\($0) fixed 10" }).joined(separator: "\n"))
        // Wait (at most 20 s) until a second process sees every command committed.
        var committed = 0
        let deadline = Date().addingTimeInterval(20)
        while committed < count, Date() < deadline {
            usleep(20_000)
            if let store = try? DocumentStore(path: dir + "/kill.sqlite"), let doc = try? store.open("d") { committed = doc.cursor }
        }
        #expect(committed == count)
        usleep(200_000)  // the last commit's reply is written right after it
        kill(child.process.processIdentifier, SIGKILL)
        child.process.waitUntilExit()
        let replies = child.remainingLines()
        try? child.input.fileHandleForWriting.close()
        #expect(replies.count == count + 1, "\(committed) commands committed, \(replies.count) replies received")
        #expect(replies.first?.contains(#""command":"new d""#) == true)
        for (i, reply) in replies.dropFirst().enumerated() {
            #expect(reply.hasPrefix(#"{"ok":true"#) && reply.contains(#""command":"add r\#(i + 1) fixed 10""#), "\(reply)")
        }
    }

    /// The replies of edits inside an `import begin` block may wait in the output buffer (they
    /// store nothing), but never from a client that waits for them: standard output is flushed
    /// before standard input is read again.
    @Test(arguments: [false, true]) func importBlockRepliesArriveOneCommandAtATime(json: Bool) throws {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let child = try CoProcess(binary, ["--db", ":memory:"] + (json ? ["--json"] : []), directory: dir)
        defer { child.finish() }
        // A failing line answers on standard output only in JSON mode (text: standard error).
        let requests = ["import begin big", "add r0 fixed 183", "add r1 r2 fixed 48"] + (json ? ["add r1"] : []) + ["add r3 fixed 26", "import commit"]
        for request in requests {
            child.send(request)
            let reply = try #require(child.readLine(), "no reply to '\(request)' within 10 s")
            switch request {
            case "add r1": #expect(reply.hasPrefix(#"{"ok":false"#), "\(reply)")
            case _ where request.hasPrefix("add"):
                #expect(reply.contains(json ? #""command":"\#(request)""# : "pending in import big: \(request)"), "\(reply)")
            case "import commit": #expect(reply.contains(json ? #""rows":4"# : "imported big: 4 rows"), "\(reply)")
            default: break
            }
        }
    }

    /// A script run with standard output and standard error on one pipe: the held replies of an
    /// import block come out in order with the errors between them, and all of them by exit.
    @Test func heldRepliesKeepTheirOrderWithErrors() throws {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var script = ["import begin big"]
        for i in 0..<3000 { script.append(i == 1500 ? "add r0" : "add r\(i) fixed \(i % 7 + 1)") }
        script.append("import commit")
        try (script.joined(separator: "\n") + "\n").write(toFile: dir + "/s.sd", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--db", ":memory:", "s.sd"]
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(process.terminationStatus == 1)
        #expect(lines.count == 3002, "\(lines.count) lines")  // begun, 2999 pending, 1 error, imported
        #expect(lines.first == "import of big begun: edits build it until 'import commit'")
        #expect(lines[1500] == "pending in import big: add r1499 fixed \(1499 % 7 + 1)")
        #expect(lines[1501] == "error: 1502: row 'r0' already exists", "\(lines[1501])")
        #expect(lines[1502] == "pending in import big: add r1501 fixed \(1501 % 7 + 1)")
        #expect(lines.last?.hasPrefix("imported big: 2999 rows") == true, "\(lines.last ?? "")")
    }
}
