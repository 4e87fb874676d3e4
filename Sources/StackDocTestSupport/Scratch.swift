import Foundation

/// Scratch directories for tests: fresh, private (`mkdtemp`), under the system temporary
/// directory, named `stackdoc-PREFIX-XXXXXX`; the caller removes them with `remove`.
public enum Scratch {
    /// A new empty directory; throws when the temporary directory is not writable.
    public static func directory(_ prefix: String = "test") throws -> String {
        let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        var template = Array((base + "stackdoc-\(prefix)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mkdtemp failed in \(base)"])
        }
        return String(cString: made)
    }

    /// `directory(prefix)` as a file URL.
    public static func url(_ prefix: String = "test") throws -> URL {
        URL(fileURLWithPath: try directory(prefix), isDirectory: true)
    }

    /// A path for a file that does not exist yet, in a new scratch directory.
    public static func file(_ name: String, prefix: String = "test") throws -> String {
        try directory(prefix) + "/" + name
    }

    /// Removes `path` and everything under it (errors ignored: cleanup of a scratch area).
    public static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
