import Layout
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Regression tests for what the libFuzzer targets (`Fuzzing/`, `scripts/fuzz`) found, each with
/// the minimized input (docs/hardening.md, "Coverage-guided fuzzing").
@Suite(.longRunning) struct LibFuzzerFindsTests {
    /// The message of a refused line, which must be one line of visible text.
    static func message(_ line: String) -> String? {
        do { _ = try Parser.parse(line); return nil } catch let error as any UserFacingError { return error.message } catch { return "\(error)" }
    }

    static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// `command` target, 2026-11-23: a bad `\u{…}` or `\X` escape was echoed raw in its message,
    /// so control characters of the line (ESC, BEL, CR, …) reached the terminal (found as a CR in
    /// `"\u{22\r`; ESC sequences are the same path).
    @Test(arguments: ["\"\\u{22\r", "\"\\u{\u{1B}[31m", "\"\\u{\u{1B}[31m}\"", "\"\\\u{7}\"", "\"\\\u{1B}\""])
    func badEscapesShowControlCharactersEscaped(_ line: String) throws {
        let message = try #require(Self.message(line))
        #expect(message.hasPrefix("bad escape"), "\(message.debugDescription)")
        #expect(!Self.hasControlCharacters(message), "\(message.debugDescription)")
    }

    /// Printable text in a bad escape is shown as it was.
    @Test func badEscapesShowPrintableTextAsWritten() {
        #expect(Self.message("\"\\q\"") == "bad escape '\\q' in a quoted word (use \\\\, \\\", \\n, \\t, \\r or \\u{HEX})")
        #expect(Self.message("\"\\u{12zz") == "bad escape: '\\u{12zz' has no closing '}'")
        #expect(Self.message("\"\\u{110000}\"") == "bad escape: '\\u{110000}' is not a unicode scalar")
    }
}
