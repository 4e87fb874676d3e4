import Foundation
import Layout
import Store
import Testing
import StackDocTestSupport

@Suite(.offThePool) struct HistoryTests {
    func fresh() throws -> (DocumentStore, StoredDocument) {
        let store = try DocumentStore(path: ":memory:")
        return (store, try store.create("h"))
    }

    @Test func undoRedoSingleOperations() throws {
        let (_, doc) = try fresh()
        try doc.run(Ops.add("a", at: 0))
        try doc.run(Ops.add("b", at: 1))
        try doc.run(Ops.set("a", in: doc.document) { $0.hidden = true })
        let full = doc.document
        let moved = try doc.undo()
        #expect(moved.steps.map(\.number) == [3])
        #expect(moved.changes == [.updateRow(id: "a", old: full.config(of: "a")!, new: RowConfig())])
        #expect(doc.document.config(of: "a")?.hidden == false)
        try doc.undo(2)
        #expect(doc.document.rowCount == 0)
        #expect(thrownMessage { try doc.undo() } == "nothing to undo")
        #expect(thrownMessage { try doc.redo(4) } == "cannot redo 4 steps: only 3 can be redone")
        try doc.redo(3)
        #expect(doc.document == full)
        #expect(try doc.verify() == [])
        let status = try doc.status()
        #expect(status.steps == 3 && status.cursor == 3 && status.canUndo == 3 && status.canRedo == 0)
        #expect(try doc.log().map(\.kind) == [.newDocument, .op, .op, .op, .undo, .undo, .redo])
    }

