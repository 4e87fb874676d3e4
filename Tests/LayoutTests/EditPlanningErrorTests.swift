import Testing
@testable import Layout
import StackDocTestSupport

/// The message of the error `body` throws, or nil when it throws none.
func errorMessage(_ body: () throws -> Void) -> String? {
    do { try body() } catch let e as StackDocError { return e.message } catch { return "\(error)" }
    return nil
}

@Suite("Edit planning: errors", .offThePool)
struct PlanErrorTests {
    func expectError(_ edit: Edit, _ expected: String, on doc: Document? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let d = try doc ?? planningSample()
        let message = errorMessage { _ = try d.plan(edit) }
        #expect(message == expected, sourceLocation: sourceLocation)
    }

    @Test func unknownRows() throws {
        try expectError(.remove(ids: ["a", "zz"]), "no row 'zz'")
        try expectError(.hide(ids: ["zz"]), "no row 'zz'")
        try expectError(.show(ids: ["a", "zz"]), "no row 'zz'")
        try expectError(.set(id: "zz", spec: [.fit]), "no row 'zz'")
        try expectError(.replace(id: "zz", newID: "n", spec: []), "no row 'zz'")
        try expectError(.move(id: "zz", position: .top, parent: nil), "no row 'zz'")
        try expectError(.move(id: "a", position: .after("zz"), parent: nil), "no row 'zz'")
        try expectError(.add(ids: ["n"], spec: [], position: .before("zz"), parent: nil), "no row 'zz'")
        try expectError(.add(ids: ["n"], spec: [], position: nil, parent: "zz"), "no row 'zz'")
        try expectError(.clear(parent: "zz"), "no row 'zz'")
    }

    @Test func duplicateIds() throws {
        try expectError(.add(ids: ["n", "m", "n"], spec: [], position: nil, parent: nil), "add: row 'n' is named twice")
        try expectError(.add(ids: ["n", "b"], spec: [], position: nil, parent: nil), "row 'b' already exists")
        try expectError(.remove(ids: ["a", "a"]), "remove: row 'a' is named twice")
        try expectError(.hide(ids: ["a", "a"]), "hide: row 'a' is named twice")
        try expectError(.show(ids: ["b", "b"]), "show: row 'b' is named twice")
        try expectError(.replace(id: "a", newID: "b", spec: []), "row 'b' already exists")
    }

    @Test func emptyIdLists() throws {
        try expectError(.add(ids: [], spec: [], position: nil, parent: nil), "add: expected at least one row id")
        try expectError(.remove(ids: []), "remove: expected at least one row id")
        try expectError(.hide(ids: []), "hide: expected at least one row id")
    }

    @Test func invalidIdSyntax() throws {
        let expected = "row id: invalid row id '1a': expected 1 to 64 characters from A-Z a-z 0-9 _ . - starting with a letter or _"
        try expectError(.add(ids: ["1a"], spec: [], position: nil, parent: nil), expected)
        try expectError(.replace(id: "a", newID: "1a", spec: []), expected)
        for bad in ["", "a b", "a'b", "a;b", "é", String(repeating: "x", count: 65), "-a", ".a"] {
            let message = errorMessage { _ = try planningSample().plan(.add(ids: [bad], spec: [], position: nil, parent: nil)) }
            #expect(message?.hasPrefix("row id: invalid row id") == true, "\(bad)")
        }
        var doc = Document(name: "d")
        try perform(.add(ids: [String(repeating: "x", count: 64), "_", "a.b-c_9"], spec: [], position: nil, parent: nil), on: &doc)
        #expect(doc.rowCount == 3)
        // Hostile ids are cut and escaped in messages.
        let long = errorMessage { _ = try planningSample().plan(.remove(ids: [String(repeating: "q", count: 10_000)])) }
        #expect(long == "no row '" + String(repeating: "q", count: 40) + "…'")
        let quote = errorMessage { _ = try planningSample().plan(.remove(ids: ["a'\n"])) }
        #expect(quote == "no row 'a\\'\\n'")
    }

