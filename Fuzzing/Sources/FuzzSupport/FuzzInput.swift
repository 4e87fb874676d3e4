import Foundation

/// libFuzzer's input as the harnesses read it.
public enum FuzzInput {
    /// The most lines one input runs (longer inputs are cut: libFuzzer explores breadth, not length).
    public static let maxLines = 64

    /// The bytes of one input.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The input as lines of the command language, as the REPL's batch mode reads a script
    /// (`BatchRunner.run(text:)`): UTF-8 with invalid bytes replaced, split at the byte \n, a
    /// final \r dropped. (Splitting at the Character "\n" would leave "\r\n" pairs inside
    /// lines, which the REPL never passes to the parser.)
    public static func lines(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [String] {
        let text = String(decoding: bytes(data, size), as: UTF8.self)
        return text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(maxLines).map {
            let line = String(Substring($0))
            return line.hasSuffix("\r") ? String(line.dropLast()) : line
        }
    }

    /// Stops the process with `message` and the input that broke a rule: libFuzzer reports the
    /// crash and saves the input as `crash-…`.
    public static func broken(_ rule: String, _ input: String) -> Never {
        let shown = input.count > 500 ? String(input.prefix(500)) + "… (\(input.utf8.count) bytes)" : input
        fatalError("fuzz: \(rule): \(shown.debugDescription)")
    }

    /// A one-line message for the user: not empty, not huge, no newline.
    public static func isOneLine(_ message: String) -> Bool {
        !message.isEmpty && message.count < 1000 && !message.contains("\n")
    }
}
