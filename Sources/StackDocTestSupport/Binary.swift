import Foundation

/// Finding and running the package's built executables (`stackdoc`, `store-torture`) from a test.
public enum Binary {
    /// The package's root directory (this file is Sources/StackDocTestSupport/Binary.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built executable `name` next to the test bundle (or in .build/debug), or nil when
    /// it is not built.
    public static func path(_ name: String) -> String? {
        var candidates: [URL] = []
        if let exe = Bundle.main.executableURL { candidates.append(exe.deletingLastPathComponent()) }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for dir in candidates {
            var d = dir
            for _ in 0..<4 {
                let path = d.appendingPathComponent(name).path
                if FileManager.default.isExecutableFile(atPath: path) { return path }
                d = d.deletingLastPathComponent()
            }
        }
        return nil
    }

    /// The `stackdoc` executable, or nil when it is not built.
    public static var stackdoc: String? { path("stackdoc") }

    /// Whether `stackdoc` is built (for `.enabled(if:)`).
    public static var hasStackdoc: Bool { stackdoc != nil }

    /// What a finished process left.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// Wall time from start to exit.
        public var seconds: Double = 0
    }

    /// Runs `executable` with `arguments` in `directory`, feeding `stdin` through a pipe. With
    /// `timeout`, a process still running after that many seconds is killed (status 9).
    ///
    /// The wait for the process is on a thread of its own (`TestThread`): the calling test is
    /// suspended, and the cooperative threads stay free for the other tests meanwhile.
    public static func run(_ executable: String, _ arguments: [String], stdin: String? = nil, directory: String? = nil,
                           environment: [String: String] = [:], timeout: Double? = nil) async throws -> Result {
        try await TestThread.run {
            try runBlocking(executable, arguments, stdin: stdin, directory: directory, environment: environment,
                            timeout: timeout)
        }
    }

    /// `run(_:_:stdin:directory:environment:timeout:)` on the calling thread, blocking it until the
    /// process exits: for code that already runs on a thread of its own.
    public static func runBlocking(_ executable: String, _ arguments: [String], stdin: String? = nil,
                                   directory: String? = nil, environment: [String: String] = [:],
                                   timeout: Double? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        let start = Date()
        try process.run()
        let finished = NSLock()
        nonisolated(unsafe) var exited = false
        if let timeout {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                finished.withLock { if !exited { kill(pid, SIGKILL) } }
            }
        }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes fully before waiting (a full pipe would block the child).
        // The reader hands its data over under a lock (ThreadSanitizer: polling `isFinished`
        // orders nothing, so reading `errData` after it was a data race).
        let errRead = NSCondition()
        nonisolated(unsafe) var errBytes: Data?
        let reader = Thread {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errRead.withLock { errBytes = data; errRead.signal() }
        }
        reader.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        finished.withLock { exited = true }
        let errData = errRead.withLock {
            while errBytes == nil { errRead.wait() }
            return errBytes ?? Data()
        }
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), seconds: Date().timeIntervalSince(start))
    }

    /// A new scratch directory for a binary's files (`Scratch.directory("cli")`).
    public static func scratchDirectory() throws -> String { try Scratch.directory("cli") }
}
