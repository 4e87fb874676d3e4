import Testing
@testable import Layout
import StackDocTestSupport

@Suite("Document model primitives", .offThePool)
struct DocumentModelTests {
    func sample() throws -> Document {
        var doc = Document(name: "d")
        try doc.insertRow("a", config: RowConfig(), parent: nil, at: 0)
        try doc.insertRow("s", config: RowConfig(stack: StackSettings()), parent: nil, at: 1)
        try doc.insertRow("b", config: RowConfig(), parent: "s", at: 0)
        return doc
    }

    @Test func insertKeepsOrderAndParents() throws {
        let doc = try sample()
        #expect(doc.children(of: nil) == ["a", "s"])
        #expect(doc.children(of: "s") == ["b"])
        #expect(doc.parent(of: "b") == .some("s"))
        #expect(doc.index(of: "s") == 1)
        #expect(doc.rowCount == 3)
    }

    @Test func failedPrimitiveChangesNothing() throws {
        var doc = try sample()
        let before = doc
        #expect(throws: StackDocError.self) { try doc.insertRow("a", config: RowConfig(), parent: nil, at: 0) }
        #expect(throws: StackDocError.self) { try doc.insertRow("x", config: RowConfig(), parent: "a", at: 0) }
        #expect(throws: StackDocError.self) { try doc.insertRow("x", config: RowConfig(), parent: nil, at: 3) }
        #expect(throws: StackDocError.self) { try doc.moveRow("s", to: "s", at: 0) }
        #expect(throws: StackDocError.self) { try doc.removeRow("s") }
        #expect(doc == before)
    }

    @Test func changeListIsAllOrNothing() throws {
        var doc = try sample()
        let before = doc
        let changes: [Change] = [
            .moveRow(id: "a", fromParent: nil, fromIndex: 0, toParent: "s", toIndex: 1),
            .insertRow(id: "b", config: RowConfig(), parent: nil, index: 0),  // duplicate id
        ]
        #expect(throws: StackDocError.self) { try doc.apply(changes) }
        #expect(doc == before)
    }

    @Test func inverseUndoesChanges() throws {
        var doc = try sample()
        let before = doc
        let changes: [Change] = [
            .moveRow(id: "a", fromParent: nil, fromIndex: 0, toParent: "s", toIndex: 1),
            .updateRow(id: "b", old: RowConfig(), new: RowConfig(type: "label")),
            .removeRow(id: "b", config: RowConfig(type: "label"), parent: "s", index: 0),
            .updateSettings(old: doc.settings, new: DocumentSettings(axis: .horizontal)),
        ]
        try doc.apply(changes)
        #expect(doc.children(of: "s") == ["a"])
        #expect(doc.settings.axis == .horizontal)
        try doc.apply(changes.inverse)
        #expect(doc == before)
    }

    @Test func treesFollowDocumentOrder() throws {
        let doc = try sample()
        var seen: [String] = []
        doc.forEachRow { id, _, _, _ in seen.append(id) }
        #expect(seen == ["a", "s", "b"])
        #expect(doc.trees.map(\.id) == ["a", "s"])
        #expect(doc.tree(of: "s")?.rows.map(\.id) == ["b"])
    }
}
