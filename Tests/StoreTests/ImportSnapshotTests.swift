import Foundation
import GRDB
import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// An import's first snapshot is its import image, stored once (migration 0014: the snapshot row
/// holds an empty image, resolved by the view `snapshot_image`). Every reader of snapshots —
/// open, time travel, `verify`, compaction, the listing's sizes — must find the import image
/// through it, across restarts; damage to it is found wherever it is read.
@Suite(.offThePool) struct ImportSnapshotTests {
    /// A nested document whose rows set many fields (styles shared by runs and not).
    func document(rows: Int = 400) throws -> Document {
        var d = Document(name: "imp", settings: DocumentSettings(spacing: 2))
        try d.appendRow("s", config: RowConfig(stack: StackSettings(axis: .horizontal, spacing: 1)), parent: nil)
        try d.appendRow("t", config: RowConfig(type: "box", stack: StackSettings(justify: .center)), parent: "s")
        for i in 0..<rows {
            var config = RowConfig(size: i % 7 == 0 ? .fit : .fixed(Double(i % 30)), hidden: i % 11 == 0)
            if i % 13 == 0 { config.type = "label" }
            if i % 17 == 0 { config.grow = 2 }
            if i % 19 == 0 { config.content = Size(width: 3, height: Double(i)) }
            try d.appendRow("r\(i)", config: config, parent: i % 4 == 0 ? "s" : i % 4 == 1 ? "t" : nil)
        }
        return d
    }

    /// Imports `d` as the REPL does: its rows handed over in batches while it is "read".
    func importStreaming(_ d: Document, into store: DocumentStore, batch: Int = 97) throws -> StoredDocument {
        var rows: [ImportedRow] = []
        d.forEachRow { id, parent, _, config in rows.append(ImportedRow(id: id, parent: parent, config: config)) }
        let parts = stride(from: 0, to: rows.count, by: batch).map { Array(rows[$0..<min($0 + batch, rows.count)]) }
        return try store.importDocument { handOver in
            for part in parts { _ = handOver(part) }
            return (d, true)
        }
    }

    /// Five edits after the import; the document after each entry (index 0: after entry 1).
    func edit(_ doc: StoredDocument) throws -> [Document] {
        var states = [doc.document]
        for i in 0..<5 {
            try doc.perform(.set(id: "r\(i * 6)", spec: [.fixed(Double(100 + i))]))
            states.append(doc.document)
        }
        return states
    }

    /// Snapshot rows that refer to their import image, snapshot rows with an image of their own,
    /// and import images (read through `store`'s connection: a second one in this process
    /// could drop its locks, docs/store.md).
    func counts(_ store: DocumentStore) throws -> (references: Int, fullSnapshots: Int, importImages: Int) {
        try store.read(counts)
    }

    func counts(_ db: Database) throws -> (references: Int, fullSnapshots: Int, importImages: Int) {
        (try Int.fetchOne(db, sql: "SELECT count(*) FROM snapshot WHERE length(image) = 0")!,
         try Int.fetchOne(db, sql: "SELECT count(*) FROM snapshot WHERE length(image) > 0")!,
         try Int.fetchOne(db, sql: "SELECT count(*) FROM import_image")!)
    }

