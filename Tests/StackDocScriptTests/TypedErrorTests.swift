import Foundation
import Layout
import StackDocScript
import Store
import Testing
import StackDocTestSupport

/// Issue 12 item 2: the language's and the history's errors are typed (`StackDocError.Kind`
/// `.syntax` / `.history`, with the user's values as data), rendered in one place, and every
/// user value in them goes through the one quoting and escaping rule.
@Suite(.offThePool) struct TypedErrorTests {
    func parseError(_ line: String) -> CommandError? {
        do {
            _ = try Parser.parse(line)
            return nil
        } catch {
            return error as? CommandError
        }
    }

    @Test func parseErrorsAreTypedAndKeepTheirText() throws {
        let cases: [(String, CommandError.Syntax, String)] = [
            ("qqqqq 3", .unknownCommand("qqqqq", suggestion: nil), "unknown command 'qqqqq' (type 'help' for the list)"),
            ("fixd 3", .unknownCommand("fixd", suggestion: "find"), "unknown command 'fixd' (did you mean 'find'? type 'help' for the list)"),
            ("\"add\" a", .quotedCommandWord("add"), "unknown command '\"add\"': a command word is not quoted"),
            ("add a fixed x", .expected("a number", after: "fixed", got: "x"), "expected a number after 'fixed', got 'x'"),
            ("add 'a", .unterminatedQuote("'"), "unterminated quote: a word starting with ' has no closing '"),
            ("add \"a\\q\"", .badEscape("q"), "bad escape '\\q' in a quoted word (use \\\\, \\\", \\n, \\t, \\r or \\u{HEX})"),
            ("add \"\\u{zz}\"", .notAUnicodeScalar(hex: "zz"), "bad escape: '\\u{zz}' is not a unicode scalar"),
            ("add a at 0 at 1", .secondPosition(command: "add", at: "at"), "'add' takes one position, got a second one at 'at'"),
        ]
        for (line, syntax, text) in cases {
            let error = try #require(parseError(line), "\(line)")
            guard case .syntax(let got) = error.kind else {
                Issue.record("\(line): \(error.kind) is not a syntax error")
                continue
            }
            #expect(got.kindName == syntax.kindName, "\(line): \(got)")
            #expect(error.message == text, "\(line)")
        }
    }

    /// A hostile word in a typed error is escaped and cut by the one rule, never shown raw.
    @Test func userWordsAreEscaped() throws {
        let hostile = "x\u{1b}[31m" + String(repeating: "y", count: 80)
        let error = try #require(parseError("add a fixed \"\(hostile.replacingOccurrences(of: "\u{1b}", with: "\\u{1b}"))\""))
        #expect(!error.message.contains("\u{1b}"))
        #expect(error.message.hasSuffix(Validation.quoted(hostile)))
        #expect(error.message.contains("…"))
    }

    @Test func historyErrorsAreTyped() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try store.create("d")
        func kind(_ body: () throws -> Void) -> StackDocError.Kind? {
            do { try body() } catch let e as StackDocError { return e.kind } catch {}
            return nil
        }
        #expect(kind { _ = try doc.mark("now") } == .history(.invalidMarkName("now")))
        _ = try doc.mark("m1")
        #expect(kind { _ = try doc.mark("m1") } == .history(.markExists("m1", seq: 2)))
        #expect(kind { _ = try doc.diff(from: .mark("nope")) } == .history(.noSuchMark("nope", document: "d")))
        #expect(kind { _ = try doc.diff(from: .entry(99)) } == .history(.noLogEntry(99, document: "d", last: 2)))
        #expect(kind { _ = try doc.diff(from: .now(back: 5)) } == .history(.beforeFirstEntry(back: 5, document: "d", entries: 2)))
        #expect(StackDocError(.history(.noSuchMark("a\nb", document: "d"))).message == "no mark 'a\\nb' in 'd'")
        #expect(StackDocError(.history(.undoMineBlocked(count: 1, origin: "me", step: 3, by: "o\u{7}", mine: 0))).message
                == "cannot undo your last step (me): step 3 by 'o\\u{7}' came after it and would be undone too")
    }
}

extension CommandError.Syntax {
    /// The case's name, without its values.
    var kindName: String { String(String(describing: self).prefix { $0 != "(" }) }
}
