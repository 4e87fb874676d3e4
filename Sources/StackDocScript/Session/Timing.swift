import Foundation

/// `STACKDOC_TIMING=1` prints where a change's time went (store, layout, diff) to standard
/// error: the numbers behind docs/repl.md's scale notes. `STACKDOC_TIMING=cpu` prints the
/// process's CPU time instead of wall time (the figure to compare on a loaded machine).
/// `timer on` prints them as a command.
public enum Timing {
    static let mode = ProcessInfo.processInfo.environment["STACKDOC_TIMING"]
    static let enabled = mode == "1" || mode == "cpu"

    /// Seconds on a monotonic clock (the process's CPU time under `STACKDOC_TIMING=cpu`).
    public static func now() -> Double {
        guard mode == "cpu" else { return Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Milliseconds with two decimals (`1.92`): the one way times are written.
    public static func milliseconds(_ ms: Double) -> String { String(format: "%.2f", ms) }

    static func report(_ phases: KeyValuePairs<String, Double>) {
        guard enabled else { return }
        let text = phases.map { "\($0.key) \(String(format: "%.1f", $0.value * 1000)) ms" }.joined(separator: ", ")
        FileHandle.standardError.write(Data(("timing: " + text + "\n").utf8))
    }

    /// `timer on`'s line: `time: 1.92 ms`, with the phases of a change
    /// (`time: 1.92 ms (store and layout 1.41 ms)`).
    public static func line(seconds: Double, phases: [(phase: String, seconds: Double)]) -> String {
        let parts = phases.map { "\($0.phase) \(milliseconds($0.seconds * 1000)) ms" }
        return "time: \(milliseconds(seconds * 1000)) ms" + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
    }
}
