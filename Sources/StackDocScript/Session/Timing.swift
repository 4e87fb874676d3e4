import Foundation

/// `STACKDOC_TIMING=1` prints where a change's time went (store, layout, diff) to standard
/// error: the numbers behind docs/repl.md's scale notes.
enum Timing {
    static let enabled = ProcessInfo.processInfo.environment["STACKDOC_TIMING"] == "1"

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    static func report(_ phases: KeyValuePairs<String, Double>) {
        guard enabled else { return }
        let text = phases.map { "\($0.key) \(String(format: "%.1f", $0.value * 1000)) ms" }.joined(separator: ", ")
        FileHandle.standardError.write(Data(("timing: " + text + "\n").utf8))
    }
}
