import Foundation
import GRDB
import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// Migration 0016 (the compact `row` record): a database written at schema 15, with rows that set
/// every field in its one-column-per-field record, current rows and the rows of an import made
/// before 0013 (import_seq N), opens migrated: every config equal to what was written, `verify`
/// clean (the log replays to the stored rows), history travel to the import reads its old rows.
@Suite(.offThePool) struct CompactRowMigrationTests {
    /// The value of each schema-15 config column for `c`, as that schema stored it (written
    /// here independently of the store's code: edges as `top,left,bottom,right`, enums as their
    /// raw text, NULL when unset).
    static func legacyValues(_ c: RowConfig) -> [String: (any DatabaseValueConvertible)?] {
        func text(_ e: Edges) -> String { "\(e.top),\(e.left),\(e.bottom),\(e.right)" }
        var size: Double?
        if case let .fixed(n) = c.size { size = n }
        var v: [String: (any DatabaseValueConvertible)?] = [
            "type": c.type, "size": size, "content_width": c.content.width, "content_height": c.content.height,
            "insets": c.insets.map(text), "margin": c.margin == .zero ? nil : text(c.margin), "grow": c.grow, "shrink": c.shrink,
            "align_self": c.alignSelf.rawValue, "hidden": c.hidden, "separator_hidden": c.separator.hidden,
            "separator_insets": c.separator.insets.map(text), "separator_thickness": c.separator.thickness,
            "separator_color": c.separator.color, "stack_axis": c.stack?.axis.rawValue, "stack_justify": c.stack?.justify.rawValue,
            "stack_align": c.stack?.align.rawValue, "stack_spacing": c.stack?.spacing, "sticky": c.sticky,
            "min_main": c.minMain, "max_main": c.maxMain, "min_cross": c.minCross, "max_cross": c.maxCross,
            "background": c.background, "highlight": c.highlight,
        ]
        v["text"] = c.text?.words
        v["aspect"] = c.aspect.map(TextRun.ratioWords)
        return v
    }

    /// A document whose rows set every field (stacks, separators, insets, margin, hidden,
    /// content, sticky, min/max, text, aspect, colours; fit and fixed sizes), and many of a few
    /// styles.
    static func everyFieldDocument() throws -> Document {
        var document = Document(name: "all")
        try SnapshotTests.appendEveryFieldRows(to: &document, ratioSize: .fit, background: "#ABCDEF", schema15: true)
        try document.appendRow("plain", config: RowConfig(), parent: nil)
        var rng = SplitMix64(seed: 0x0016)
        for i in 0..<300 {
            try document.appendRow("f\(i)", config: EncodedRowsTests.randomConfig(&rng), parent: i % 3 == 0 ? "s" : nil)
        }
        return document
    }

    /// Writes `document`'s rows into `row` of a schema-15 database in that schema's columns,
    /// under `importSeq`, each stack's rows under keys in order.
    static func writeLegacyRows(_ db: Database, document: Document, docID: Int64, importSeq: Int, keys: [RowID: String]? = nil) throws {
        let names = ["document", "import_seq", "parent", "order_key", "id", "size"] + LegacyRowColumns.names
        let statement = try db.makeStatement(sql: "INSERT INTO row (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))")
        var position: [RowID?: Int] = [:]
        var rows: [(RowID, RowID?, RowConfig)] = []
        document.forEachRow { id, parent, _, config in rows.append((id, parent, config)) }
        let perStack = Dictionary(grouping: rows, by: { $0.1 }).mapValues { OrderKey.sequence($0.count) }
        for (id, parent, config) in rows {
            let k = position[parent, default: 0]
            position[parent] = k + 1
            let key = keys?[id] ?? perStack[parent]![k]
            let legacy = legacyValues(config)
            let values: [(any DatabaseValueConvertible)?] = [docID, importSeq, parent ?? "", key, id] + names.dropFirst(5).map { legacy[$0] ?? nil }
            try statement.execute(arguments: StatementArguments(values))
        }
    }

