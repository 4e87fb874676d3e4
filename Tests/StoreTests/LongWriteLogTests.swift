import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 15 item 8, a `clear` of 100k rows in ≤ 0.5 s: what a long write does besides its run.
///
/// - Its log entry's change blob is encoded on the calling thread while the other thread
///   applies the long run (`StoredDocument.applyForLog`). That early blob encodes the write's
///   planned changes, so it is the entry's only when the offset clamp adds nothing; with a clamp
///   the list is encoded again. Either way the stored entry is the blob of exactly the changes
///   the write returns (and replays), byte for byte.
/// - A long removal run is deleted with `secure_delete = FAST` (`SecureDeleteFast`): the pages
///   it frees are not overwritten with zeros (and so not written to the WAL), and the
///   connection's setting is back after the run, also after a run that fails.
@Suite(.longRunning) struct LongWriteLogTests {
    static let big = StoredDocument.parallelRunMinimum + 300

    /// The stored `forward` blob of log entry `seq`.
    static func forward(_ doc: StoredDocument, _ seq: Int) throws -> [UInt8] {
        try doc.store.read { db in
            let data = try Data.fetchOne(db, sql: "SELECT forward FROM log WHERE document = ? AND seq = ?", arguments: [doc.id, seq])
            return Array(try #require(data))
        }
    }

    /// A sample document of `big` root rows, scrolled by `offset` (0: not scrolled).
    static func sample(_ path: String, offset: Double) throws -> StoredDocument {
        let doc = try RowRunTests.sample(path, count: big, inner: 20)
        if offset > 0 { try doc.perform(.scroll(.offset(offset))) }
        #expect(doc.document.settings.offset == offset)
        return doc
    }

    /// Without a clamp the early blob is the entry's; with one (scrolled, then cleared: the
    /// content shrinks under the offset) the entry also holds the clamp. Both store the blob of
    /// exactly the changes returned, which decode back to them and replay to the document.
    @Test(arguments: [0.0, 500.0])
    func aClearStoresTheBlobOfExactlyItsChanges(offset: Double) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try Self.sample(dir.appending(path: "c.sqlite").path, offset: offset)
        let changes = try doc.perform(.clear(parent: nil))
        let clamped = offset > 0
        if case .updateSettings? = changes.last {
            #expect(clamped, "a clamp only when scrolled")
        } else {
            #expect(!clamped, "the clamp is the clear's last change")
        }
        #expect(changes.count == Self.big + 21 + (clamped ? 1 : 0))
        let stored = try Self.forward(doc, doc.status().logEntries)
        #expect(stored == (try ChangeBlob.encode(changes)), "stored blob")
        #expect(try doc.log().last?.changes == changes, "decoded entry")
        try RowRunTests.expectStoredExactly(doc, "clear, offset \(offset)")
        // Undo and redo read the entry back.
        try doc.undo()
        try doc.redo()
        try RowRunTests.expectStoredExactly(doc, "redo, offset \(offset)")
    }