    @Test func theFirstSnapshotIsTheImportImageStoredOnce() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "i.sqlite").path
        let d = try document()
        let store = try DocumentStore(path: path)
        let doc = try importStreaming(d, into: store)
        // One image: the import's, byte for byte what encoding the whole document gives (the
        // rows were encoded as they were handed over).
        let image = try store.read { db in try Data.fetchOne(db, sql: "SELECT image FROM import_image")! }
        #expect([UInt8](image) == SnapshotImage.encode(d, uid: doc.uid, version: 1, seq: 1))
        #expect(try counts(store) == (1, 0, 1))
        #expect(try doc.snapshots() == [SnapshotInfo(version: 1, seq: 1, rows: d.rowCount, bytes: image.count)])
        #expect(try doc.snapshot(atOrBefore: 1)?.document == d)
        let states = try edit(doc)
        // A restart: open reads the import image as the snapshot, then the log after it.
        do {
            let reopened = try DocumentStore(path: path).open("imp")
            #expect(reopened.loadSource == .snapshot(version: 1, seq: 1, tail: 5))
            #expect(reopened.document == doc.document)
            #expect(try reopened.snapshots().map(\.bytes) == [image.count])
            for (k, state) in states.enumerated() { #expect(try reopened.document(afterEntry: k + 1) == state, "entry \(k + 1)") }
            #expect(try reopened.verify(replan: true) == [])
        }
        // Later snapshots (every 2 entries) are whole images; time travel before and after them.
        do {
            let store = try DocumentStore(path: path, options: StoreOptions(snapshots: SnapshotPolicy(interval: 2)))
            let later = try store.open("imp")
            try later.perform(.set(id: "r1", spec: [.fixed(7)]))
            try later.perform(.set(id: "r2", spec: [.fixed(8)]))
            #expect(try counts(store).references == 1)
            #expect(try counts(store).fullSnapshots >= 1)
            let again = try DocumentStore(path: path).open("imp")
            #expect(again.document == later.document)
            for (k, state) in states.enumerated() { #expect(try again.document(afterEntry: k + 1) == state, "entry \(k + 1)") }
            #expect(try again.verify() == [])
        }
    }

    /// The image encoded batch by batch as the rows are handed over is, byte for byte, the
    /// image of the whole document (random nested documents, every field, batches of 1…13).
    @Test func rowsEncodedAsHandedOverGiveTheWholeDocumentsImage() throws {
        for seed in 1...20 as ClosedRange<UInt64> {
            var rng = SplitMix64(seed: seed)
            var d = Document(name: "r\(seed)")
            for _ in 0..<150 {
                let (_, changes) = RandomOps.edit(for: d, rng: &rng)
                try d.apply(changes)
            }
            let store = try DocumentStore(path: ":memory:")
            let doc = try importStreaming(d, into: store, batch: 1 + Int(seed % 13))
            let image = try store.read { db in try Data.fetchOne(db, sql: "SELECT image FROM import_image")! }
            #expect([UInt8](image) == SnapshotImage.encode(doc.document, uid: doc.uid, version: 1, seq: 1), "seed \(seed)")
            #expect(doc.document.rowCount == d.rowCount)
            #expect(try doc.verify() == [])
        }
    }

    @Test func aDamagedImportImageIsDamageWhereverItIsRead() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "d.sqlite").path
        let d = try document()
        var expected = d
        do {
            let doc = try importStreaming(d, into: try DocumentStore(path: path))
            expected = try edit(doc).last!
        }
        let sound = try DatabaseQueue(path: path).read { db in try Data.fetchOne(db, sql: "SELECT image FROM import_image")! }
        var flipped = sound
        flipped[flipped.count / 2] ^= 0x10
        try Tamper.sql(path, "UPDATE import_image SET image = x'\(flipped.map { String(format: "%02x", $0) }.joined())'")
        do {
            // Open skips the snapshot (it is the damaged image) and reads the rows.
            let opened = try DocumentStore(path: path).open("imp")
            #expect(opened.document == expected)
            if case let .rows(reason?) = opened.loadSource {
                #expect(reason.contains("snapshot of version 1") && reason.contains("checksum mismatch"), "\(reason)")
            } else {
                Issue.record("not skipped: \(opened.loadSource)")
            }
            #expect(try opened.snapshot(atOrBefore: 1) == nil)
            // `verify` replays from the import image: the file is corrupt.
            let problems = try opened.verify()
            #expect(problems.contains { $0.contains("the rows of import entry 1 cannot be read: checksum mismatch") }, "\(problems)")
        }
        // Without its import image the reference is a snapshot without an image.
        try Tamper.sql(path, "DELETE FROM import_image")
        let bare = try DocumentStore(path: path).open("imp")
        #expect(bare.document == expected)
        if case let .rows(reason?) = bare.loadSource { #expect(reason.contains("no image"), "\(reason)") } else { Issue.record("\(bare.loadSource)") }
        #expect(try bare.verify() != [])
    }

    @Test func aHistoryCompactedRightAfterItsImportStartsFromTheImportImage() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "c.sqlite").path
        let d = try document()
        let states: [Document]
        do {
            let doc = try importStreaming(d, into: try DocumentStore(path: path))
            states = try edit(doc)
            let result = try doc.compactHistory(before: .entry(2))
            #expect(result.base == 1 && result.droppedEntries == 1 && result.droppedSnapshots == 0)
            // The base is the import's own snapshot: still a reference, its image kept.
            #expect(try counts(doc.store) == (1, 0, 1))
            #expect(try doc.compactedBase() == d)
            #expect(try doc.verify(replan: true) == [])
        }
        do {
            let reopened = try DocumentStore(path: path).open("imp")
            #expect(reopened.loadSource == .snapshot(version: 1, seq: 1, tail: 5))
            #expect(reopened.document == states[5])
            #expect(try reopened.compactedBase() == d)
            for k in 1...6 { #expect(try reopened.document(afterEntry: k) == states[k - 1], "entry \(k)") }
            #expect(try reopened.verify(replan: true) == [])
            // Compacting past the import drops its image with its entry.
            let result = try reopened.compactHistory(before: .entry(5))
            #expect(result.base == 4 && result.droppedSnapshots == 1)
            #expect(try counts(reopened.store) == (0, 1, 0))
        }
        let last = try DocumentStore(path: path).open("imp")
        #expect(last.document == states[5])
        #expect(try last.compactedBase() == states[3])
        #expect(try last.document(afterEntry: 6) == states[5])
        #expect(try last.verify(replan: true) == [])
    }

    /// A file of schema 13 keeps the import image twice (import image and first snapshot); the
    /// upgrade turns the snapshot into a reference, and everything reads as before.
    @Test func anUpgradedFileStoresTheImportImageOnce() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "u.sqlite").path
        let d = try document()
        let states: [Document]
        do {
            let store = try DocumentStore(path: path)
            states = try edit(try store.importDocument(d))
            try store.create("plain")
        }
        let migration = try #require(Schema.migrations.last { $0.version == 14 }?.name)
        // What schema 13 wrote: the same bytes in both tables, no view, the old row record.
        try CompactRowMigrationTests.downgradeToSchema15(path)
        try Tamper.sql(path, """
            UPDATE snapshot SET image = (SELECT i.image FROM import_image i WHERE i.document = snapshot.document AND i.seq = snapshot.seq)
                WHERE length(image) = 0;
            DROP VIEW snapshot_image;
            DROP VIEW log_changes;
            DELETE FROM grdb_migrations WHERE identifier >= '\(migration)';
            """)
        #expect(try DatabaseQueue(path: path).read(counts) == (0, 1, 1))
        let store = try DocumentStore(path: path)
        #expect(try store.schemaVersion() >= 14)
        #expect(try counts(store) == (1, 0, 1))
        let doc = try store.open("imp")
        #expect(doc.loadSource == .snapshot(version: 1, seq: 1, tail: 5))
        #expect(doc.document == states[5])
        #expect(try doc.document(afterEntry: 1) == d)
        #expect(try doc.verify(replan: true) == [])
    }

    /// The import writes with foreign keys off (every row refers to the document it inserted
    /// first); they are on again afterwards, whether the import succeeded or failed, and the
    /// file has no row that breaks one.
    @Test func anImportLeavesForeignKeysOn() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "f.sqlite").path
        let store = try DocumentStore(path: path)
        func foreignKeys() throws -> Int { try store.read { db in try Int.fetchOne(db, sql: "PRAGMA foreign_keys")! } }
        let d = try document()
        _ = try importStreaming(d, into: store)
        #expect(try foreignKeys() == 1)
        #expect(try store.read { db in try GRDB.Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }.isEmpty)
        #expect(throws: StackDocError(.documentExists(name: "imp"))) { try importStreaming(d, into: store) }
        #expect(try foreignKeys() == 1)
        // The checks are on: dropping the document deletes its rows, image and snapshot.
        try store.drop("imp")
        let left = try store.read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM row) + (SELECT count(*) FROM import_image) + (SELECT count(*) FROM snapshot)")!
        }
        #expect(left == 0)
        #expect(throws: (any Error).self) {
            try store.write { db in try db.execute(sql: "INSERT INTO import_image (document, seq, image) VALUES (999, 1, x'00')") }
        }
    }
}
