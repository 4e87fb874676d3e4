import Foundation
import Layout
import Store
import Testing
import StackDocTestSupport

/// Bad input: a clear error, and neither the log nor the state changes.
@Suite(.offThePool) struct BadInputTests {
    /// A document with some rows and history, and a way to check nothing changed.
    func prepared() throws -> (StoredDocument, () throws -> Void) {
        let store = try DocumentStore(path: ":memory:")
        let doc = try store.create("bad")
        try doc.run(Ops.add("a", at: 0))
        try doc.run(Ops.add("s", RowConfig(stack: StackSettings()), at: 1))
        try doc.run(Ops.add("c", at: 0, in: "s"))
        let state = doc.document
        let log = try doc.log()
        let status = try doc.status()
        let check: () throws -> Void = {
            let nowLog = try doc.log(), nowStatus = try doc.status()
            let reopened = try store.open("bad").document, problems = try doc.verify()
            #expect(doc.document == state)
            #expect(nowLog == log)
            #expect(nowStatus == status)
            #expect(reopened == state)
            #expect(problems == [])
        }
        return (doc, check)
    }

    @Test(arguments: [
        ("duplicate id", [Change.insertRow(id: "a", config: RowConfig(), parent: nil, index: 0)], "row 'a' already exists"),
        ("unknown parent", [.insertRow(id: "n", config: RowConfig(), parent: "zz", index: 0)], "no row 'zz'"),
        ("parent not a stack", [.insertRow(id: "n", config: RowConfig(), parent: "a", index: 0)], "row 'a' is not a stack"),
        ("bad index", [.insertRow(id: "n", config: RowConfig(), parent: nil, index: 7)], "index 7 is out of range 0...2"),
        ("negative index", [.insertRow(id: "n", config: RowConfig(), parent: "s", index: -1)], "index -1 is out of range 0...1 in 's'"),
        ("unknown remove", [.removeRow(id: "zz", config: RowConfig(), parent: nil, index: 0)], "no row 'zz'"),
        ("remove non-empty stack", [.removeRow(id: "s", config: RowConfig(), parent: nil, index: 1)], "row 's' still has rows"),
        ("unknown update", [.updateRow(id: "zz", old: RowConfig(), new: RowConfig())], "no row 'zz'"),
        ("move into itself", [.moveRow(id: "s", fromParent: nil, fromIndex: 1, toParent: "s", toIndex: 0)], "cannot move row 's' into itself"),
        ("second change fails", [.insertRow(id: "n1", config: RowConfig(), parent: nil, index: 0),
                                 .insertRow(id: "n2", config: RowConfig(), parent: nil, index: 9)], "index 9 is out of range 0...3"),
        ("third change fails", [.updateRow(id: "a", old: RowConfig(), new: RowConfig(grow: 1)),
                                .moveRow(id: "c", fromParent: "s", fromIndex: 0, toParent: nil, toIndex: 0),
                                .removeRow(id: "zz", config: RowConfig(), parent: nil, index: 0)], "no row 'zz'"),
        ("NaN value", [.updateRow(id: "a", old: RowConfig(), new: RowConfig(grow: .nan))], "grow: must be a finite number, got nan"),
        ("infinite size", [.insertRow(id: "n", config: RowConfig(size: .fixed(.infinity)), parent: nil, index: 0)], "fixed: must be a finite number, got inf"),
        ("negative grow", [.updateRow(id: "a", old: RowConfig(), new: RowConfig(grow: -1))], "grow: must be ≥ 0, got -1"),
        ("bad colour", [.updateRow(id: "a", old: RowConfig(), new: RowConfig(separator: SeparatorOverrides(color: "red")))],
         "separator.color: expected a colour #RRGGBB, got 'red'"),
        ("negative length", [.insertRow(id: "n", config: RowConfig(content: Size(width: 1, height: -2)), parent: nil, index: 0)],
         "content.height: must be ≥ 0, got -2"),
        ("bad type", [.insertRow(id: "n", config: RowConfig(type: "a b"), parent: nil, index: 0)],
         "type: invalid type 'a b': expected 1 to 64 characters from A-Z a-z 0-9 _ . -"),
        ("empty id", [.insertRow(id: "", config: RowConfig(), parent: nil, index: 0)], "row id: invalid row id '': expected 1 to 64 characters from A-Z a-z 0-9 _ . - starting with a letter or _"),
        ("quote in id", [.insertRow(id: "a'; DROP TABLE row; --", config: RowConfig(), parent: nil, index: 0)], #"row id: invalid row id 'a\'; DROP TABLE row; --': expected 1 to 64 characters from A-Z a-z 0-9 _ . - starting with a letter or _"#),
    ] as [(String, [Change], String)])
    func rejectedChanges(_ name: String, _ changes: [Change], _ message: String) throws {
        let (doc, unchanged) = try prepared()
        #expect(thrownMessage { try doc.perform(.set(id: "a", spec: []), changes: changes) } == message)
        try unchanged()
    }

    /// The write path and the planner share one validator: the same value gives the same message.
    @Test(arguments: [
        (RowSpecItem.grow(-1), RowConfig(grow: -1)),
        (.fixed(.infinity), RowConfig(size: .fixed(.infinity))),
        (.content(Size(width: -3, height: 0)), RowConfig(content: Size(width: -3, height: 0))),
        (.separator(.color("red")), RowConfig(separator: SeparatorOverrides(color: "red"))),
        (.separator(.thickness(.nan)), RowConfig(separator: SeparatorOverrides(thickness: .nan))),
    ] as [(RowSpecItem, RowConfig)])
    func writePathAndPlannerGiveOneMessage(_ item: RowSpecItem, _ config: RowConfig) throws {
        let (doc, unchanged) = try prepared()
        let planned = #expect(throws: StackDocError.self) { try doc.document.plan(.set(id: "a", spec: [item])) }
        let written = #expect(throws: StackDocError.self) {
            try doc.perform(.set(id: "a", spec: []), changes: [.updateRow(id: "a", old: RowConfig(), new: config)])
        }
        #expect(planned != nil && planned?.message == written?.message)
        try unchanged()
    }

