import Foundation
import GRDB
import Layout
@testable import Store
import StoreFormat
import Testing

/// Migration 0020 (one on-disk version): every committed database of an older schema, once
/// upgraded, holds only today's shapes — every log entry of format 3 (`forward` a blob, no
/// stored inverse, every `undo`/`redo` naming the steps it moved), every image of format 3, no
/// `import_seq` — and every document's replay equals its stored state. A conversion that fails
/// rolls the whole upgrade back: the file stays as it was.
@Suite(.offThePool) struct OneDiskVersionTests {
    static let fixtures = ["schema-0001", "schema-0002", "release-log-v1", "schema-0009-moves"]

    /// A copy of fixture `name` in `dir`.
    static func copy(_ name: String, to dir: URL) throws -> String {
        let path = dir.appending(path: "\(name).sqlite").path
        try FileManager.default.copyItem(at: try LogFormatStoreTests.fixture(name, "db"), to: URL(filePath: path))
        return path
    }

    /// What the file holds in older shapes: entries per format and images not of format 3.
    static func shapes(_ path: String) throws -> (formats: [Int: Int], copiedMoves: Int, oldImages: Int, importSeq: Bool) {
        try DatabaseQueue(path: path).read { db in
            var formats: [Int: Int] = [:]
            let hasFormat = try db.columns(in: "log").contains { $0.name == "format" }
            for row in try GRDB.Row.fetchAll(db, sql: "SELECT \(hasFormat ? "format" : "1") AS f, count(*) AS n FROM log GROUP BY 1") {
                formats[row["f"]] = row["n"]
            }
            let copiedMoves = try Int.fetchOne(db, sql: "SELECT count(*) FROM log WHERE kind IN ('undo', 'redo') AND "
                                               + (hasFormat ? "format = 1" : "1")) ?? 0
            var images: [Data] = []
            if try db.tableExists("snapshot") { images += try Data.fetchAll(db, sql: "SELECT image FROM snapshot WHERE length(image) > 0") }
            if try db.tableExists("import_image") { images += try Data.fetchAll(db, sql: "SELECT image FROM import_image") }
            let oldImages = images.filter { SnapshotImage.formatNumber([UInt8]($0)) != SnapshotImage.format }.count
            let importSeq = try db.columns(in: "row").contains { $0.name == "import_seq" } || db.tableExists("import_row")
            return (formats, copiedMoves, oldImages, importSeq)
        }
    }

    @Test(arguments: fixtures)
    func anUpgradedFileHoldsOnlyTodaysShapes(_ fixture: String) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.copy(fixture, to: dir)
        let before = try Self.shapes(path)
        #expect(before.formats.keys.contains { $0 < LogFormat.version }, "the fixture holds old entries: \(before.formats)")
        #expect(before.importSeq)
        if fixture == "schema-0009-moves" { #expect(before.copiedMoves > 0 && before.oldImages > 0, "\(before)") }

        let store = try DocumentStore(path: path)
        let after = try Self.shapes(path)
        #expect(after.formats.keys.sorted() == [LogFormat.version], "\(after.formats)")
        #expect(after.formats.values.reduce(0, +) == before.formats.values.reduce(0, +), "no entry lost")
        #expect(after.oldImages == 0 && !after.importSeq)
        let (textChanges, storedInverses) = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM log WHERE forward IS NOT NULL AND typeof(forward) != 'blob'")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM log WHERE inverse IS NOT NULL")!)
        }
        #expect(textChanges == 0 && storedInverses == 0)
        for name in try store.documentNames() {
            let doc = try store.open(name)
            #expect(try doc.replayed() == doc.document, "\(name): the replay of the upgraded log is the stored state")
            #expect(try doc.verify(replan: true) == [], "\(name)")
            for entry in try doc.log() where entry.kind == .undo || entry.kind == .redo {
                #expect(entry.moved?.count == entry.count, "\(name) entry \(entry.seq): names the steps it moved")
            }
        }
    }

    /// A conversion that fails (an entry of format 1 whose stored inverse is not its changes'
    /// inverse) refuses the upgrade with a message naming the entry and rolls all of it back: the
    /// file keeps its schema, log, rows and images; put right, it upgrades.
    @Test func aFailedConversionLeavesTheFileAsItWas() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.copy("schema-0009-moves", to: dir)
        let seq = try #require(try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT max(seq) FROM log WHERE kind = 'op' AND document = (SELECT id FROM document WHERE name = 'feed')")
        })
        let inverse = try #require(try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "SELECT inverse FROM log WHERE seq = ? AND document = (SELECT id FROM document WHERE name = 'feed')", arguments: [seq]) })
        try Tamper.sql(path, "UPDATE log SET inverse = '[]' WHERE seq = \(seq) AND document = (SELECT id FROM document WHERE name = 'feed')")
        func contents() throws -> [String] {
            try DatabaseQueue(path: path).read { db in
                try ["grdb_migrations", "log", "row", "snapshot", "import_image", "document"].filter { try db.tableExists($0) }.flatMap { table in
                    try GRDB.Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map { "\(table) \($0)" }
                } + String.fetchAll(db, sql: "SELECT ifnull(sql, name) FROM sqlite_master ORDER BY name")
            }
        }
        let before = try contents()
        var message = ""
        do { _ = try DocumentStore(path: path) } catch { message = "\(error)" }
        #expect(message.contains("document 'feed': log entry \(seq) cannot be converted to schema 20: its stored inverse is not the inverse of its changes"),
                "\(message)")
        #expect(try contents() == before, "nothing changed")
        try Tamper.sql(path, "UPDATE log SET inverse = '\(inverse)' WHERE seq = \(seq) AND document = (SELECT id FROM document WHERE name = 'feed')")
        let store = try DocumentStore(path: path)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        #expect(try store.open("feed").verify(replan: true) == [])
    }
}
