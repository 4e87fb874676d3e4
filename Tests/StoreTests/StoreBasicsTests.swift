import Foundation
import GRDB
import Layout
import Store
import Testing
import StackDocTestSupport

@Suite(.offThePool) struct StoreBasicsTests {
    @Test func createEditReopen() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "a.sqlite").path
        var before: [String] = []
        do {
            let store = try DocumentStore(path: path)
            let doc = try store.create("home", settings: DocumentSettings(axis: .horizontal, viewport: Size(width: 300, height: 200)))
            try doc.run(Ops.add("a", RowConfig(size: .fixed(100)), at: 0))
            try doc.run(Ops.add("s", RowConfig(stack: StackSettings(axis: .horizontal)), at: 1))
            try doc.run(Ops.add("b", RowConfig(type: "label", content: Size(width: 3, height: 4), insets: Edges(all: 1.5)), at: 0, in: "s"))
            try doc.run(Ops.add("c", RowConfig(margin: Edges(top: 0.1, left: 0.2, bottom: 0.3, right: -0.0)), at: 0))
            try doc.run(Ops.move("a", to: 1, in: "s", of: doc.document))
            try doc.run(Ops.set("b", in: doc.document) { $0.separator = SeparatorOverrides(hidden: false, insets: .zero, thickness: 0.5, color: "#000000"); $0.grow = 1; $0.alignSelf = .center })
            #expect(doc.rootIDs == ["c", "s"])
            #expect(doc.document.children(of: "s") == ["b", "a"])
            before = snapshot(doc.document)
            #expect(try doc.verify() == [])
            #expect(try store.documentNames() == ["home"])
        }
        let store = try DocumentStore(path: path)
        let doc = try store.open("home")
        #expect(snapshot(doc.document) == before)
        #expect(doc.document.settings.axis == .horizontal)
        #expect(try doc.verify() == [])
        let summary = try #require(try store.documents().first)
        #expect(summary.rowCount == 4)
        #expect(summary.steps == 6)
        #expect(summary.cursor == 6)
    }

    @Test func inMemoryDatabase() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try store.create("m")
        try doc.run(Ops.add("a", at: 0))
        #expect(try store.open("m").document == doc.document)
    }

    @Test func documentsAreListedCreatedAndDropped() throws {
        let store = try DocumentStore(path: ":memory:")
        try store.create("b")
        try store.create("a.1-x_y")
        #expect(try store.documentNames() == ["a.1-x_y", "b"])
        #expect(thrownMessage { try store.create("b") } == "document 'b' already exists")
        for bad in ["", "a b", "x/y", String(repeating: "n", count: 65), "é"] {
            #expect(throws: StackDocError.self) { try store.create(bad) }
        }
        try store.drop("b")
        #expect(try store.documentNames() == ["a.1-x_y"])
        #expect(thrownMessage { try store.drop("b") } == "no document 'b'")
        #expect(thrownMessage { try store.open("zz") } == "no document 'zz'")
    }

    @Test func dropRemovesEverythingOfTheDocument() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "drop.sqlite").path
        let store = try DocumentStore(path: path)
        var d = Document(name: "gone")
        try d.insertRow("a", config: RowConfig(), parent: nil, at: 0)
        let doc = try store.importDocument(d)
        try doc.perform(.add(ids: ["b"], spec: [], position: nil, parent: nil))
        let kept = try store.create("kept")
        try kept.perform(.add(ids: ["k"], spec: [], position: nil, parent: nil))
        try store.drop("gone")
        let counts = try GRDB.DatabaseQueue(path: path).read { db in
            try ["row", "log", "step", "document"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? -1 }
        }
        #expect(counts == [1, 2, 1, 1])  // the imported document's current and import-entry rows are gone
        #expect(thrownMessage {
            try doc.perform(.add(ids: ["c"], spec: [], position: nil, parent: nil))
        } == "document 'gone' was dropped by another process")
    }

    @Test func importKeepsRowsAndReplays() throws {
        let store = try DocumentStore(path: ":memory:")
        var d = Document(name: "imp", settings: DocumentSettings(spacing: 3))
        try d.insertRow("s", config: RowConfig(stack: StackSettings()), parent: nil, at: 0)
        for i in 0..<300 { try d.insertRow("r\(i)", config: RowConfig(size: .fixed(Double(i))), parent: i % 2 == 0 ? nil : "s", at: i % 2 == 0 ? i / 2 + 1 : i / 2) }
        let doc = try store.importDocument(d)
        #expect(snapshot(doc.document) == snapshot(d))
        #expect(snapshot(try store.open("imp").document) == snapshot(d))
        try doc.run(Ops.remove("s", from: doc.document))
        #expect(doc.document.rowCount == 150)
        #expect(try doc.verify() == [])
        let entries = try doc.log()
        #expect(entries.map(\.kind) == [.importDocument, .op])
        #expect(snapshot(try doc.importedDocument(at: 1)) == snapshot(d))
        try doc.undo()
        #expect(snapshot(doc.document) == snapshot(d))
        #expect(try doc.verify() == [])
    }

    @Test func orderKeysStayShortAndOrdered() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try store.create("k")
        for i in 0..<200 { try doc.run(Ops.append("b\(i)", to: doc)) }
        for i in 0..<200 { try doc.run(Ops.add("t\(i)", at: 0)) }
        for i in 0..<50 { try doc.run(Ops.add("m\(i)", at: 200)) }
        let expected = doc.rootIDs
        #expect(snapshot(try store.open("k").document) == snapshot(doc.document))
        #expect(try store.open("k").rootIDs == expected)
    }
}

