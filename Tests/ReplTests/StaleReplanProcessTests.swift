import Foundation
import Layout
import Store
import StackDocScript
import StackDocTestSupport
import Testing

/// Issue 34, item 2 across processes: two `stackdoc --as` processes on one SQLite file. Bob
/// opens the document and waits; Alice (another process) edits r1; Bob, stale, edits r1 too:
/// refused naming Alice's step, Bob caught up. Alice edits r3; Bob, stale again, edits r2:
/// planned again on Alice's version and committed. The file then holds exactly what was
/// acknowledged, a replay of its log.
@Suite(.offThePool) struct StaleReplanProcessTests {
    /// A `stackdoc --json` process fed one batch of lines at a time.
    final class Replier {
        let process = Process()
        let input = Pipe(), output = Pipe()
        var pending = Data()

        init(_ exe: String, _ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: exe)
            process.arguments = arguments
            (process.standardInput, process.standardOutput, process.standardError) = (input, output, FileHandle.nullDevice)
            try process.run()
        }

        /// Sends `lines` and returns their replies (one JSON line each).
        func send(_ lines: [String]) -> [String] {
            input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            var replies: [String] = []
            while replies.count < lines.count {
                if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    replies.append(String(decoding: pending[..<newline], as: UTF8.self))
                    pending = Data(pending[(newline + 1)...])
                    continue
                }
                let more = output.fileHandleForReading.availableData
                if more.isEmpty { break }
                pending += more
            }
            return replies
        }

        func finish() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    @Test(.enabled(if: Binary.hasStackdoc, "the stackdoc binary is built with the tests"))
    func twoStackdocProcessesOnOneFile() throws {
        let exe = try #require(Binary.stackdoc)
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/shared.sqlite"
        func alice(_ script: String) throws {
            let run = try Binary.runBlocking(exe, ["--db", db, "--as", "alice"], stdin: script, timeout: 60)
            #expect(run.status == 0, "\(run.stderr)")
        }
        try alice("new d\nadd r1 r2 r3 fixed 40\n")
        let bob = try Replier(exe, ["--db", db, "--as", "bob", "--json"])
        defer { bob.finish() }
        #expect(bob.send(["open d"]).first?.contains(#""ok":true"#) == true)

        try alice("open d\nset r1 fixed 50\n")   // step 2
        let refused = bob.send(["set r1 fixed 80"])
        #expect(refused.first?.contains(#""ok":false"#) == true, "\(refused)")
        #expect(refused.first?.contains("conflict: step 2 by 'alice' changed row 'r1' field size since you read document 'd'; it is reloaded, nothing was written") == true,
                "\(refused)")

        try alice("open d\nset r3 fixed 60\n")   // step 3
        let replanned = bob.send(["set r2 fixed 70", "history"])
        #expect(replanned.first?.contains(#""ok":true"#) == true, "\(replanned)")
        #expect(replanned.last?.contains("bob") == true && replanned.last?.contains("set r2 fixed 70") == true, "\(replanned)")

        let stored = try DocumentStore(path: db).open("d")
        #expect(stored.document.config(of: "r1")?.size == .fixed(50))
        #expect(stored.document.config(of: "r2")?.size == .fixed(70))
        #expect(stored.document.config(of: "r3")?.size == .fixed(60))
        #expect(try stored.log().compactMap { entry in entry.edit.map { "\(entry.origin ?? "-") \(Printer.text($0))" } }
                == ["alice add r1 r2 r3 fixed 40", "alice set r1 fixed 50", "alice set r3 fixed 60", "bob set r2 fixed 70"])
        #expect(try stored.verify(replan: true) == [])
    }
}
