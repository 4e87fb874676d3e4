import Foundation
import Testing
import Layout
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 10 item 8: group labels are stored whole or refused, and no text output writes a
/// control, bidi or other format character raw (terminal escape injection).
@Suite(.offThePool) struct LabelEscapingTests {
    /// Runs `lines` (text mode unless `json`) on a fresh in-memory database; standard output
    /// and `error:` lines interleaved.
    static func run(_ lines: [String], json: Bool = false) throws -> [String] {
        let session = Session(store: try DocumentStore(path: ":memory:"))
        var out: [String] = []
        let sink = Sink(out: { out += $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) },
                        err: { out.append("error: " + $0) })
        var runner = BatchRunner(session: session, json: json, bail: false, showFile: false, sink: sink)
        runner.showLine = false
        _ = runner.run(lines: lines, file: nil)
        return out
    }

    /// No line of the output holds a character that must be escaped.
    static func expectClean(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for line in lines {
            let raw = line.unicodeScalars.contains { $0.isEscapedInText }
            #expect(!raw, "raw control or format character in \(line.debugDescription)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ["a\\u{0}b", "a\\u{1b}[31mred", "bell\\u{7}", "tab\\tbed", "nel\\u{85}", "line\\u{2028}sep"])
    func labelsWithControlCharactersAreRefusedWhole(_ label: String) throws {
        let out = try Self.run(["new d", "begin \"\(label)\"", "add a fixed 10", "history", "status"])
        #expect(out[1] == "error: invalid group label: use 1 to 256 characters on one line, without control characters", "\(out)")
        // Nothing was stored: no group is open, the add is a step of its own.
        #expect(out[2] == "step 1: add a fixed 10", "\(out)")
        #expect(out.contains("group     none"), "\(out)")
        Self.expectClean(out)
    }

    @Test func aNulIsNeverCutFromALabel() throws {
        // Before: `begin "a\u{0}b"` stored (and printed) the label `a`.
        let out = try Self.run(["new d", "begin \"a\\u{0}b\"", "commit"])
        #expect(out[1].hasPrefix("error: invalid group label"), "\(out)")
        #expect(out[2] == "error: no group is open: nothing to commit", "\(out)")
    }

    @Test func bidiAndFormatCharactersAreStoredWholeAndEscapedInEveryOutput() throws {
        let label = #"x\u{202e}y\u{200b}z"#  // a right-to-left override and a zero-width space
        let shown = "\"" + label + "\""
        let out = try Self.run(["new d", "begin \"\(label)\"", "add a fixed 10", "status", "begin again", "commit",
                                "history", "undo 1", "redo 1"])
        Self.expectClean(out)
        #expect(out.contains("begin \(shown): the next operations make one undo step"), "\(out)")
        #expect(out.contains("pending in group \(shown): add a fixed 10"), "\(out)")
        #expect(out.contains("group     open \(shown)"), "\(out)")
        #expect(out.contains("error: a group is already open (begin 'x\\u{202e}y\\u{200b}z'): commit or rollback it first"), "\(out)")
        #expect(out.contains("step 1: \(shown) (1 operation)"), "\(out)")
        #expect(out.contains { $0.hasPrefix("   1  applied  ") && $0.hasSuffix("  \(shown)") }, "\(out)")
        #expect(out.contains("undone step 1: \(shown)"), "\(out)")
        #expect(out.contains("redone step 1: \(shown)"), "\(out)")
    }

    @Test func jsonCarriesTheStoredLabelExactly() throws {
        let out = try Self.run(["new d", "begin \"x\\u{202e}y\"", "add a fixed 10", "commit", "history"], json: true)
        let history = try #require(try JSONSerialization.jsonObject(with: Data(out[4].utf8)) as? [String: Any])
        let steps = try #require((history["result"] as? [String: Any])?["steps"] as? [[String: Any]])
        #expect(steps.first?["label"] as? String == "x\u{202E}y")
    }

    @Test func printableLabelsAreShownAsBefore() throws {
        let out = try Self.run(["new d", "begin header rows", "add a fixed 10", "commit", "history"])
        #expect(out.contains("step 1: header rows (1 operation)"))
        #expect(out.contains { $0.hasPrefix("   1  applied  ") && $0.hasSuffix("  header rows") }, "\(out)")
    }

    /// Issue 13 item 19: quotes and `#` inside a quoted label are the label's, in the history,
    /// in `log export`, and after replaying that log.
    @Test func quotesAndHashInALabelRoundTripThroughTheLogExport() throws {
        let dir = try Scratch.directory("label")
        defer { Scratch.remove(dir) }
        let label = #"say "hi" # not a comment"#
        let out = try Self.run(["new d", #"begin "say \"hi\" # not a comment""#, "add a fixed 10", "commit", "log export \(dir)/d.sd"])
        #expect(out.contains(#"step 1: say "hi" # not a comment (1 operation)"#), "\(out)")
        let log = try String(contentsOfFile: dir + "/d.sd", encoding: .utf8)
        #expect(log.contains(#"begin "say \"hi\" # not a comment""# + "\n"), "\(log)")
        let session = Session(store: try DocumentStore(path: ":memory:"))
        var replay = BatchRunner(session: session, json: true, bail: true, showFile: false, sink: Sink(out: { _ in }, err: { _ in }))
        _ = replay.run(text: log, file: nil)
        #expect(!replay.failed)
        guard case let .history(steps, _, _)? = try? session.run(.history) else {
            Issue.record("no history")
            return
        }
        #expect(steps.first?.label == label, "\(steps)")
    }

    @Test func messagesEscapeEveryCharacterThatIsNeverWrittenRaw() {
        #expect(Validation.quoted("a\u{1B}[2Jb\u{7}\u{202E}\u{85}'\\") == #"'a\u{1b}[2Jb\u{7}\u{202e}\u{85}\'\\'"#)
        #expect(Tokenizer.quote("a\u{1B}b\u{202E}\u{2028}") == #""a\u{1b}b\u{202e}\u{2028}""#)
        #expect(Printer.label("plain words") == "plain words")
        #expect(Printer.label("bad\u{1B}") == #""bad\u{1b}""#)
    }
}
