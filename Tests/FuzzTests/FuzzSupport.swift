import Foundation
import Layout
import OrderStatistics
import Testing
import StackDocTestSupport

/// The fuzz run's settings, shared by every fuzz suite.
///
/// - `STACKDOC_FUZZ_COUNT=N`: total inputs of the run, split between the suites by `share`
///   (default 100,000: the CI run, well under a minute in a debug build).
/// - `STACKDOC_FUZZ_SEED=S`: the seed (default 0x5EED); every failure message names it.
/// - `STACKDOC_FUZZ_LIMIT=SECONDS`: the CPU-time limit per input (default 5 s; a debug build
///   parses a line in microseconds and runs a command in about a millisecond; the slowest
///   executor input, the first write of a reopened session with its `quick_check`, takes 0.85 s.
///   It was a wall-clock limit until wall times of 5–6 s at load 17–20 failed it; the watchdog
///   still ends a hang after `limit × 15` seconds of wall time).
///
/// Long run: `STACKDOC_FUZZ_COUNT=1000000 STACKDOC_FUZZ_SEED=7 swift test -c release --filter FuzzTests`.
enum Fuzz {
    static let environment = ProcessInfo.processInfo.environment
    static let total = Int(environment["STACKDOC_FUZZ_COUNT"] ?? "") ?? 100_000
    static let seed = UInt64(environment["STACKDOC_FUZZ_SEED"] ?? "") ?? 0x5EED
    static let limit = Double(environment["STACKDOC_FUZZ_LIMIT"] ?? "") ?? 5

    /// Inputs for one suite: `fraction` of the total, at least `minimum`.
    static func share(_ fraction: Double, minimum: Int = 100) -> Int { max(minimum, Int(Double(total) * fraction)) }

    /// The generator of one suite (`salt` keeps the suites' streams apart).
    static func rng(_ salt: UInt64) -> SplitMix64 { SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D &+ salt) }

    /// Where an input is in the run, for failure messages.
    static func here(_ suite: String, _ input: Int, _ text: String) -> Comment {
        let shown = text.count > 300 ? String(text.prefix(300)) + "… (\(text.utf8.count) bytes)" : text
        return Comment(rawValue: "\(suite): STACKDOC_FUZZ_SEED=\(seed) STACKDOC_FUZZ_COUNT=\(total) input \(input): \(shown.debugDescription)")
    }

    /// Runs `body` and returns the CPU time this thread spent in it, in seconds. CPU time, not
    /// wall time: on a loaded machine (parallel builds on two cores) an input's wall time grows
    /// with the load while its CPU time measures its own work; a hang is ended by the watchdog.
    static func timed(_ body: () throws -> Void) rethrows -> Double {
        let start = threadCPUNanoseconds()
        try body()
        return Double(threadCPUNanoseconds() - start) / 1e9
    }

    /// The calling thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
    private static func threadCPUNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// The fuzz statistics line printed at the end of a suite (shows in the long run's log).
    static func report(_ suite: String, inputs: Int, _ counts: KeyValuePairs<String, Int>, slowest: Double, at: Int, seconds: Double) {
        let parts = counts.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("fuzz \(suite): seed \(seed), \(inputs) inputs (\(parts)), slowest \(String(format: "%.4f", slowest)) s (input \(at)), total \(String(format: "%.1f", seconds)) s")
    }
}

/// Words that break naive parsers, number readers and SQL builders.
enum Hostile {
    static let words = [
        "1e308", "-1e308", "1e309", "-0", "NaN", "nan", "inf", "-inf", "infinity", "1e-300", "5e-324",
        "99999999999999999999999", "-99999999999999999999", "0x1p3", "1_000", "+5", ".5", "5.", ".", "e5", "1e", "--1",
        String(repeating: "x", count: 10_000), "a;b", "a'b", "a\"b", "\"", "'", "\\", "#", "#C6C6C8", "#zzzzzz",
        "ünïcödé", "😀", "\u{0}", "\u{200B}", "\u{FEFF}", "top", "in", "at", "stack", "\"\"", "''", "\"a b\"", "\\u{41}",
        "\"\\u{110000}\"", "\"\\q\"", "0..0", "5..2", "1..", "..2", "--visible", "--range", "'; DROP TABLE row; --",
        "\"a'; DROP TABLE document; --\"", "1000000000", "1000000001", "-1", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "0", "1", "2", "a", "b", "s", "s1",
    ]
    static let alphabet = Array("ab09 .-_#\"'\\\t{}u;😀é\u{0}".unicodeScalars)
}

/// Turns a hang into a failure that names the input: a thread that checks the input being run
/// every second and, when one has run for `Fuzz.limit × 15` seconds, prints the suite, seed,
/// input number and text and ends the test process (a hung input would never return to have its
/// time measured).
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var current: (input: Int, text: String, start: UInt64)?
    private var stopped = false
    private let suite: String

    init(_ suite: String) {
        self.suite = suite
        let thread = Thread { [weak self] in
            while let self, !self.isStopped {
                self.check()
                Thread.sleep(forTimeInterval: 1)
            }
        }
        thread.start()
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func check() {
        lock.lock()
        defer { lock.unlock() }
        guard let current else { return }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - current.start) / 1e9
        guard seconds > Fuzz.limit * 15 else { return }
        FileHandle.standardError.write(Data("\(Fuzz.here("\(suite): HUNG for \(Int(seconds)) s", current.input, current.text).rawValue)\n".utf8))
        exit(3)
    }

    /// Marks the start of input `input`.
    func begin(_ input: Int, _ text: @autoclosure () -> String) {
        let t = text()
        lock.withLock { current = (input, t, DispatchTime.now().uptimeNanoseconds) }
    }

    /// Stops watching (at the end of the suite).
    func stop() { lock.withLock { stopped = true; current = nil } }
}