    @Test func newOperationAfterUndoDiscardsRedoTail() throws {
        let (_, doc) = try fresh()
        try doc.run(Ops.add("a", at: 0))
        try doc.run(Ops.add("b", at: 1))
        try doc.undo()
        try doc.run(Ops.add("c", at: 1))
        #expect(thrownMessage { try doc.redo() } == "nothing to redo")
        #expect(try doc.history().map { $0.edits } == [[.add(ids: ["a"], spec: [], position: .index(0), parent: nil)],
                                                        [.add(ids: ["c"], spec: [], position: .index(1), parent: nil)]])
        #expect(doc.rootIDs == ["a", "c"])
        #expect(try doc.verify() == [])
    }

    @Test func viewOperationsAreLoggedButNotUndone() throws {
        let (store, doc) = try fresh()
        try doc.run(Ops.add("base", RowConfig(size: .fixed(1000)), at: 0))  // long enough to scroll
        try doc.run(Ops.add("a", at: 0))
        try doc.run(Ops.scroll(120, in: doc.document))
        try doc.run(Ops.spacing(8, in: doc.document))
        try doc.run(Ops.scroll(40, in: doc.document))
        #expect(doc.stepCount == 3)
        try doc.undo()
        #expect(doc.document.settings.spacing == 0)
        #expect(doc.document.settings.offset == 40)  // undo does not move the view
        try doc.undo()
        #expect(doc.document.rowCount == 1)
        #expect(doc.document.settings.offset == 40)
        try doc.redo(2)
        #expect(doc.document.settings.spacing == 8)
        #expect(doc.document.settings.offset == 40)
        #expect(try doc.log().filter { $0.kind == .view }.count == 2)
        #expect(try doc.verify() == [])
        #expect(try store.open("h").document == doc.document)
    }

    @Test func groupMakesOneStep() throws {
        let (_, doc) = try fresh()
        try doc.run(Ops.add("x", RowConfig(size: .fixed(1000)), at: 0))  // long enough to scroll
        try doc.begin("three rows")
        try doc.run(Ops.add("a", RowConfig(size: .fixed(1000)), at: 1))
        try doc.run(Ops.add("b", at: 2))
        try doc.run(Ops.scroll(10, in: doc.document))
        try doc.run(Ops.remove("x", from: doc.document))
        #expect(throws: StackDocError.self) { try doc.undo() }
        #expect(thrownMessage { try doc.begin() } == "a group is already open (begin 'three rows'): commit or rollback it first")
        let step = try #require(try doc.commit())
        #expect(step.label == "three rows")
        #expect(step.edits.count == 3)
        #expect(doc.stepCount == 2)
        try doc.undo()
        #expect(doc.rootIDs == ["x"])
        #expect(doc.document.settings.offset == 10)
        try doc.redo()
        #expect(doc.rootIDs == ["a", "b"])
        #expect(try doc.verify() == [])
        #expect(thrownMessage { try doc.commit() } == "no group is open: nothing to commit")
    }

    @Test func emptyGroupMakesNoStep() throws {
        let (_, doc) = try fresh()
        try doc.begin()
        #expect(try doc.commit() == nil)
        #expect(doc.stepCount == 0)
        #expect(try doc.verify() == [])
    }

    @Test func rollbackRestoresEverything() throws {
        let (_, doc) = try fresh()
        try doc.run(Ops.add("x", at: 0))
        try doc.run(Ops.add("y", at: 1))
        try doc.undo()
        let before = doc.document
        let logBefore = try doc.log()
        try doc.begin("tmp")
        try doc.run(Ops.add("a", at: 0))
        try doc.run(Ops.scroll(99, in: doc.document))
        try doc.run(Ops.set("x", in: doc.document) { $0.grow = 2 })
        try doc.rollback()
        #expect(doc.document == before)
        #expect(try doc.log() == logBefore)
        // The redo tail survives a rolled back group.
        try doc.redo()
        #expect(doc.rootIDs == ["x", "y"])
        #expect(try doc.verify() == [])
        #expect(thrownMessage { try doc.rollback() } == "no group is open: nothing to roll back")
    }

    @Test func historySurvivesClosing() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "h.sqlite").path
        do {
            let doc = try DocumentStore(path: path).create("h")
            try doc.run(Ops.add("a", at: 0))
            try doc.run(Ops.add("b", at: 1))
            try doc.run(Ops.add("c", at: 2))
            try doc.undo()
            try doc.begin("open across sessions")
            try doc.run(Ops.add("d", at: 0))
        }
        do {
            let doc = try DocumentStore(path: path).open("h")
            #expect(doc.openGroup?.label == "open across sessions")
            #expect(doc.rootIDs == ["d", "a", "b"])
            try doc.commit()
            try doc.undo()
            #expect(doc.rootIDs == ["a", "b"])
            #expect(doc.stepCount == 3)
        }
        let doc = try DocumentStore(path: path).open("h")
        #expect(doc.cursor == 2)
        try doc.redo()
        #expect(doc.rootIDs == ["d", "a", "b"])
        #expect(try doc.verify() == [])
        #expect(try doc.history().map(\.label) == [nil, nil, "open across sessions"])
    }

    @Test func logEntriesCarryEverythingForExport() throws {
        let store = try DocumentStore(path: ":memory:")
        let settings = DocumentSettings(axis: .horizontal, viewport: Size(width: 800, height: 600))
        let doc = try store.create("e", settings: settings)
        try doc.run(Ops.add("a", at: 0))
        try doc.begin("g")
        try doc.run(Ops.add("b", at: 1))
        try doc.commit()
        try doc.undo(2)
        try doc.redo(1)
        let log = try doc.log()
        #expect(log.map(\.seq) == Array(1...7))
        #expect(log[0].kind == .newDocument && log[0].settings == settings)
        #expect(log[1].edit == .add(ids: ["a"], spec: [], position: .index(0), parent: nil))
        #expect(log[2].kind == .begin && log[2].label == "g")
        #expect(log[3].group == 3)
        #expect(log[4].kind == .commit && log[4].label == "g")
        #expect(log[5].kind == .undo && log[5].count == 2)
        #expect(log[6].kind == .redo && log[6].count == 1)
        #expect(try doc.log(from: 6, limit: 1).map(\.seq) == [6])
    }

    @Test func tamperingIsReported() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "t.sqlite").path
        let doc = try DocumentStore(path: path).create("t")
        try doc.run(Ops.add("a", at: 0))
        try doc.run(Ops.add("b", at: 1))
        #expect(try doc.verify() == [])
        try Tamper.sql(path, "UPDATE row SET fields = \(Schema.rowFieldsLiteral(RowConfig(grow: 5))) WHERE id = 'a'; UPDATE document SET spacing = 2")
        let problems = try doc.verify()
        // Values in the command language's syntax (issue 13 item 21), never Swift's debug text.
        #expect(problems.contains("row 'a'.grow: stored 5, replayed 0"), "\(problems)")
        #expect(problems.contains("settings.spacing: stored 2, replayed 0"), "\(problems)")
        try Tamper.sql(path, "UPDATE row SET size = 99, fields = \(Schema.rowFieldsLiteral(RowConfig(grow: 5, hidden: true))) WHERE id = 'a'")
        let sized = try doc.verify()
        #expect(sized.contains("row 'a'.size: stored fixed 99, replayed fixed 10") || sized.contains { $0.hasPrefix("row 'a'.size: stored fixed 99, replayed ") }, "\(sized)")
        #expect(sized.contains("row 'a'.hidden: stored on, replayed off"), "\(sized)")
        #expect(!sized.contains { $0.contains("(") && $0.contains(".0") }, "no Swift debug text: \(sized)")
        try Tamper.sql(path, "DELETE FROM row WHERE id = 'b'; UPDATE document SET cursor = 1")
        let more = try doc.verify()
        #expect(more.contains("row 'b': in the log's document but not stored"))
        #expect(more.contains("history: cursor stored 1, replayed 2"))
    }

    @Test func reorderedAndReparentedRowsAreReported() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "o.sqlite").path
        let doc = try DocumentStore(path: path).create("o")
        try doc.perform(.add(ids: ["a", "b", "c"], spec: [], position: nil, parent: nil))
        try doc.perform(.add(ids: ["s"], spec: [.stack(.vertical)], position: nil, parent: nil))
        #expect(try doc.verify() == [])
        try Tamper.sql(path, "UPDATE row SET order_key = 'Zz' WHERE id = 'c'; UPDATE row SET parent = 's' WHERE id = 'b'; INSERT INTO row (document, parent, order_key, id, size, fields) SELECT document, parent, 'zz', 'extra', size, fields FROM row WHERE id = 'a'")
        let problems = try doc.verify()
        #expect(problems.contains("row 'b': stored in 's', replayed in the root"))
        #expect(problems.contains("rows of the root: stored 4, replayed 4, first difference at index 0: stored 'c', replayed 'a'"))
        #expect(problems.contains("rows of 's': stored 1, replayed 0, first difference at index 0: stored 'b', replayed none"))
        #expect(problems.contains("row 'extra': stored but not in the log's document"))
    }
}