@Suite(.offThePool) struct LargeDocumentTests {
    /// Above `RowLoader.parallelThreshold` rows the loader decodes and builds on two threads.
    @Test func largeNestedDocumentRoundTrips() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var d = Document(name: "large")
        d.reserveCapacity(rows: 60_000, rootRows: 40_000)
        for s in 0..<100 {
            try d.appendRow("s\(s)", config: RowConfig(stack: StackSettings(axis: .horizontal)), parent: nil)
            try d.appendRow("n\(s)", config: RowConfig(stack: StackSettings()), parent: "s\(s)")
        }
        for i in 0..<60_000 - 200 {
            let parent: RowID? = i % 3 == 0 ? "s\(i % 100)" : (i % 3 == 1 ? nil : "n\(i % 100)")
            try d.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(i % 90))), parent: parent)
        }
        let path = dir.appending(path: "large.sqlite").path
        let stored = try DocumentStore(path: path).importDocument(d)
        #expect(stored.document == d)
        let reopened = try DocumentStore(path: path).open("large")
        #expect(reopened.document == d)
        #expect(reopened.document.children(of: "n7") == d.children(of: "n7"))
        #expect(try reopened.verify() == [])
    }
}

/// Issue 14: the obscured edges and the keyboard are view state that persists, replays and
/// survives undo and redo; a sticky row persists.
@Suite(.offThePool) struct ObscuredViewStateStoreTests {
    @Test func obscuredEdgesPersistReplayAndAreNotUndone() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "o.sqlite").path
        var expected = DocumentSettings()
        do {
            let store = try DocumentStore(path: path)
            let doc = try store.create("form", settings: DocumentSettings(viewport: Size(width: 100, height: 200)))
            try doc.perform(.add(ids: ["a", "b", "c", "d", "e"], spec: [.fixed(80), .sticky(true)], position: nil, parent: nil))
            try doc.perform(.obscured(.insets(viewport: Size(width: 120, height: 200), insets: Edges(top: 20, left: 0, bottom: 10, right: 0))))
            try doc.perform(.obscured(.keyboard(100)))
            try doc.perform(.scroll(.focus("d")))
            try doc.perform(.set(id: "a", spec: [.sticky(false)]))
            try doc.undo()            // undoes the set, not the view state
            #expect(doc.document.config(of: "a")?.sticky == true)
            #expect(doc.document.settings.keyboard == 100)
            #expect(doc.document.settings.viewportInsets == Edges(top: 20, left: 0, bottom: 10, right: 0))
            #expect(doc.document.settings.viewport == Size(width: 120, height: 200))
            expected = doc.document.settings
            #expect(expected.offset == 292)  // d (312…416) is longer than the unobscured 20…100: its top at 20
            #expect(try doc.verify(replan: true) == [])
            #expect(try doc.replayed() == doc.document)
        }
        let doc = try DocumentStore(path: path).open("form")
        #expect(doc.document.settings == expected)
        #expect(doc.document.config(of: "c")?.sticky == true)
        #expect(try doc.verify(replan: true) == [])
    }
}
