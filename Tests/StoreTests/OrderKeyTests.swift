import Foundation
import GRDB
import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 9 item 6: order keys stay within `OrderKey.maxLength` bytes whatever the insert
/// pattern, and re-keying never changes the rows' order.
@Suite(.longRunning) struct OrderKeyTests {
    /// Writes `count` rows one change at a time through `RowWriter` (the path every operation
    /// takes) in one transaction: a header, then `x0…` each at `index(i)`. Returns the in-memory
    /// document, the longest stored key and the file size after a checkpoint.
    func fill(_ path: String, count: Int, index: (Int) -> Int) throws -> (Document, Int, Int) {
        let store = try DocumentStore(path: path)
        let handle = try store.create("d")
        var document = handle.document
        let config = RowConfig(size: .fixed(20))
        try store.write { db in
            for (i, id) in (["header"] + (0..<count).map { "x\($0)" }).enumerated() {
                let change = Change.insertRow(id: id, config: config, parent: nil, index: i == 0 ? 0 : index(i))
                try document.apply(change)
                try RowWriter.write(change, after: document, db: db, id: handle.id)
            }
        }
        let longest = try store.read { db in
            try Int.fetchOne(db, sql: "SELECT max(length(order_key)) FROM row") ?? 0
        }
        try store.queue.inDatabase { db in _ = try GRDB.Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        return (document, longest, size)
    }

    /// 100,000 inserts at index 1 (a feed under a header) used to grow keys by one character
    /// every ~6 inserts (6,669-character keys after 40,000).
    @Test func hundredThousandInsertsAtOneIndexKeepKeysShort() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let n = Int(ProcessInfo.processInfo.environment["STACKDOC_KEYS_N"] ?? "") ?? 100_000
        let (feed, longest, feedSize) = try fill(dir.appending(path: "feed.sqlite").path, count: n) { _ in 1 }
        let (_, appendedLongest, appendedSize) = try fill(dir.appending(path: "appended.sqlite").path, count: n) { $0 }
        print("order keys: \(n) inserts at 1 → longest key \(longest) B, file \(feedSize) B; appended → longest \(appendedLongest) B, file \(appendedSize) B")
        #expect(longest <= OrderKey.maxLength)
        #expect(Double(feedSize) <= 1.5 * Double(appendedSize))
        let reopened = try DocumentStore(path: dir.appending(path: "feed.sqlite").path).open("d")
        #expect(reopened.document.children(of: nil) == feed.children(of: nil))
        #expect(reopened.document.children(of: nil).prefix(3) == ["header", "x\(n - 1)", "x\(n - 2)"])
    }

    /// Random inserts and moves across three stacks, half of them at a few hot spots (so the
    /// gaps there run out and neighbourhoods are re-keyed, moved rows included), through the
    /// public API: every key stays short, and the stored order is the in-memory order after
    /// reopening; the log still replays.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomInsertsAndMovesKeepOrder(seed: UInt64) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "r.sqlite").path
        let store = try DocumentStore(path: path)
        let doc = try store.create("d")
        try doc.run(Ops.add("s", RowConfig(stack: StackSettings()), at: 0))
        try doc.run(Ops.add("t", RowConfig(stack: StackSettings()), at: 1))
        var rng = SplitMix64(seed: seed)
        let parents: [RowID?] = [nil, "s", "t"]
        var hot = [1, 0, 0]
        for i in 0..<2500 {
            let p = Int(rng.next() % 3)
            let parent = parents[p]
            let count = doc.document.children(of: parent).count
            let roll = rng.next() % 8
            if roll == 0 { hot[p] = Int(rng.next() % UInt64(count + 1)) }
            let at = roll < 4 ? min(hot[p], count) : Int(rng.next() % UInt64(count + 1))
            if roll >= 6, count > 2 {
                // Move a random row of any stack (not a stack row) to `at` of `parent`.
                let from = parents[Int(rng.next() % 3)]
                let candidates = doc.document.children(of: from).filter { $0 != "s" && $0 != "t" }
                guard let id = candidates.randomElement(using: &rng) else { continue }
                let target = min(at, doc.document.children(of: parent).count - (from == parent ? 1 : 0))
                try doc.run(Ops.move(id, to: target, in: parent, of: doc.document))
            } else {
                try doc.run(Ops.add("r\(i)", at: at, in: parent))
            }
        }
        let longest = try store.read { db in try Int.fetchOne(db, sql: "SELECT max(length(order_key)) FROM row") ?? 0 }
        #expect(longest <= OrderKey.maxLength)
        let reopened = try DocumentStore(path: path).open("d")
        for parent in parents {
            #expect(reopened.document.children(of: parent) == doc.document.children(of: parent))
        }
        #expect(try reopened.verify() == [])
    }
}
