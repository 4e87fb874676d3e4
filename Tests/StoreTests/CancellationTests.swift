import Foundation
import Layout
import Store
import StackDocTestSupport
import Testing

/// Issue 13 item 23: the store's long loops stop at a `Cancellation` (Ctrl-C at the REPL) with
/// `StackDocError(.cancelled)`, and leave the database as it was: a cancelled import stores
/// nothing, a cancelled verify changes nothing and a later one passes.
@Suite(.offThePool) struct CancellationTests {
    /// A cancellation requested from its `after`-th question on; counts the questions.
    final class Trigger: @unchecked Sendable {
        private let lock = NSLock()
        private var asked = 0
        let after: Int
        init(after: Int) { self.after = after }
        var questions: Int { lock.withLock { asked } }
        var cancellation: Cancellation {
            Cancellation { [self] in
                lock.withLock {
                    asked += 1
                    return asked >= after
                }
            }
        }
    }

    /// A database file with one document `big`: an import of `rows` rows, then a few edits.
    static func database(_ dir: String, rows: Int) throws -> DocumentStore {
        let store = try DocumentStore(path: dir + "/big.sqlite")
        let seed = try store.create("seed")
        try seed.perform(.add(ids: (0..<rows).map { "r\($0)" }, spec: [.fixed(10)], position: nil, parent: nil))
        var document = seed.document
        document.name = "big"
        try store.drop("seed")
        let big = try store.importDocument(document)
        try big.perform(.add(ids: ["x"], spec: [.fixed(20)], position: nil, parent: nil))
        try big.perform(.hide(ids: ["r1"]))
        return store
    }

    @Test func verifyIsCancelledAndChangesNothing() throws {
        let dir = try Scratch.directory("cancel")
        defer { Scratch.remove(dir) }
        let store = try Self.database(dir, rows: 3 * Cancellation.interval)
        let doc = try store.open("big")
        let before = try doc.status()
        for after in [1, 2, 3, 5] {   // in the replay, the loading of the import's rows, the stored rows' loading, the end
            let trigger = Trigger(after: after)
            store.cancellation = trigger.cancellation
            #expect(throws: StackDocError(.cancelled)) { try doc.verify(replan: true) }
            #expect(trigger.questions == after, "verify stops at the first question answered yes")
        }
        let counting = Trigger(after: .max)
        store.cancellation = counting.cancellation
        #expect(try doc.verify(replan: true) == [])
        #expect(counting.questions >= 6, "asked in every long loop: \(counting.questions)")
        store.cancellation = .never
        #expect(try doc.status() == before)
        #expect(try doc.verify() == [])
    }

    @Test func importIsCancelledAndStoresNothing() throws {
        let dir = try Scratch.directory("cancel")
        defer { Scratch.remove(dir) }
        let store = try Self.database(dir, rows: 10)
        var document = Document(name: "copy")
        let seed = try store.create("seed")
        try seed.perform(.add(ids: (0..<5000).map { "c\($0)" }, spec: [.fixed(10)], position: nil, parent: nil))
        document = seed.document
        document.name = "copy"
        try store.drop("seed")
        let names = try store.documentNames()
        let trigger = Trigger(after: 40)   // 40 batches of rows in
        store.cancellation = trigger.cancellation
        #expect(throws: StackDocError(.cancelled)) { try store.importDocument(document) }
        #expect(try store.documentNames() == names)
        store.cancellation = .never
        // Nothing of the cancelled import is left: the same import then works, and verifies.
        let copy = try store.importDocument(document)
        #expect(copy.document.rowCount == 5000)
        #expect(try copy.verify() == [])
        #expect(try store.integrityCheck() == [])
    }
}
