import Foundation
import Testing
import Layout
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 12 item 1: `Session.run` returns data; the text and JSON renderers make the output;
/// one formatting namespace with one percent rule.
@Suite(.offThePool) struct CommandResultTests {
    static func session(_ lines: [String]) throws -> Session {
        let session = Session(store: try DocumentStore(path: ":memory:"))
        for line in lines { _ = try session.run(try #require(try Parser.parse(line))) }
        return session
    }

    @Test func commandsReturnPlainData() throws {
        let s = try Self.session(["new d viewport 100 100", "add a b fixed 60"])
        guard case let .edited(operation, outcome, report) = try s.run(try #require(try Parser.parse("set a fixed 70"))) else {
            Issue.record("an edit returns .edited")
            return
        }
        #expect(operation == "set a fixed 70")
        #expect(outcome == .step(2))
        #expect(report.changedVisible == ["a", "b"])
        guard case let .hit(x, y, row) = try s.run(.hit(x: 5, y: 100)) else { Issue.record("hit returns .hit"); return }
        #expect(x == 5 && y == 100 && row == "b")
        guard case let .rows(listing) = try s.run(.rows) else { Issue.record("rows returns .rows"); return }
        let entries = listing.entries
        #expect(entries.map(\.id) == ["a", "b"])
        #expect(entries.map(\.depth) == [0, 0])
        guard case let .history(steps, group, _) = try s.run(.history) else { Issue.record("history returns .history"); return }
        #expect(steps.map(\.number) == [1, 2] && group == nil)
    }

    /// Both renderers describe the same result: every JSON result parses, and the text is
    /// what the golden scripts pin (here: a sample).
    @Test func bothRenderersFromOneResult() throws {
        let s = try Self.session(["new d viewport 100 100", "add a b fixed 60", "begin g"])
        let result = try s.run(try #require(try Parser.parse("add c fixed 10")))
        #expect(result.text == "pending in group g: add c fixed 10\n  frames: 1 offscreen\n  content: 100x168 -> 100x202\n  c: (new) -> offscreen")
        #expect(Envelope.success(command: "add c fixed 10", result: result)
                == #"{"ok":true,"command":"add c fixed 10","result":{"operation":"add c fixed 10","step":null,"changed":[],"changedCount":1,"moved":[],"removed":[],"offset":0,"contentSize":{"width":100,"height":202}},"events":[{"row":"c","from":null,"to":"offscreen"}]}"#)
        let status = try s.run(.status)
        let json = Envelope.success(command: "status", result: status)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((parsed["result"] as? [String: Any])?["group"] as? [String: String] == ["label": "g"])
        #expect(status.text.contains("group     open g"))
    }

    @Test func onePercentRule() {
        #expect(Format.percent(100) == "100")
        #expect(Format.percent(0) == "0")
        #expect(Format.percent(37.5) == "37.5")
        #expect(Format.percent(30.769) == "30.77")
        #expect(Format.percent(99.995) == "99.99")     // a partial row never reads 100
        #expect(Format.percent(99.9999) == "99.99")
        #expect(Format.percent(0.001) == "0.01")       // nor 0
    }

    /// `layout` printed `partial 100%` for a row 99.9975 % visible; `visible` and `row` did not.
    @Test func layoutVisibleAndRowAgreeOnAlmostEntireRows() throws {
        // The row is 19976 + 24 (default insets) = 20000 tall; the viewport shows 19999.5.
        let s = try Self.session(["new d viewport 390 19999.5", "add a fixed 19976"])
        let layout = try s.run(.layout(LayoutSelection())).text
        #expect(layout.contains("partial 99.99%"), "\(layout)")
        #expect(try s.run(.visible).text.contains("partial       99.99"))
        #expect(try s.run(.row("a")).text.contains("visibility       partial 99.99%"))
    }
}
