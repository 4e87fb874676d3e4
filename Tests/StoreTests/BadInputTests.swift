import Foundation
import Layout
import Store
import Testing

/// Bad input: a clear error, and neither the log nor the state changes.
@Suite struct BadInputTests {
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
        ("NaN value", [.updateRow(id: "a", old: RowConfig(), new: RowConfig(grow: .nan))], "invalid value nan for row 'a' grow: numbers must be finite"),
        ("infinite size", [.insertRow(id: "n", config: RowConfig(size: .fixed(.infinity)), parent: nil, index: 0)], "invalid value inf for row 'n' size: numbers must be finite"),
        ("empty id", [.insertRow(id: "", config: RowConfig(), parent: nil, index: 0)], "invalid row id '': use a letter or _ then up to 63 of A-Z a-z 0-9 _ . -"),
        ("quote in id", [.insertRow(id: "a'; DROP TABLE row; --", config: RowConfig(), parent: nil, index: 0)], "invalid row id 'a'; DROP TABLE row; --': use a letter or _ then up to 63 of A-Z a-z 0-9 _ . -"),
    ] as [(String, [Change], String)])
    func rejectedChanges(_ name: String, _ changes: [Change], _ message: String) throws {
        let (doc, unchanged) = try prepared()
        #expect(throws: StackDocError(message)) {
            try doc.perform(.set(id: "a", spec: []), changes: changes)
        }
        try unchanged()
    }

    @Test func rejectedSettings() throws {
        let (doc, unchanged) = try prepared()
        var s = doc.document.settings
        s.offset = -.infinity
        #expect(throws: StackDocError("invalid value -inf for offset: numbers must be finite")) {
            try doc.perform(.scroll(.offset(-.infinity)), changes: [.updateSettings(old: doc.document.settings, new: s)])
        }
        try unchanged()
    }

    @Test func rejectedHistoryCommands() throws {
        let (doc, unchanged) = try prepared()
        #expect(throws: StackDocError("undo count must be at least 1, not 0")) { try doc.undo(0) }
        #expect(throws: StackDocError("redo count must be at least 1, not -2")) { try doc.redo(-2) }
        #expect(throws: StackDocError("cannot undo 4 steps: only 3 can be undone")) { try doc.undo(4) }
        #expect(throws: StackDocError("nothing to redo")) { try doc.redo() }
        #expect(throws: StackDocError("no group is open: nothing to commit")) { try doc.commit() }
        #expect(throws: StackDocError("no group is open: nothing to roll back")) { try doc.rollback() }
        #expect(throws: StackDocError("invalid group label: use 1 to 256 characters on one line, without control characters")) { try doc.begin("two\nlines") }
        try unchanged()
    }

    @Test func rejectedDocuments() throws {
        let store = try DocumentStore(path: ":memory:")
        #expect(throws: StackDocError("invalid document name 'a;b': use 1 to 64 of A-Z a-z 0-9 _ . -")) { try store.create("a;b") }
        var bad = Document(name: "imp")
        try bad.insertRow("x", config: RowConfig(grow: .nan), parent: nil, at: 0)
        #expect(throws: StackDocError("invalid value nan for row 'x' grow: numbers must be finite")) { try store.importDocument(bad) }
        #expect(try store.documentNames() == [])
    }
}
