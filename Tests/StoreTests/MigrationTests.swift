import Foundation
import GRDB
import Layout
@testable import Store
import Testing

/// The schema comes from migrations/*.sql embedded in the binary; an old database is upgraded.
@Suite struct MigrationTests {
    static let fixtureName = "schema-0001"

    @Test func migrationsAreEmbeddedInOrder() {
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

    /// Upgrades the committed fixture (made by `makeFixture` with migration 0001 only).
    @Test func upgradesASchemaVersion1Database() throws {
        let fixture = try #require(Bundle.module.url(forResource: "Fixtures/\(Self.fixtureName)", withExtension: "db"))
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "old.sqlite").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        let oldVersion = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        }
        #expect(oldVersion == ["0001_init"])

        let store = try DocumentStore(path: path)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        let summary = try #require(try store.documents().first)
        #expect(summary.name == "old")
        #expect(summary.created != nil && summary.modified != nil)  // filled by 0002 from the log
        let uids = try DatabaseQueue(path: path).read { db in try String?.fetchAll(db, sql: "SELECT uid FROM document") }
        #expect(uids.count == 1 && uids.allSatisfy { ($0?.count ?? 0) == 32 })  // given by 0003
        let doc = try store.open("old")
        #expect(doc.document.children(of: nil) == ["a", "s"])
        #expect(doc.document.children(of: "s") == ["b"])
        #expect(doc.document.config(of: "a")?.size == .fixed(44))
        #expect(try doc.verify() == [])
        try doc.undo()
        #expect(doc.document.children(of: "s") == [])
        try doc.run(Ops.add("c", at: 0))
        #expect(try doc.verify() == [])
    }

    /// Writes the fixture with migration 0001 only and the store's own row and log writers.
    /// Run with STACKDOC_MAKE_FIXTURE=DIR to regenerate it (skipped without it).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STACKDOC_MAKE_FIXTURE"] != nil,
                   "STACKDOC_MAKE_FIXTURE=DIR regenerates the fixture"))
    func makeFixture() throws {
        let dir = try #require(ProcessInfo.processInfo.environment["STACKDOC_MAKE_FIXTURE"])
        let path = dir + "/\(Self.fixtureName).db"
        try? FileManager.default.removeItem(atPath: path)
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator(upTo: 1).migrate(queue)
        try queue.write { db in
            let settings = DocumentSettings(spacing: 4)
            let columns = ["name", "version"] + ColumnCoding.settingsColumns
            try db.execute(sql: "INSERT INTO document (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))",
                           arguments: StatementArguments(["old", 1] + ColumnCoding.values(settings)))
            let id = db.lastInsertedRowID
            try LogWriter.append(db, document: id, seq: 1, kind: .newDocument, payload: try LogFormat.encode(settings),
                                 forward: nil, inverse: nil, group: nil, label: nil, format: nil)
            var document = Document(name: "old", settings: settings)
            let ops: [(Edit, [Change])] = [
                Ops.add("a", RowConfig(size: .fixed(44)), at: 0),
                Ops.add("s", RowConfig(stack: StackSettings(axis: .horizontal)), at: 1),
                Ops.add("b", RowConfig(type: "label"), at: 0, in: "s"),
            ]
            for (i, (edit, changes)) in ops.enumerated() {
                for c in changes {
                    try document.apply(c)
                    try RowWriter.write(c, after: document, db: db, id: id)
                }
                try LogWriter.append(db, document: id, seq: i + 2, kind: .op, payload: try LogFormat.encode(edit),
                                     forward: changes, inverse: changes.inverse, group: nil, label: nil, format: nil)
                try db.execute(sql: "INSERT INTO step VALUES (?, ?, ?, ?, NULL)", arguments: [id, i + 1, i + 2, i + 2])
            }
            try db.execute(sql: "UPDATE document SET version = 4, cursor = 3 WHERE id = ?", arguments: [id])
        }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }
}
