import Foundation
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// The change bound of `SnapshotPolicy` (issue 15 item 8): a few entries that touch many rows (a
/// `clear` and its undo and redo) are snapshotted at once, so that no later open applies them
/// again; the changes a handle opened with count toward the bound; the result stays exact.
@Suite(.offThePool) struct SnapshotChangeBoundTests {
    func imported(_ path: String, rows: Int, policy: SnapshotPolicy) throws -> StoredDocument {
        var d = Document(name: "big")
        for i in 0..<rows {
            try d.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(10 + i % 7))), parent: nil)
        }
        return try DocumentStore(path: path, options: StoreOptions(snapshots: policy)).importDocument(d)
    }

    @Test func spacingInChangesFollowsTheRows() {
        let policy = SnapshotPolicy(changes: 100)
        #expect(policy.changeSpacing(rows: 0) == 100)
        #expect(policy.changeSpacing(rows: 4_000) == 1_000)
        #expect(policy.isDue(entries: 1, changes: 1_000, imageBytes: 0, rows: 4_000))
        #expect(!policy.isDue(entries: 1, changes: 999, imageBytes: 0, rows: 4_000))
        #expect(!SnapshotPolicy.off.isDue(entries: .max, changes: .max, imageBytes: 0, rows: 0))
    }

    /// Clear, undo, redo, undo of 400 rows with a bound of 100 changes: every one of them writes
    /// a snapshot, and every reopen reads the newest and applies no entry after it.
    @Test func bigEntriesAreSnapshottedAtOnce() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "c.sqlite").path
        let policy = SnapshotPolicy(changes: 100)
        let doc = try imported(path, rows: 400, policy: policy)
        let moves: [(StoredDocument) throws -> Void] = [
            { try $0.perform(.clear(parent: nil)) }, { try $0.undo() }, { try $0.redo() }, { try $0.undo() },
        ]
        for (i, move) in moves.enumerated() {
            let handle = try DocumentStore(path: path, options: StoreOptions(snapshots: policy)).open("big")
            try move(handle)
            #expect(try handle.snapshots().count == i + 2)
            let reopened = try DocumentStore(path: path, options: StoreOptions(snapshots: policy)).open("big")
            #expect(reopened.loadSource == .snapshot(version: handle.version, seq: i + 2, tail: 0))
            #expect(reopened.document == handle.document)
            #expect(try reopened.verify() == [])
        }
        #expect(doc.document.rowCount == 400)
    }

    /// Small writes from many processes: each handle starts from the changes of the tail it
    /// opened with, so the bound is reached across processes, not only within one.
    @Test func changesOfTheOpenedTailCount() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "t.sqlite").path
        let policy = SnapshotPolicy(interval: 1_000, changes: 30)
        _ = try imported(path, rows: 20, policy: policy)
        var written = 0
        for i in 0..<9 {
            let handle = try DocumentStore(path: path, options: StoreOptions(snapshots: policy)).open("big")
            for row in 0..<10 { try handle.perform(.set(id: "r\(row)", spec: [.fixed(Double(20 + i))])) }
            written = try handle.snapshots().count - 1
        }
        // 10 changes per process (one per row set, none of them clamped), a snapshot per 30.
        #expect(written == 3)
        let reopened = try DocumentStore(path: path, options: StoreOptions(snapshots: policy)).open("big")
        #expect(try reopened.verify() == [])
    }
}