@Suite(.offThePool) struct ReplanTests {
    /// `verify(replan: true)` reports a logged edit whose changes are not what it plans to.
    @Test func editsThatDoNotPlanToTheirChangesAreReported() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try store.create("r")
        try doc.perform(.add(ids: ["a"], spec: [.fixed(10)], position: nil, parent: nil))
        // Logged as `add b` but the changes add a row with another config.
        try doc.perform(.add(ids: ["b"], spec: [], position: nil, parent: nil),
                        changes: [.insertRow(id: "b", config: RowConfig(grow: 3), parent: nil, index: 1)])
        #expect(try doc.verify() == [])
        #expect(try doc.verify(replan: true) == ["log entry 3 (op), step 2: planning its edit again gives other changes than the logged ones"])
    }

    /// Issue 9 item 5: view operations stored by a stale session — a `scroll to c` whose offset
    /// came from an old layout, a scroll to a row hidden meanwhile — replay (their changes apply)
    /// but do not re-plan; `verify(replan:)` names the first such entry by seq, in log order.
    @Test func staleViewOperationsAreReportedFirstByTheirSeq() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try store.create("r", settings: DocumentSettings(viewport: Size(width: 100, height: 100)))
        try doc.perform(.add(ids: ["a", "b", "c", "d"], spec: [.fixed(76)], position: nil, parent: nil))   // seq 2
        try doc.perform(.set(id: "a", spec: [.fixed(124)]))                                                 // seq 3
        // seq 4: `scroll to c top` with the offset of the layout before `set a fixed 124` (152).
        var settings = doc.document.settings
        settings.offset = 152
        try doc.perform(.scroll(.to("c", .top)), changes: [.updateSettings(old: doc.document.settings, new: settings)])
        try doc.perform(.hide(ids: ["c"]))                                                                  // seq 5
        // seq 6: a scroll to the hidden row c, stored with some offset.
        var later = doc.document.settings
        later.offset = 10
        try doc.perform(.scroll(.to("c", .top)), changes: [.updateSettings(old: doc.document.settings, new: later)])
        try doc.perform(.scroll(.to("b", .top)))                                                            // seq 7, faithful
        #expect(try doc.verify() == [])
        #expect(try doc.verify(replan: true) == [
            "log entry 4 (view): planning its edit again gives other changes than the logged ones",
            "log entry 6 (view): its edit no longer plans: cannot scroll to row 'c': it is hidden",
        ])
    }

    /// Undo and redo keep the replayed live layout in step: edits after them re-plan faithfully.
    @Test func replanningFollowsUndoAndRedo() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try store.create("r", settings: DocumentSettings(viewport: Size(width: 100, height: 100)))
        try doc.perform(.add(ids: ["a", "b", "c"], spec: [.fixed(62.244)], position: nil, parent: nil))
        try doc.perform(.set(id: "a", spec: [.fixed(0.1)]))
        try doc.perform(.scroll(.to("c", .bottom)))
        try doc.undo()
        try doc.perform(.scroll(.to("c", .top)))
        try doc.redo()
        try doc.perform(.scroll(.to("b", .middle)))
        try doc.perform(.viewport(Size(width: 100, height: 33.3)))
        try doc.perform(.scroll(.by(17.77)))
        #expect(try doc.verify(replan: true) == [])
    }
}
