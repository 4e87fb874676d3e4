import Foundation
import GRDB
import Layout
@testable import Store
import Testing
import StackDocTestSupport

/// Issue 15 item 7: `compactHistory(before:)` drops the log up to a point; the document and the
/// history after it stay exact, across reopening; refused points change nothing.
@Suite(.offThePool) struct HistoryCompactionTests {
    func edits(_ doc: StoredDocument) throws {
        try doc.perform(.add(ids: ["a", "b", "c"], spec: [.fixed(10)], position: nil, parent: nil))  // 2
        try doc.mark("m1")                                                                          // 3
        try doc.perform(.set(id: "a", spec: [.grow(1)]))                                            // 4
        try doc.mark("m2")                                                                          // 5
        try doc.perform(.hide(ids: ["b"]))                                                          // 6
        try doc.perform(.add(ids: ["d"], spec: [.fixed(4)], position: nil, parent: nil))            // 7
        try doc.undo()                                                                              // 8
        try doc.perform(.scroll(.offset(5)))                                                        // 9 (view)
    }

    @Test func compactingKeepsTheDocumentAndTheLaterHistory() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "c.sqlite").path
        let doc = try DocumentStore(path: path).create("c")
        try edits(doc)
        let before = doc.document, atM2 = try doc.document(at: .mark("m2")), atSix = try doc.document(at: .entry(6))
        let result = try doc.compactHistory(before: .mark("m2"))
        #expect(result == CompactionResult(base: 4, previousBase: 0, droppedEntries: 4, droppedSteps: 2, droppedMarks: ["m1"],
                                           droppedSnapshots: 0, keptEntries: 5))
        #expect(doc.document == before && doc.historyBase == 4)
        #expect(try doc.verify(replan: true) == [])
        #expect(try doc.document(at: .mark("m2")) == atM2 && doc.document(at: .entry(6)) == atSix)
        #expect(try doc.document(at: .entry(4)) == atM2, "the base is a point: the entry before the mark")
        #expect(throws: StackDocError(.compactedEntry(document: "c", entry: 3, base: 4))) { try doc.document(at: .entry(3)) }
        #expect(throws: StackDocError(.compactedEntry(document: "c", entry: 1, base: 4))) { try doc.diff(from: .entry(1)) }
        #expect(throws: StackDocError(.compactedEntry(document: "c", entry: 2, base: 4))) { try doc.restore(to: .now(back: 7)) }
        #expect(thrownMessage { try doc.document(at: .mark("m1")) } == "no mark 'm1' in 'c' (marks before log entry 5 were dropped by history compact)")
        // The kept steps are renumbered from 1: `hide b` is step 1, `add d` the redo tail.
        #expect(try doc.history().map(\.firstSeq) == [6, 7] && doc.cursor == 1)
        #expect(try doc.marks().map(\.name) == ["m2"] && doc.marks()[0].cursor == 0 && doc.marks()[0].reachable)
        #expect(throws: StackDocError(.undoPastCompaction(document: "c", count: 2, available: 1, base: 4))) { try doc.undo(2) }
        #expect(doc.document == before)
        // The same after reopening, and the history keeps working.
        let reopened = try DocumentStore(path: path).open("c")
        #expect(reopened.document == before && reopened.historyBase == 4 && reopened.cursor == 1 && reopened.stepCount == 2)
        try reopened.redo()
        try reopened.undo(toMark: "m2")
        #expect(reopened.document.config(of: "b")?.hidden == false && !reopened.document.contains("d"))
        #expect(throws: StackDocError(.undoPastCompaction(document: "c", count: 1, available: 0, base: 4))) { try reopened.undo() }
        try reopened.perform(.set(id: "c", spec: [.fixed(30)]))
        #expect(try reopened.verify(replan: true) == [])
        #expect(try reopened.replayed() == reopened.document)
        // A second compaction, of every entry: nothing is left to undo; the log is empty.
        let now = try reopened.compactHistory()
        #expect(now.base == 12 && now.previousBase == 4 && now.keptEntries == 0 && now.droppedMarks == ["m2"])
        #expect(try reopened.log().isEmpty && reopened.verify(replan: true) == [])
        let third = try DocumentStore(path: path).open("c")
        let thirdEntries = try third.status().logEntries
        #expect(third.document == reopened.document && thirdEntries == 12)
        try third.perform(.show(ids: ["b"]))
        #expect(try third.log().map(\.seq) == [13] && third.verify(replan: true) == [])
        #expect(try third.compactHistory(before: .entry(13)).droppedEntries == 0, "compacting at the base again does nothing")
    }

    @Test func refusedPointsChangeNothing() throws {
        let store = try DocumentStore(path: ":memory:")
        let doc = try store.create("r")
        try edits(doc)
        try doc.restore(to: .mark("m1"))                                                            // 10
        func refused(_ ref: HistoryRef, _ why: String) {
            let before = doc.document, log = try? doc.log()
            #expect(thrownMessage { try doc.compactHistory(before: ref) } == "cannot compact the history of 'r' before log entry \(try! doc.resolve(ref)): \(why)")
            #expect(doc.document == before && (try? doc.log()) == log && doc.historyBase == 0)
        }
        refused(.mark("m2"), "the restore at log entry 10 goes back to entry 3 (compact before 4 or earlier)")
        // Entry 7's step is undone by entry 8: compacting at 7 would leave that undo nothing to undo.
        try doc.undo(4)                                                                             // 11
        refused(.entry(3), "the later history does not replay without the earlier entries (log entry 11 (undo): only 3 steps to undo)")
        try doc.begin("g")
        #expect(thrownMessage { try doc.compactHistory() } == "cannot compact the history while a group is open (begin 'g'): commit or rollback first")
        try doc.rollback()
        #expect(try doc.verify(replan: true) == [])
    }

    @Test func theBaseSnapshotIsKeptAndChecked() throws {
        let store = try DocumentStore(path: ":memory:", options: StoreOptions(snapshots: SnapshotPolicy(interval: 2, keep: 1)))
        let doc = try store.create("s")
        try edits(doc)
        try doc.compactHistory(before: .entry(6))
        for i in 0..<5 { try doc.perform(.set(id: "c", spec: [.fixed(Double(i))])) }
        // `keep: 1` deletes every older snapshot but the base.
        let seqs = try doc.snapshots().map(\.seq)
        #expect(seqs.count == 2 && seqs.contains(5), "\(seqs)")
        #expect(try doc.verify() == [])
        // A damaged base: verify and time travel say so.
        try store.write { db in try db.execute(sql: "UPDATE snapshot SET image = substr(image, 1, 20) WHERE seq = 5") }
        #expect(try doc.verify().first?.contains("the snapshot its compacted history starts from (after log entry 5) is damaged") == true)
    }
}
