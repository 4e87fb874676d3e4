import Foundation
import GRDB
import Layout
import Store
import Testing
import StackDocTestSupport

/// Issue 9, item 2: document ids are reused by SQLite and versions restart at 1, so a handle
/// checks the document's never-reused identity (`uid`, migration 0003) with its version.
@Suite(.offThePool) struct IdentityTests {
    private func shared() throws -> (path: String, a: DocumentStore, b: DocumentStore, cleanup: () -> Void) {
        let dir = temporaryDirectory()
        let path = dir.appending(path: "shared.sqlite").path
        return (path, try DocumentStore(path: path), try DocumentStore(path: path), { try? FileManager.default.removeItem(at: dir) })
    }

    private func edit(_ doc: StoredDocument, _ edit: Edit) throws {
        try doc.perform(edit)
    }

    /// The scenario, on two connections: A's stale write fails and B's document stays.
    @Test func droppedAndRecreatedDocumentFailsTheStaleCheck() throws {
        let (_, storeA, storeB, cleanup) = try shared()
        defer { cleanup() }
        let a = try storeA.create("d")
        try edit(a, .add(ids: ["a1", "a2", "a3"], spec: [.fixed(10)], position: nil, parent: nil))
        try edit(a, .set(id: "a1", spec: [.fixed(20)]))
        try storeB.drop("d")
        let b = try storeB.create("d")
        try edit(b, .add(ids: ["a1", "a2", "a3"], spec: [.fixed(50)], position: nil, parent: nil))
        try edit(b, .set(id: "a2", spec: [.fixed(60)]))
        #expect(a.version == b.version)  // with the reused id: what fooled the old check
        let before = b.document
        #expect(thrownMessage {
            try a.perform(.set(id: "a1", spec: [.grow(1)]))
        } == "document 'd' was dropped by another process")
        #expect(thrownMessage { try a.undo() } == "document 'd' was dropped by another process")
        #expect(thrownMessage { try a.begin() } == "document 'd' was dropped by another process")
        #expect(thrownMessage { try a.history() } == "document 'd' was dropped by another process")
        #expect(thrownMessage { try a.log() } == "document 'd' was dropped by another process")
        #expect(thrownMessage { try a.reload() } == "document 'd' was dropped by another process")
        #expect(try a.refreshIfStale() == .dropped)
        #expect(try a.isStale())
        let reopened = try storeA.open("d")
        #expect(reopened.document == before)
        #expect(reopened.document.config(of: "a1")?.size == .fixed(50))
        #expect(try reopened.verify(replan: true) == [])
    }

    /// A handle whose id now belongs to a document of another name never writes into it.
    @Test func reusedIdOfAnotherNameIsNotWritten() throws {
        let (path, storeA, storeB, cleanup) = try shared()
        defer { cleanup() }
        let ids = { try DatabaseQueue(path: path).read { db in try Int64.fetchAll(db, sql: "SELECT id FROM document") } }
        let a = try storeA.create("d")
        let idOfD = try ids()
        try storeB.drop("d")
        let e = try storeB.create("e")
        #expect(try ids() == idOfD && e.version == a.version)  // SQLite reused the id
        #expect(thrownMessage {
            try a.perform(.add(ids: ["x"], spec: [], position: nil, parent: nil))
        } == "document 'd' was dropped by another process")
        #expect(try storeB.open("e").document.rowCount == 0)
        #expect(try storeB.open("e").log().count == 1)
    }

    /// The variant that corrupted history: the stale handle at cursor 4 must not write a step
    /// into the re-created document's 2-step history.
    @Test func staleCursorNeverCorruptsTheNewHistory() throws {
        let (_, storeA, storeB, cleanup) = try shared()
        defer { cleanup() }
        let a = try storeA.create("d")
        for row in ["a", "b", "c", "e"] { try edit(a, .add(ids: [row], spec: [.fixed(10)], position: nil, parent: nil)) }
        try storeB.drop("d")
        let b = try storeB.create("d")
        try edit(b, .add(ids: ["x"], spec: [], position: nil, parent: nil))
        try edit(b, .add(ids: ["y"], spec: [], position: nil, parent: nil))
        try edit(b, .scroll(.offset(0)))
        try edit(b, .scroll(.offset(0)))
        #expect(a.version == b.version && a.cursor == 4 && b.cursor == 2)
        #expect(throws: StoreError.self) { try a.perform(.add(ids: ["z"], spec: [], position: nil, parent: nil)) }
        #expect(throws: StoreError.self) { try a.undo(2) }
        let reopened = try storeB.open("d")
        #expect(reopened.cursor == 2 && reopened.stepCount == 2)
        #expect(try reopened.history().count == 2)
        #expect(try reopened.verify(replan: true) == [])
    }

    /// `refreshIfStale` reports what it found and reloads only when needed; the reloaded handle
    /// has the other connection's state and writes again.
    @Test func refreshIfStaleReloads() throws {
        let (_, storeA, storeB, cleanup) = try shared()
        defer { cleanup() }
        let a = try storeA.create("d")
        let b = try storeB.open("d")
        #expect(try a.refreshIfStale() == .current)
        try edit(b, .add(ids: ["x"], spec: [.fixed(10)], position: nil, parent: nil))
        #expect(try a.status().logEntries == 1)  // this handle's state, not the database's
        #expect(throws: StoreError.self) { try a.history() }  // never mixes the two
        #expect(try a.refreshIfStale() == .reloaded)
        #expect(a.document == b.document)
        #expect(a.liveLayout().row("x") != nil)
        #expect(try a.status().logEntries == 2)
        try edit(a, .add(ids: ["y"], spec: [], position: nil, parent: nil))
        #expect(try b.refreshIfStale() == .reloaded)
        #expect(b.document.children(of: nil) == ["x", "y"])
    }

    /// Every document gets its own uid, also when re-created under the same name.
    @Test func everyDocumentHasItsOwnIdentity() throws {
        let (path, store, _, cleanup) = try shared()
        defer { cleanup() }
        _ = try store.create("d")
        try store.drop("d")
        _ = try store.create("d")
        _ = try store.create("e")
        let uids = try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "SELECT uid FROM document") }
        #expect(uids.count == 2 && Set(uids).count == 2)
    }
}
