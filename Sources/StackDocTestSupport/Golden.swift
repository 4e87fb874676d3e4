import Foundation

/// Golden files: text a test must produce byte for byte. With `STACKDOC_UPDATE_GOLDEN=1` the
/// file is rewritten with the actual text and the check still FAILS (`Golden.Recorded`), so a
/// recording run never passes silently: review the new files, then run again without it.
public enum Golden {
    /// Whether this run records (`STACKDOC_UPDATE_GOLDEN=1`).
    public static var recording: Bool { ProcessInfo.processInfo.environment["STACKDOC_UPDATE_GOLDEN"] == "1" }

    /// The golden file differs from the actual text.
    public struct Mismatch: Error, CustomStringConvertible {
        public var name: String
        public var diff: String
        public var description: String {
            "golden \(name) differs (STACKDOC_UPDATE_GOLDEN=1 rewrites it):\n\(diff)"
        }
    }

    /// The golden file was (re)written in a recording run: a failure by design.
    public struct Recorded: Error, CustomStringConvertible {
        public var path: String
        public var changed: Bool
        public var description: String {
            "recorded golden \(path) (\(changed ? "changed" : "unchanged")); recording never passes: review it and run again without STACKDOC_UPDATE_GOLDEN"
        }
    }

    /// Compares `actual` with the file at `path`; throws `Mismatch` (with a unified diff) when
    /// they differ. When `recording`, writes the file and throws `Recorded`.
    public static func check(_ actual: String, path: String, recording: Bool = Golden.recording) throws {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let expected = try? String(contentsOfFile: path, encoding: .utf8)
        if recording {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            throw Recorded(path: path, changed: expected != actual)
        }
        if expected != actual {
            throw Mismatch(name: name, diff: LineDiff.unified(expected: expected ?? "", actual: actual, name: name))
        }
    }
}
