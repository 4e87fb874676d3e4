import Foundation
import Glibc
import OrderStatistics
import Store
import StackDocTestSupport
import Testing

/// The `store-torture` processes the multi-process tests start (`ProcessTests` on SQLite files,
/// `PostgreSQLProcessTests` on a server), and the shape both run: two writers racing on one
/// document.
enum StoreTortureProcesses {
    static let executable = builtExecutable("store-torture")

    /// Starts `store-torture ARGS` with its standard output in a pipe.
    static func launch(_ args: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        try process.run()
        return (process, out)
    }

    /// Starts `store-torture ARGS`, waits until its output holds `marker`, SIGKILLs it after a
    /// random delay of up to `within` µs, and returns everything it printed.
    static func killed(_ args: [String], after marker: String, within: UInt32, rng: inout SplitMix64) throws -> String {
        let (process, out) = try launch(args)
        let reader = out.fileHandleForReading
        var output = Data()
        while !String(decoding: output, as: UTF8.self).contains(marker) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
        }
        usleep(UInt32.random(in: 0...within, using: &rng))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        output.append(reader.readDataToEndOfFile())
        return String(decoding: output, as: UTF8.self)
    }

    /// How far a killed process got, from the progress lines it printed: the last `b N` (the
    /// N-th operation began) and the last `d N` (the N-th was acknowledged), 0 when none.
    static func progress(_ output: String) -> (begun: Int, done: Int) {
        let lines = output.split(separator: "\n")
        func last(_ prefix: String) -> Int { lines.last { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(2)) } ?? 0 }
        return (last("b "), last("d "))
    }

    /// Two processes adding `n` rows each to the document `shared` of `db` (a file or a server
    /// URI, created here) at once: both finish, both were refused as stale at least once and
    /// retried, and every row of both is there — each process's in its own order — logged once
    /// each, and the document verifies.
    static func expectTwoWritersLoseNothing(db: String, n: Int, label: String) throws {
        #expect(FileManager.default.isExecutableFile(atPath: executable), "missing \(executable)")
        try DocumentStore(url: db).create("shared")
        let a = try launch(["race", db, "shared", "a", "\(n)"])
        let b = try launch(["race", db, "shared", "b", "\(n)"])
        let outA = String(decoding: a.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let outB = String(decoding: b.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        a.0.waitUntilExit()
        b.0.waitUntilExit()
        #expect(a.0.terminationStatus == 0 && b.0.terminationStatus == 0)
        #expect(outA.hasPrefix("stale ") && outB.hasPrefix("stale "))
        print("\(label): a \(outA.trimmingCharacters(in: .whitespacesAndNewlines)), b \(outB.trimmingCharacters(in: .whitespacesAndNewlines))")
        let doc = try DocumentStore(url: db).open("shared")
        let ids = doc.document.children(of: nil)
        #expect(ids.count == 2 * n)
        #expect(Set(ids) == Set((0..<n).map { "a\($0)" } + (0..<n).map { "b\($0)" }))
        #expect(ids.filter { $0.hasPrefix("a") } == (0..<n).map { "a\($0)" })
        #expect(try doc.log().count == 2 * n + 1)
        #expect(try doc.verify() == [])
    }
}