    /// Turns the database at `path` back into one of schema 15 (for tests of older migrations
    /// that fake an old file from a new one): `row` in schema 15's record, every row's config as
    /// stored, and no record of the migrations after 15.
    static func downgradeToSchema15(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            let rows = try GRDB.Row.fetchAll(db, sql: "SELECT document, 0 AS import_seq, parent, order_key, id, size, fields FROM row")
            try db.execute(sql: "DROP TABLE row")
            let objects = try Schema.objects(ofVersion: 15)
            for name in ["row", "row_by_id"] {
                let definition = try #require(objects[name])
                try db.execute(sql: String(definition[definition.range(of: ": ")!.upperBound...]))
            }
            let names = ["document", "import_seq", "parent", "order_key", "id", "size"] + LegacyRowColumns.names
            let insert = try db.makeStatement(sql: "INSERT INTO row (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))")
            for row in rows {
                let blob: Data? = row["fields"]
                var config = try RowFields.decode(blob.map { [UInt8]($0) })
                if let size: Double = row["size"] { config.size = .fixed(size) }
                let legacy = legacyValues(config)
                let values: [(any DatabaseValueConvertible)?] = [row["document"] as Int64, row["import_seq"] as Int64, row["parent"] as String,
                                                                  row["order_key"] as String, row["id"] as String]
                    + names.dropFirst(5).map { legacy[$0] ?? nil }
                try insert.execute(arguments: StatementArguments(values))
            }
            // (Schema 15's `row_by_id` was made with its table above.)
            for migration in Schema.migrations where migration.version > 15 {
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [migration.name])
            }
            try db.execute(sql: Tamper.undoSafeArea)
            try db.execute(sql: "DROP TABLE IF EXISTS open_group")  // 0021's table
        }
    }

    @Test func aSchema15DatabaseOpensMigrated() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appending(path: "source.sqlite").path, old = dir.appending(path: "old.sqlite").path
        // The history, written by this StackDoc: an import, then edits.
        let imported = try Self.everyFieldDocument()
        do {
            let doc = try DocumentStore(path: source).importDocument(imported)
            try doc.perform(.set(id: "b", spec: [.fixed(12)]))
            try doc.perform(.add(ids: ["n1", "n2"], spec: [], position: nil, parent: "s"))
            try doc.perform(.set(id: "f7", spec: [.fixed(3)]))
        }
        let expected = try DocumentStore(path: source).open("all").document
        let keys = try DatabaseQueue(path: source).read { db in
            Dictionary(uniqueKeysWithValues: try GRDB.Row.fetchAll(db, sql: "SELECT id, order_key FROM row").map {
                (($0["id"] as String), ($0["order_key"] as String))
            })
        }

        // The same database at schema 15: its tables but `row` copied, its rows written in the
        // old record, the import's rows in `row` under the import's seq (as before 0013).
        let queue = try DatabaseQueue(path: old)
        try Schema.migrator(upTo: 15).migrate(queue)
        try queue.writeWithoutTransaction { db in
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('row') ORDER BY cid")
            #expect(columns.prefix(5) == ["document", "import_seq", "parent", "order_key", "id"])
            #expect(columns.dropFirst(5).filter { $0 != "size" }.sorted() == LegacyRowColumns.names.sorted(),
                    "the function's arguments are schema 15's config columns")
            try db.execute(sql: "ATTACH DATABASE ? AS src", arguments: [source])
            try db.inTransaction {
                for table in ["document", "log", "step", "import_image"] {
                    // Schema 15's columns (later ones, as 0019's safe area, are left behind).
                    let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?, 'main') ORDER BY cid", arguments: [table])
                        .joined(separator: ", ")
                    try db.execute(sql: "INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM src.\(table)")
                }
                let docID = try Int64.fetchOne(db, sql: "SELECT id FROM document WHERE name = 'all'")!
                let importSeq = try Int.fetchOne(db, sql: "SELECT seq FROM import_image WHERE document = ?", arguments: [docID])!
                try db.execute(sql: "DELETE FROM import_image")
                try Self.writeLegacyRows(db, document: expected, docID: docID, importSeq: 0, keys: keys)
                try Self.writeLegacyRows(db, document: imported, docID: docID, importSeq: importSeq)
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE src")
        }
        try queue.close()
        let legacyRows = try DatabaseQueue(path: old).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM row")! }
        #expect(legacyRows == expected.rowCount + imported.rowCount)

        // Opened by this StackDoc: migrated, every row equal.
        let store = try DocumentStore(path: old)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        let doc = try store.open("all")
        #expect(doc.loadSource == .rows(reason: nil))
        #expect(doc.document == expected)
        expected.forEachRow { id, _, _, config in #expect(doc.document.config(of: id) == config, "row \(id)") }
        #expect(try doc.verify(replan: true) == [])
        #expect(try doc.replayed() == expected)
        // The import's rows, converted too (import_seq N, then its image: migration 0020), are
        // what the import brought in.
        let atImport = try doc.document(at: .entry(try store.read { db in try Int.fetchOne(db, sql: "SELECT min(seq) FROM import_image")! }))
        #expect(atImport.rowCount == imported.rowCount)
        imported.forEachRow { id, _, _, config in #expect(atImport.config(of: id) == config, "imported row \(id)") }
        let (columns, nulls, total) = try store.read { db in
            (try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('row') ORDER BY cid"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM row WHERE fields IS NULL")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM row")!)
        }
        #expect(columns == ["document", "parent", "order_key", "id", "size", "fields"])
        #expect(total == expected.rowCount, "the import's rows left `row` for its image")
        #expect(nulls > 0 && nulls < total, "default rows are NULL, the others are not")
        #expect(try store.integrityCheck() == [])
        // History still moves: undo every edit, redo them, reopen.
        _ = try doc.undo(3)
        #expect(doc.document == imported)
        _ = try doc.redo(3)
        #expect(doc.document == expected)
        #expect(try DocumentStore(path: old).open("all").document == expected)
    }

    /// A schema-15 row holding a value its columns could not hold (text where edges belong):
    /// the migration fails with an error naming the column, and the file stays at schema 15.
    @Test func aDamagedLegacyRowStopsTheMigration() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "bad.sqlite").path
        var document = Document(name: "d")
        for i in 0..<10 { try document.appendRow("r\(i)", config: RowConfig(size: .fixed(5)), parent: nil) }
        _ = try DocumentStore(path: path).importDocument(document)
        try Self.downgradeToSchema15(path)
        try Tamper.sql(path, "UPDATE row SET margin = '1,2' WHERE id = 'r3'")
        #expect {
            _ = try DocumentStore(path: path)
        } throws: { error in
            "\(error)".contains("bad edges '1,2' in column margin")
        }
        let (applied, margin) = try DatabaseQueue(path: path).read { db in
            (try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"),
             try String.fetchOne(db, sql: "SELECT margin FROM row WHERE id = 'r3'"))
        }
        #expect(applied.count == Schema.migrations.count(where: { $0.version <= 15 }) && margin == "1,2", "rolled back")
        // Repaired, it migrates.
        try Tamper.sql(path, "UPDATE row SET margin = NULL WHERE id = 'r3'")
        #expect(try DocumentStore(path: path).open("d").document == document)
    }

    /// The SQL function refuses values the old columns could not hold, naming the column.
    @Test func legacyValuesOutsideTheOldCodingAreRefused() throws {
        var values = LegacyRowColumns.names.map { _ in DatabaseValue.null }
        values[0] = "view".databaseValue
        values[3] = "1,2".databaseValue
        #expect(throws: StoreError.self) { try LegacyRowColumns.config(values) }
        values[3] = .null
        values[7] = "sideways".databaseValue
        #expect(throws: StoreError.self) { try LegacyRowColumns.config(values) }
        values[7] = "center".databaseValue
        #expect(try LegacyRowColumns.config(values).alignSelf == .center)
    }
}
