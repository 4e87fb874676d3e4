import Foundation
import GRDB
import Layout
@testable import Store
import Testing
import StackDocTestSupport

/// The schema comes from migrations/*.sql embedded in the binary; an old database is upgraded.
@Suite(.offThePool) struct MigrationTests {
    @Test func migrationsAreEmbeddedInOrder() {
        // Strictly increasing from 1; numbers reserved for work on other branches may be missing
        // until it lands (0007 came before 0005 and 0006).
        let versions = Schema.migrations.map(\.version)
        // Strictly increasing from 1; numbers are reserved per feature, so a branch may have gaps
        // (0008 lands before 0005…0007): each is applied once, by name, whatever the order.
        #expect(versions.first == 1)
        #expect(versions == versions.sorted() && Set(versions).count == versions.count)
        #expect(Schema.migrations.first?.name == "0001_init")
        #expect(EmbeddedMigrations.all[0].sql.contains("CREATE TABLE document"))
    }

    @Test func newDatabaseRecordsEveryMigration() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "n.sqlite").path
        _ = try DocumentStore(path: path)
        _ = try DocumentStore(path: path)  // applied once each
        let (applied, appID, journal) = try DatabaseQueue(path: path).read { db in
            (try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"),
             try Int32.fetchOne(db, sql: "PRAGMA application_id"),
             try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        #expect(applied == Schema.migrations.map(\.name))
        #expect(appID == Schema.applicationID)
        #expect(journal == "wal")
    }

    /// What an old database holds, read with plain SQL (no StackDoc code): the migrations it
    /// records, and per document its current rows and the rows of each import entry kept in the
    /// row tables (none from schema 20 on: they are the entry's image).
    struct OldContents {
        var applied: [String]
        var rows: [String: Int] = [:]
        var importRows: [String: [Int: Int]] = [:]

        init(_ path: String) throws {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            applied = try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
            let hasImportRow = try queue.read { db in try db.tableExists("import_row") }
            let hasImportSeq = try queue.read { db in try db.columns(in: "row").contains { $0.name == "import_seq" } }
            try queue.read { db in
                for r in try GRDB.Row.fetchAll(db, sql: "SELECT d.name, count(r.id) AS n FROM document d LEFT JOIN row r ON r.document = d.id"
                                               + (hasImportSeq ? " AND r.import_seq = 0" : "") + " GROUP BY d.id") {
                    rows[r["name"]] = r["n"]
                }
                guard hasImportRow || hasImportSeq else { return }
                let sql = hasImportRow
                    ? "SELECT d.name, i.seq, count(*) AS n FROM import_row i JOIN document d ON d.id = i.document GROUP BY d.id, i.seq"
                    : "SELECT d.name, r.import_seq AS seq, count(*) AS n FROM row r JOIN document d ON d.id = r.document WHERE r.import_seq > 0 GROUP BY d.id, r.import_seq"
                for r in try GRDB.Row.fetchAll(db, sql: sql) { importRows[r["name"], default: [:]][r["seq"]] = r["n"] }
            }
        }
    }

    /// The committed databases of earlier schemas (Fixtures/README.md says how each was made):
    /// name, the migrations it records, its documents.
    static let oldDatabases: [(String, [String], [String])] = [
        ("schema-0001", ["0001_init"], ["feed", "grouped", "imp", "src"]),
        ("schema-0002", ["0001_init", "0002_document_times"], ["feed", "grouped", "imp", "src"]),
        ("release-log-v1", ["0001_init", "0002_document_times"], ["d", "imp", "src"]),
    ]

    /// An old database is upgraded to the current schema in place: every current row stays
    /// current, every row of an import entry moves from `import_row` into `row` under its
    /// entry's seq (migration 0005), and every document opens, verifies (re-planning every
    /// logged edit), undoes and redoes its whole history, and takes new edits and imports.
    /// The REPL-level comparison with what the old binaries printed is `UpgradeTranscriptTests`.
    @Test(arguments: oldDatabases.map(\.0))
    func upgradesAnOldDatabase(_ fixtureName: String) throws {
        let (_, migrations, names) = try #require(Self.oldDatabases.first { $0.0 == fixtureName })
        let fixture = try #require(Bundle.module.url(forResource: "Fixtures/\(fixtureName)", withExtension: "db"))
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "old.sqlite").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        let before = try OldContents(path)
        #expect(before.applied == migrations)
        #expect(before.importRows["imp"]?[1] ?? 0 > 0, "the fixture has an import")

        let store = try DocumentStore(path: path)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        #expect(try store.integrityCheck() == [])
        let after = try OldContents(path)
        #expect(after.applied == Schema.migrations.map(\.name))
        #expect(after.rows == before.rows)
        #expect(after.importRows.isEmpty, "every import's rows are its image (migration 0020)")
        let tables = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["document", "grdb_migrations", "import_image", "log", "open_group", "row", "snapshot", "step"])
        #expect(try store.documentNames() == names)
        let summaries = try store.documents()
        #expect(summaries.allSatisfy { $0.created != nil && $0.modified != nil })  // 0002, from the log
        let uids = try DatabaseQueue(path: path).read { db in try String?.fetchAll(db, sql: "SELECT uid FROM document") }
        #expect(Set(uids).count == names.count && uids.allSatisfy { ($0?.count ?? 0) == 32 })  // 0003

        for name in names {
            let doc = try store.open(name)
            #expect(doc.document.rowCount == before.rows[name], "\(name)")
            #expect(try doc.verify(replan: true) == [], "\(name)")
            for (seq, count) in before.importRows[name] ?? [:] {
                #expect(try doc.importedDocument(at: seq).rowCount == count, "\(name) import \(seq)")
            }
            if doc.openGroup != nil { try doc.commit() }
            let current = doc.document
            let (cursor, steps) = (doc.cursor, doc.stepCount)
            if cursor > 0 { try doc.undo(cursor) }
            if steps > 0 { try doc.redo(steps) }
            if steps > cursor { try doc.undo(steps - cursor) }
            // Undo and redo keep the view, but clamp the offset when the content got shorter.
            func rows(_ d: Document) -> String { d.exportJSON().split(separator: "\n").filter { !$0.contains("\"offset\"") }.joined(separator: "\n") }
            #expect(rows(doc.document) == rows(current), "\(name): undo all, redo all")
            try doc.run(Ops.add("after5", at: 0))
            #expect(try doc.verify(replan: true) == [], "\(name)")
            let reopened = try DocumentStore(path: path).open(name)
            #expect(reopened.document == doc.document, "\(name)")
        }
        // A new import after the upgrade keeps its rows apart from the old ones.
        var copy = try store.open(names[0]).document
        copy.name = "again"
        let imported = try store.importDocument(copy)
        try imported.run(Ops.add("x1", at: 0))
        #expect(try imported.verify(replan: true) == [])
        #expect(try imported.importedDocument(at: 1) == copy)
        #expect(try store.open(names[0]).verify(replan: true) == [])
    }
}
