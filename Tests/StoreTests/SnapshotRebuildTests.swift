import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// A snapshot is a cache: `verifyReport` names a damaged one apart from the log's problems (the
/// log and the stored document still agree), and `rebuildSnapshots()` writes it again from the
/// log's replay, after which `verify` is clean and open reads from it again.
@Suite(.offThePool) struct SnapshotRebuildTests {
    /// A document of 40 rows with a snapshot after entries 4, 8 and 12 (interval 4).
    static func fixture(_ path: String) throws -> StoredDocument {
        let doc = try DocumentStore(path: path, options: StoreOptions(snapshots: SnapshotPolicy(interval: 4))).create("d")
        try doc.perform(.add(ids: (0..<40).map { "r\($0)" }, spec: [.fixed(20)], position: nil, parent: nil))
        for i in 0..<10 { try doc.perform(.set(id: "r\(i * 3)", spec: [.fixed(Double(30 + i))])) }
        return doc
    }

    static func tamper(_ path: String, _ sql: String, _ arguments: StatementArguments = []) throws {
        try DocumentStore(path: path).write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    @Test func aDamagedSnapshotIsNamedApartAndRebuilt() throws {
        let dir = try Scratch.directory("rebuild")
        defer { Scratch.remove(dir) }
        let path = dir + "/r.sqlite"
        let expected = try Self.fixture(path).document
        let infos = try DocumentStore(path: path).open("d").snapshots()
        #expect(infos.map(\.seq) == [12, 8, 4])
        let middle = infos[1]
        // A flipped byte in the image of the snapshot after entry 8.
        try DocumentStore(path: path).write { db in
            var image = try Data.fetchOne(db, sql: "SELECT image FROM snapshot WHERE version = ?", arguments: [middle.version])!
            image[image.count / 2] ^= 0xFF
            try db.execute(sql: "UPDATE snapshot SET image = ? WHERE version = ?", arguments: [image, middle.version])
        }
        let doc = try DocumentStore(path: path).open("d")
        let report = try doc.verifyReport(replan: true)
        #expect(report.problems == [], "the log still replays to the stored document")
        #expect(report.damagedSnapshots.map(\.seq) == [8])
        #expect(report.damagedSnapshots.first?.problems.first?.hasPrefix("snapshot of version \(middle.version) (after log entry 8) is damaged") == true)
        #expect(try doc.verify(replan: true) == report.messages)

        let repair = try doc.rebuildSnapshots()
        #expect(repair.rebuilt.map(\.seq) == [8] && repair.rebuilt.map(\.version) == [middle.version] && repair.deleted == [])
        #expect(try doc.verify(replan: true) == [])
        #expect(try doc.snapshots() == infos, "the same snapshots, the rebuilt one the same size")
        #expect(try doc.document(afterEntry: 8) == doc.reading { tx in try doc.replay(tx, through: 8).document })
        #expect(try DocumentStore(path: path).open("d").document == expected)
        #expect(try doc.rebuildSnapshots() == SnapshotRepair(rebuilt: [], deleted: []), "nothing left to rebuild")
    }

    /// A sound image of another state (it checks out, only the replay tells) is rebuilt too; a
    /// snapshot of an entry past the log is deleted.
    @Test func aWrongOrFutureSnapshotIsRebuiltOrDeleted() throws {
        let dir = try Scratch.directory("rebuild")
        defer { Scratch.remove(dir) }
        let path = dir + "/w.sqlite"
        let doc = try Self.fixture(path)
        var wrong = doc.document
        try wrong.apply([.updateRow(id: "r1", old: wrong.config(of: "r1")!, new: RowConfig(size: .fixed(5)))])
        let newest = try #require(try doc.snapshots().first)
        _ = try doc.store.write { db in
            try Snapshots.write(db, documentID: doc.id, uid: doc.uid, version: newest.version, seq: newest.seq, document: wrong, keep: 10)
        }
        try Self.tamper(path, "UPDATE snapshot SET seq = 99 WHERE seq = 4")
        let report = try doc.verifyReport()
        #expect(report.problems == [])
        #expect(Set(report.damagedSnapshots.map(\.seq)) == [12, 99])
        let repair = try doc.rebuildSnapshots()
        #expect(repair.rebuilt.map(\.seq) == [12] && repair.deleted.map(\.seq) == [99] && repair.deleted.allSatisfy(\.pastTheLog))
        #expect(try doc.verify(replan: true) == [])
        #expect(try doc.snapshots().map(\.seq) == [12, 8])
    }

    /// The base of a compacted history is not a cache: damaged, the replay fails, and the
    /// rebuild refuses, changing nothing.
    @Test func aDamagedBaseIsNotRebuilt() throws {
        let dir = try Scratch.directory("rebuild")
        defer { Scratch.remove(dir) }
        let path = dir + "/b.sqlite"
        let doc = try Self.fixture(path)
        try doc.compactHistory(before: .entry(6))
        try Self.tamper(path, "UPDATE snapshot SET image = zeroblob(64) WHERE seq = 5")
        let again = try DocumentStore(path: path).open("d")
        let before = try again.snapshots()
        #expect(throws: (any Error).self) { try again.rebuildSnapshots() }
        #expect(try again.snapshots() == before)
        #expect(try again.verifyReport().problems.first?.hasPrefix("replay failed") == true)
    }
}