    /// `applyForLog` hands over the early blob exactly when the write had a long run and no
    /// clamp, and that blob is the encoding of what it returns.
    @Test func theEarlyBlobIsGivenOnlyWhenItIsTheEntrys() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        struct Rollback: Error {}
        for (offset, edit, expectBlob) in [(0.0, Edit.clear(parent: nil), true), (500.0, .clear(parent: nil), false),
                                           (0.0, .clear(parent: "s"), false)] {  // 20 rows: no long run
            let doc = try Self.sample(dir.appending(path: "e\(offset)-\(expectBlob).sqlite").path, offset: offset)
            let planned = try doc.document.plan(edit)
            var logged: LoggedChanges?
            #expect(throws: (any Error).self) {
                try doc.transaction { tx, journal in
                    logged = try doc.applyForLog(planned, tx: tx, journal: &journal)
                    throw Rollback()
                }
            }
            let entry = try #require(logged)
            #expect((entry.blob != nil) == expectBlob, "\(edit), offset \(offset): early blob")
            if let blob = entry.blob { #expect(blob == (try ChangeBlob.encode(entry.changes))) }
            #expect(entry.changes.count == planned.count + (offset > 0 ? 1 : 0))
            #expect(try doc.verify() == [], "rolled back")
        }
    }

    /// A restore that puts back a long run of rows (an insert run on two threads) logs the blob
    /// of exactly its changes too.
    @Test func aRestoreStoresTheBlobOfExactlyItsChanges() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try Self.sample(dir.appending(path: "r.sqlite").path, offset: 0)
        let before = doc.document.exportJSON()
        let imported = try doc.status().logEntries
        try doc.perform(.clear(parent: nil))
        let result = try doc.restore(to: .entry(imported))
        #expect(doc.document.exportJSON() == before)
        #expect(try Self.forward(doc, doc.status().logEntries) == (try ChangeBlob.encode(result.changes)))
        #expect(try doc.log().last?.changes == result.changes)
        try RowRunTests.expectStoredExactly(doc, "restore")
    }

    static func secureDelete(_ doc: StoredDocument) throws -> Int {
        try doc.store.read { db in try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? -1 }
    }

    /// The frames in the WAL of `path` (after a `TRUNCATE` checkpoint it is empty; the WAL file
    /// then only grows while this connection writes).
    static func walFrames(_ path: String, pageSize: Int) throws -> Int {
        let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return max(0, size - 32) / (pageSize + 24)
    }

    /// A long removal run frees pages without writing them (when the linked SQLite overwrites
    /// freed pages, as Debian's does): the clear's commit writes fewer WAL frames than the pages
    /// it frees. The setting is back after the run.
    @Test func aLongRemovalRunDoesNotWriteTheFreedPages() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "s.sqlite").path
        var d = Document(name: "d")
        // Rows with long ids and a background: ≈ 8,000 rows over many pages.
        for i in 0..<8_000 {
            try d.appendRow("row-with-a-long-id-\(i)", config: RowConfig(size: .fixed(Double(10 + i % 7)), background: "#336699"), parent: nil)
        }
        let doc = try DocumentStore(path: path).importDocument(d)
        let setting = try Self.secureDelete(doc)
        try doc.store.queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        let pageSize = try doc.store.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size")! }
        #expect(try Self.walFrames(path, pageSize: pageSize) == 0, "an empty WAL")
        let freeBefore = try doc.store.read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count")! }
        try doc.perform(.clear(parent: nil))
        let frames = try Self.walFrames(path, pageSize: pageSize)
        let freed = try doc.store.read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count")! } - freeBefore
        #expect(try Self.secureDelete(doc) == setting, "secure_delete is back")
        #expect(freed > 100, "the clear freed \(freed) pages")
        if setting == 1 {
            #expect(frames < freed, "\(frames) WAL frames for \(freed) freed pages")
        }
        try RowRunTests.expectStoredExactly(doc, "clear")
        try doc.undo()
        try doc.redo()
        #expect(try Self.secureDelete(doc) == setting, "after redo")
        try RowRunTests.expectStoredExactly(doc, "redo")
    }

    /// The setting comes back after a run whose delete fails (and the write changes nothing).
    @Test func theSettingComesBackAfterAFailingRun() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try Self.sample(dir.appending(path: "f.sqlite").path, offset: 0)
        let setting = try Self.secureDelete(doc)
        let before = doc.document.exportJSON()
        // A stored row missing: the range delete finds one row fewer than the run's.
        try doc.store.write { db in try db.execute(sql: "DELETE FROM row WHERE id = 'r100'") }
        #expect(throws: (any Error).self) { try doc.perform(.clear(parent: nil)) }
        #expect(doc.document.exportJSON() == before)
        #expect(try Self.secureDelete(doc) == setting)
        let writing = try doc.store.write { db in try Int.fetchOne(db, sql: "PRAGMA secure_delete") }
        #expect(writing == setting, "on the writing connection")
    }

    /// `SecureDeleteFast.during` sets FAST (2) for its body only, and restores the setting it
    /// found also when the body throws.
    @Test func secureDeleteFastIsSetForTheBodyOnly() throws {
        let store = try DocumentStore(path: ":memory:")
        struct Failure: Error {}
        try store.write { db in
            let setting = try Int.fetchOne(db, sql: "PRAGMA secure_delete")!
            for on in [0, 1] {
                try db.execute(sql: "PRAGMA secure_delete = \(on)")
                let inside = try SecureDeleteFast.during(db) { try Int.fetchOne(db, sql: "PRAGMA secure_delete")! }
                #expect(inside == (on == 1 ? 2 : 0), "inside, from \(on)")
                #expect(try Int.fetchOne(db, sql: "PRAGMA secure_delete") == on)
                #expect(throws: Failure.self) { try SecureDeleteFast.during(db) { throw Failure() } }
                #expect(try Int.fetchOne(db, sql: "PRAGMA secure_delete") == on, "after a failure, from \(on)")
            }
            try db.execute(sql: "PRAGMA secure_delete = \(setting)")
        }
    }
}
