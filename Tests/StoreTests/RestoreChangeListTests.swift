import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 36 item 3: after one `move` of the last row to the front, `restore` of the state before
/// it is one move — its entry a few hundred bytes, its undo one move — not a move of every row.
@Suite(.offThePool) struct RestoreChangeListTests {
    @Test func aRestoreAfterOneMoveIsOneMove() throws {
        let dir = try Scratch.directory("restore")
        defer { Scratch.remove(dir) }
        let path = dir + "/r.sqlite"
        let rows = 5_000
        let doc = try DocumentStore(path: path, options: StoreOptions(snapshots: .off)).create("d")
        try doc.perform(.add(ids: (0..<rows).map { "x\($0)" }, spec: [], position: nil, parent: nil))
        let before = doc.document
        try doc.perform(.move(id: "x\(rows - 1)", position: .index(0), parent: nil))
        let result = try doc.restore(to: .entry(2))
        #expect(result.changes == [.moveRow(id: "x\(rows - 1)", fromParent: nil, fromIndex: 0, toParent: nil, toIndex: rows - 1)])
        #expect(doc.document == before)
        let bytes = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT ifnull(length(payload),0) + ifnull(length(forward),0) + ifnull(length(inverse),0) FROM log WHERE kind = 'restore'") ?? -1
        }
        #expect(bytes > 0 && bytes < 1_000, "the restore's entry takes \(bytes) bytes")
        #expect(try doc.undo().changes.count == 1)
        #expect(try doc.verify(replan: true) == [])
    }
}
