import Foundation
import GRDB
import GRDBSQLite
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// Finding and reading a snapshot reads only that snapshot's image: `snapshot` is a WITHOUT
/// ROWID table, where a key search reads every spilled row it compares with, image and all, so
/// the reads scan it instead (`Snapshots.list`). Counted in page-cache misses of a connection
/// that caches almost nothing.
@Suite(.offThePool) struct SnapshotReadCostTests {
    /// The pages `body` read from the file (SQLite's cache misses, with a 16-page cache).
    static func pagesRead(_ db: Database, _ body: () throws -> Void) rethrows -> Int {
        var current: Int32 = 0, highest: Int32 = 0
        sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, 1)
        try body()
        sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, 0)
        return Int(current)
    }

    @Test func listingAndReadingOneSnapshotReadNoOtherImage() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "cost.sqlite").path
        var document = Document(name: "d")
        // (30,000 rows: an image of format 2 spans ≈ 70 pages.)
        for i in 0..<30_000 { try document.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(i % 50))), parent: nil) }
        let doc = try DocumentStore(path: path).importDocument(document)
        for k in 0..<4 {
            try doc.perform(.set(id: "r\(k)", spec: [.fixed(7)]))
            _ = try doc.writeSnapshot()
        }
        let queue = try DatabaseQueue(path: path)
        try queue.read { db in
            try db.execute(sql: "PRAGMA cache_size = 16")
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM document WHERE name = 'd'")!
            let infos = try Snapshots.list(db, documentID: id)
            #expect(infos.count == 5)
            let imagePages = infos[0].bytes / 4096
            #expect(imagePages > 50, "an image of \(infos[0].bytes) bytes")
            // Listing reads no image (the pages of 5 images before).
            let listing = try Self.pagesRead(db) { _ = try Snapshots.list(db, documentID: id) }
            #expect(listing < imagePages / 2, "list read \(listing) pages; an image is \(imagePages)")
            // Reading one reads that image once (≈ 4 images before).
            let reading = try Self.pagesRead(db) {
                let (info, read) = try Snapshots.read(db, documentID: id, uid: doc.uid, name: "d", version: infos[2].version)
                #expect(info.version == infos[2].version && read.rowCount == 30_000)
            }
            #expect(reading < imagePages * 3 / 2, "read \(reading) pages for an image of \(imagePages)")
        }
    }
}
