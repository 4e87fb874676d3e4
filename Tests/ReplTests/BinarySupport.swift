import Foundation
import Testing

/// Finding and running the built `stackdoc` binary.
enum Binary {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `stackdoc` executable next to the test bundle (or in .build/debug).
    static var stackdoc: String? {
        var candidates: [URL] = []
        if let exe = Bundle.main.executableURL { candidates.append(exe.deletingLastPathComponent()) }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for dir in candidates {
            var d = dir
            for _ in 0..<4 {
                let path = d.appendingPathComponent("stackdoc").path
                if FileManager.default.isExecutableFile(atPath: path) { return path }
                d = d.deletingLastPathComponent()
            }
        }
        return nil
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Wall time from start to exit.
        var seconds: Double = 0
    }

    /// Runs `executable` with `arguments` in `directory`, feeding `stdin` through a pipe. With
    /// `timeout`, a process still running after that many seconds is killed (status 9).
    static func run(_ executable: String, _ arguments: [String], stdin: String? = nil, directory: String? = nil,
                    environment: [String: String] = [:], timeout: Double? = nil) throws -> Result {
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

    static func scratchDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/stackdoc-cli-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        return String(cString: made)
    }
}
