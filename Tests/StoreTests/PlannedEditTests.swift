import Foundation
import Layout
import Store
import Testing
import StackDocTestSupport

/// The store with the real planner: `perform(edit)` = plan → apply → write → log, one
/// transaction.
@Suite(.offThePool) struct PlannedEditTests {
    static let script: [Edit] = [
        .add(ids: ["a", "b", "c"], spec: [.fixed(50)], position: nil, parent: nil),
        .add(ids: ["s"], spec: [.stack(.horizontal), .spacing(4)], position: .after("a"), parent: nil),
        .add(ids: ["x", "y"], spec: [.content(Size(width: 10, height: 20)), .type("label")], position: .top, parent: "s"),
        .move(id: "c", position: .before("x"), parent: "s"),
        .hide(ids: ["b", "y"]),
        .set(id: "a", spec: [.insets(Edges(all: 2)), .grow(1), .separator(.thickness(3))]),
        .setStack(.padding(Edges(top: 1, left: 2, bottom: 3, right: 4))),
        .defaults(.separator([.color("#112233"), .hidden])),
        .viewport(Size(width: 320, height: 100)),
        .scroll(.offset(10)),
        .replace(id: "x", newID: "z", spec: [.fixed(7)]),
        .show(ids: ["b"]),
        .remove(ids: ["a"]),
        .clear(parent: "s"),
        .add(ids: ["t"], spec: [], position: .index(1), parent: nil),
    ]

    @Test func everyKindOfEditIsStoredLoggedAndUndoable() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "planned.sqlite").path
        let store = try DocumentStore(path: path)
        let doc = try store.create("p")
        var states: [Document] = [doc.document]
        for edit in Self.script {
            let changes = try doc.perform(edit)
            #expect(!changes.isEmpty, "\(edit)")
            states.append(doc.document)
            #expect(try store.open("p").document == doc.document, "\(edit)")
        }
        #expect(try doc.verify(replan: true) == [])
        let logged = try doc.log().compactMap(\.edit)
        #expect(logged == Self.script)
        // Undo steps skip scroll and viewport.
        #expect(doc.stepCount == Self.script.count - 2)
        try doc.undo(doc.cursor)
        #expect(doc.document.rowCount == 0)
        #expect(doc.document.settings.viewport == Size(width: 320, height: 100))
        // Undoing everything left no content, so the offset was clamped to 0 (SPEC §2.6), and
        // redo keeps the view.
        #expect(doc.document.settings.offset == 0)
        try doc.redo(doc.stepCount)
        var expected = states.last!
        expected.settings.offset = 0
        #expect(doc.document == expected)
        #expect(try doc.verify(replan: true) == [])
    }

    @Test func plannerErrorsChangeNothing() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try store.create("p")
        try doc.perform(.add(ids: ["a", "b"], spec: [], position: nil, parent: nil))
        let state = doc.document, log = try doc.log()
        let bad: [Edit] = [
            .add(ids: ["c", "a"], spec: [], position: nil, parent: nil),
            .add(ids: ["c"], spec: [], position: .index(9), parent: nil),
            .add(ids: ["c"], spec: [], position: .after("nope"), parent: nil),
            .remove(ids: ["a", "nope"]),
            .hide(ids: ["nope"]),
            .move(id: "a", position: .top, parent: "b"),
            .set(id: "a", spec: [.grow(-1)]),
            .set(id: "a", spec: [.fixed(.nan)]),
            .replace(id: "a", newID: "b", spec: []),
            .scroll(.to("nope", .top)),
        ]
        for edit in bad {
            #expect(throws: StackDocError.self, "\(edit)") { try doc.perform(edit) }
        }
        #expect(doc.document == state)
        #expect(try doc.log() == log)
        #expect(try store.open("p").document == state)
    }
}