    @Test func indexesOutOfRange() throws {
        try expectError(.add(ids: ["n"], spec: [], position: .index(4), parent: nil), "index 4 is out of range 0...3 of the root stack")
        try expectError(.add(ids: ["n"], spec: [], position: .index(-1), parent: "s"), "index -1 is out of range 0...2 of stack 's'")
        try expectError(.move(id: "a", position: .index(3), parent: nil), "index 3 is out of range 0...2 of the root stack")
        try expectError(.move(id: "a", position: .index(3), parent: "s"), "index 3 is out of range 0...2 of stack 's'")
        try expectError(.move(id: "a", position: .index(Int.max), parent: nil), "index \(Int.max) is out of range 0...2 of the root stack")
    }

    @Test func anchorsOutsideTheTargetStack() throws {
        try expectError(.add(ids: ["n"], spec: [], position: .after("a"), parent: "s"), "row 'a' is not in stack 's'")
        try expectError(.move(id: "a", position: .before("d"), parent: "s"), "row 'd' is not in stack 's'")
        try expectError(.move(id: "a", position: .after("a"), parent: "s"), "row 'a' is not in stack 's'")
    }

    @Test func parentsThatAreNotStacks() throws {
        try expectError(.add(ids: ["n"], spec: [], position: nil, parent: "a"), "row 'a' is not a stack")
        try expectError(.move(id: "d", position: .top, parent: "b"), "row 'b' is not a stack")
        try expectError(.clear(parent: "a"), "row 'a' is not a stack")
    }

    @Test func movingIntoItself() throws {
        var doc = try planningSample()
        try perform(.add(ids: ["inner"], spec: [.stack(.horizontal)], position: nil, parent: "s"), on: &doc)
        try expectError(.move(id: "s", position: .top, parent: "s"), "cannot move row 's' into itself", on: doc)
        try expectError(.move(id: "s", position: .top, parent: "inner"), "cannot move row 's' into itself", on: doc)
    }

    @Test func badNumbers() throws {
        func add(_ spec: RowSpecItem) -> Edit { .add(ids: ["n"], spec: [spec], position: nil, parent: nil) }
        try expectError(add(.fixed(-1)), "fixed: must be ≥ 0, got -1")
        try expectError(add(.fixed(.nan)), "fixed: must be a finite number, got nan")
        try expectError(add(.fixed(.infinity)), "fixed: must be a finite number, got inf")
        try expectError(add(.fixed(1e308)), "fixed: must be ≤ 1000000000, got 1e+308")
        try expectError(add(.content(Size(width: 1, height: -2.5))), "content.height: must be ≥ 0, got -2.5")
        try expectError(add(.insets(Edges(top: 0, left: -1, bottom: 0, right: 0))), "insets.left: must be ≥ 0, got -1")
        try expectError(add(.margin(Edges(top: 0, left: 0, bottom: 0, right: -.infinity))), "margin.right: must be a finite number, got -inf")
        try expectError(add(.grow(-1)), "grow: must be ≥ 0, got -1")
        try expectError(add(.shrink(-0.5)), "shrink: must be ≥ 0, got -0.5")
        try expectError(add(.spacing(-3)), "spacing: must be ≥ 0, got -3")
        try expectError(add(.separator(.thickness(-1))), "separator.thickness: must be ≥ 0, got -1")
        try expectError(add(.separator(.insets(Edges(top: .nan, left: 0, bottom: 0, right: 0)))), "separator.insets.top: must be a finite number, got nan")
        try expectError(.set(id: "a", spec: [.fit, .grow(-2)]), "grow: must be ≥ 0, got -2")
        try expectError(.setStack(.spacing(-1)), "spacing: must be ≥ 0, got -1")
        try expectError(.setStack(.padding(Edges(top: 0, left: 0, bottom: -1, right: 0))), "padding.bottom: must be ≥ 0, got -1")
        try expectError(.defaults(.insets(Edges(top: -4, left: 0, bottom: 0, right: 0))), "defaults.insets.top: must be ≥ 0, got -4")
        try expectError(.defaults(.separator([.thickness(.nan)])), "separator.thickness: must be a finite number, got nan")
        try expectError(.viewport(Size(width: -1, height: 10)), "viewport.width: must be ≥ 0, got -1")
        try expectError(.viewport(Size(width: 1, height: .infinity)), "viewport.height: must be a finite number, got inf")
        try expectError(.scroll(.offset(.nan)), "offset: must be a finite number, got nan")
        try expectError(.scroll(.by(-.infinity)), "scroll by: must be a finite number, got -inf")
    }