    @Test func rejectedSettings() throws {
        let (doc, unchanged) = try prepared()
        var s = doc.document.settings
        s.offset = -.infinity
        #expect(thrownMessage {
            try doc.perform(.scroll(.offset(-.infinity)), changes: [.updateSettings(old: doc.document.settings, new: s)])
        } == "offset: must be a finite number, got -inf")
        try unchanged()
    }

    @Test func rejectedHistoryCommands() throws {
        let (doc, unchanged) = try prepared()
        #expect(thrownMessage { try doc.undo(0) } == "undo count must be at least 1, not 0")
        #expect(thrownMessage { try doc.redo(-2) } == "redo count must be at least 1, not -2")
        #expect(thrownMessage { try doc.undo(4) } == "cannot undo 4 steps: only 3 can be undone")
        #expect(thrownMessage { try doc.redo() } == "nothing to redo")
        #expect(thrownMessage { try doc.commit() } == "no group is open: nothing to commit")
        #expect(thrownMessage { try doc.rollback() } == "no group is open: nothing to roll back")
        #expect(thrownMessage { try doc.begin("two\nlines") } == "invalid group label: use 1 to 256 characters on one line, without control characters")
        try unchanged()
    }

    @Test func rejectedDocuments() throws {
        let store = try DocumentStore(path: ":memory:")
        #expect(thrownMessage { try store.create("a;b") } == "name: invalid document name 'a;b': expected 1 to 64 characters from A-Z a-z 0-9 _ . -")
        var bad = Document(name: "imp")
        try bad.insertRow("x", config: RowConfig(grow: .nan), parent: nil, at: 0)
        #expect(thrownMessage { try store.importDocument(bad) } == "row 'x' grow: must be a finite number, got nan")
        #expect(try store.documentNames() == [])
    }
}
