import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// A file holding snapshot images of format 1 (the image codec alone: StoreFormatTests'
/// `SnapshotImageFormatTests`).
@Suite(.offThePool) struct SnapshotImageFileTests {
    /// `image` claiming `format`, its checksum recomputed.
    func reformatted(_ image: [UInt8], as format: UInt16) -> [UInt8] { SnapshotImageBytes.reformatted(image, as: format) }

    @Test func aFileWithFormatOneImagesOpensReplaysAndVerifies() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "f.sqlite").path
        var original = Document(name: "doc")
        for i in 0..<300 { try original.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(i % 50) + 0.5)), parent: nil) }
        let store = try DocumentStore(path: path, options: StoreOptions(snapshots: SnapshotPolicy(interval: 5, keep: 3)))
        let doc = try store.importDocument(original)
        for i in 0..<12 { try doc.perform(.set(id: "r\(i)", spec: [.fixed(Double(i) + 0.75)])) }
        let expected = doc.document
        // The file as schema 17 wrote it: every image of format 1, migration 18 not applied.
        try Tamper.sql(path, "DELETE FROM grdb_migrations WHERE CAST(substr(identifier, 1, 4) AS INTEGER) > 17")
        try Tamper.sql(path, Tamper.undoAfterSchema18)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            var reformattedImages = 0
            for (table, key) in [("snapshot", "version"), ("import_image", "seq")] {
                for row in try GRDB.Row.fetchAll(db, sql: "SELECT document, \(key) AS key, image FROM \(table)") {
                    let image = [UInt8](row["image"] as Data)
                    // (A snapshot of the import refers to the import's image: no image of its own.)
                    guard image.starts(with: SnapshotImage.magic) else { continue }
                    // As schema 17 wrote it: format 2's settings (no safe area), claiming format 1.
                    let (header, imaged) = try SnapshotImage.decode(image, name: "doc")
                    let old = SnapshotImage.encode(imaged, uid: header.uid, version: header.version, seq: header.seq, format: 2)
                    try db.execute(sql: "UPDATE \(table) SET image = ? WHERE document = ? AND \(key) = ?",
                                   arguments: [Data(reformatted(old, as: 1)), row["document"] as Int64, row["key"] as Int64])
                    reformattedImages += 1
                }
            }
            #expect(reformattedImages >= 2)
        }
        try queue.close()
        let reopened = try DocumentStore(path: path)
        #expect(try reopened.schemaVersion() == EmbeddedMigrations.all.count)
        let opened = try reopened.open("doc")
        #expect(opened.document == expected)
        #expect(try opened.importedDocument(at: 1) == original)
        #expect(try opened.replayed() == expected)
        #expect(try opened.verify(replan: true) == [])
        // Migration 0020 wrote every image again in today's format.
        let formats = try DatabaseQueue(path: path).read { db in
            try Data.fetchAll(db, sql: "SELECT image FROM snapshot WHERE length(image) > 0 UNION ALL SELECT image FROM import_image")
                .map { SnapshotImage.formatNumber([UInt8]($0)) }
        }
        #expect(!formats.isEmpty && formats.allSatisfy { $0 == SnapshotImage.format }, "\(formats)")
    }
}