    @Test func badColoursAndTypes() throws {
        try expectError(.set(id: "a", spec: [.separator(.color("red"))]), "separator.color: expected a colour #RRGGBB, got 'red'")
        try expectError(.set(id: "a", spec: [.separator(.color("#12345G"))]), "separator.color: expected a colour #RRGGBB, got '#12345G'")
        try expectError(.defaults(.separator([.color("#1234567")])), "separator.color: expected a colour #RRGGBB, got '#1234567'")
        try expectError(.set(id: "a", spec: [.type("a b")]), "type: invalid type 'a b': expected 1 to 64 characters from A-Z a-z 0-9 _ . -")
        try expectError(.set(id: "a", spec: [.type("")]), "type: invalid type '': expected 1 to 64 characters from A-Z a-z 0-9 _ . -")
    }

    @Test func scrollToUnknownRow() throws {
        try expectError(.scroll(.to("zz", .top)), "no row 'zz'")
    }

    @Test func nestingLimit() throws {
        var doc = Document(name: "d")
        var parent: RowID? = nil
        for depth in 1...DocumentLimits.maxDepth {
            try perform(.add(ids: ["s\(depth)"], spec: [.stack(.vertical)], position: nil, parent: parent), on: &doc)
            parent = "s\(depth)"
        }
        try expectError(.add(ids: ["deep"], spec: [], position: nil, parent: "s32"),
                        "row 'deep' would be nested 33 deep; the limit is 32", on: doc)
        // Moving a leaf into the deepest stack, or a deep subtree one level down, is refused too.
        try perform(.add(ids: ["leaf"], spec: [], position: nil, parent: nil), on: &doc)
        try expectError(.move(id: "leaf", position: .top, parent: "s32"),
                        "row 'leaf' would be nested 33 deep; the limit is 32", on: doc)
        try perform(.add(ids: ["t"], spec: [.stack(.vertical)], position: nil, parent: "s1"), on: &doc)
        try expectError(.move(id: "s2", position: .top, parent: "t"),
                        "row 's2' would be nested 33 deep; the limit is 32", on: doc)
        // Moving up is fine.
        try perform(.move(id: "s3", position: .before("s1"), parent: nil), on: &doc)
        #expect(doc.children(of: nil).first == "s3")
    }

    @Test func failedMultiRowEditsPlanNothing() throws {
        let doc = try planningSample()
        #expect(errorMessage { _ = try doc.plan(.hide(ids: ["a", "b", "nope"])) } == "no row 'nope'")
        #expect(errorMessage { _ = try doc.plan(.add(ids: ["x", "y", "a"], spec: [], position: nil, parent: nil)) } == "row 'a' already exists")
    }
}

@Suite("Edit planning: row limit", .offThePool)
struct PlanRowLimitTests {
    @Test func addStopsAtTheRowLimit() async throws {
        // A million rows take long: built on a thread of their own (`TestThread`).
        let doc = try await TestThread.run {
            var doc = Document(name: "big")
            let rows = DocumentLimits.maxRows - 1
            doc.reserveCapacity(rows: rows + 1, rootRows: rows + 1)
            for i in 0..<rows { try doc.appendRow("r\(i)", config: RowConfig(), parent: nil) }
            return doc
        }
        #expect(errorMessage { _ = try doc.plan(.add(ids: ["x", "y"], spec: [], position: nil, parent: nil)) }
                == "add: a document holds at most 1000000 rows")
        #expect(try doc.plan(.add(ids: ["x"], spec: [], position: nil, parent: nil)).count == 1)
    }
}
