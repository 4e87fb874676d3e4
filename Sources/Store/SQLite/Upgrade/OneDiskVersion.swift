import Foundation
import GRDB
import GRDBSQLite
import Layout
import StoreFormat

/// Migration 0020's conversion (run by `Schema` in the migration's transaction, before the SQL of
/// `migrations/0020_one_disk_version.sql` rebuilds `row` without `import_seq`): everything an
/// older StackDoc left in an older shape becomes today's, so the running code reads one format
/// of each thing.
///
/// - the rows an import stored beside the current ones before schema 13 (`row.import_seq` = its
///   entry's seq) become the entry's image in `import_image`, as imports write it today;
/// - snapshot and import images of formats 1 and 2 are written again in format 3
///   (`SnapshotImage.decodeAnyFormat`); a damaged one is left as it is (the running code
///   reports it as before);
/// - log entries of formats 1 and 2 become format 3 (`LegacyLog.convert`).
///
/// Every step is idempotent (a file whose record of 0020 was lost converts again to the same
/// bytes), and all of it runs in the upgrade's one transaction: a killed upgrade leaves the
/// file as it was.
enum OneDiskVersion {
    /// The migration this runs for.
    static let version = 20

    /// Converts every document of `db`.
    static func convert(_ db: Database) throws {
        let path = sqlite3_db_filename(db.sqliteConnection, "main").map { String(cString: $0) } ?? ""
        let hasImportSeq = try db.columns(in: "row").contains { $0.name == "import_seq" }
        let documents = try GRDB.Row.fetchAll(db, sql: "SELECT id, uid, name, history_base FROM document ORDER BY id")
        for row in documents {
            let document = UpgradedDocument(id: try row.decode(forColumn: "id"), uid: try row.decode(forColumn: "uid"),
                                            name: try row.decode(forColumn: "name"),
                                            historyBase: try row.decode(forColumn: "history_base"), path: path)
            if hasImportSeq { try importRowsToImages(db, document) }
            try imagesToCurrentFormat(db, document)
            try LegacyLog.convert(db, document)
        }
    }

    /// Each import of `document` kept in `row` under its entry's seq becomes that entry's image;
    /// the rows go (the rebuilt table has no `import_seq`).
    static func importRowsToImages(_ db: Database, _ document: UpgradedDocument) throws {
        let seqs = try Int.fetchAll(db, sql: "SELECT DISTINCT import_seq FROM row WHERE document = ? AND import_seq > 0", arguments: [document.id])
        for seq in seqs {
            let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM import_image WHERE document = ? AND seq = ?", arguments: [document.id, seq]) ?? false
            guard !exists, let entry = try GRDB.Row.fetchOne(db, sql: "SELECT payload, format FROM log WHERE document = ? AND seq = ? AND kind = 'import'",
                                                             arguments: [document.id, seq]) else { continue }
            let imported = try document.converting("the rows of import entry \(seq)") { () throws -> Document in
                let settings = try LogFormat.decodeSettings(try entry.decode(forColumn: "payload"), format: try entry.decode(forColumn: "format"))
                return try loadImportRows(db, document, seq: seq, settings: settings)
            }
            // The document's version right after the import: its snapshot's there, else the
            // import's own (an import entry starts a document at version 1).
            let version = try Int.fetchOne(db, sql: "SELECT min(version) FROM snapshot WHERE document = ? AND seq = ?",
                                           arguments: [document.id, seq]) ?? 1
            try ImportImages.write(db, documentID: document.id, seq: seq,
                                   image: SnapshotImage.encode(imported, uid: document.uid, version: version, seq: seq))
        }
        try db.execute(sql: "DELETE FROM row WHERE document = ? AND import_seq > 0", arguments: [document.id])
    }

    /// The rows of import entry `seq` as `row` held them before schema 13.
    private static func loadImportRows(_ db: Database, _ document: UpgradedDocument, seq: Int, settings: DocumentSettings) throws -> Document {
        let statement = try db.makeStatement(sql: """
            SELECT parent, id, \(ColumnCoding.configColumns.joined(separator: ", ")) FROM row
            WHERE document = ? AND import_seq = ? ORDER BY parent, order_key
            """)
        try statement.setArguments([document.id, seq])
        let stmt = statement.sqliteStatement
        defer { sqlite3_reset(stmt) }
        var builder = DocumentBuilder(name: document.name, settings: settings, path: document.path)
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            let parent = ColumnCoding.string(stmt, 0) ?? ""
            guard let id = ColumnCoding.string(stmt, 1) else { throw StackDocError("a row has no id") }
            try builder.add((id, parent.isEmpty ? nil : parent, try ColumnCoding.readConfig(stmt, at: 2)))
        }
        return try builder.finish()
    }

    /// Every snapshot and import image of `document` in an older format, written again in
    /// format 3 with the same header. One image in memory at a time.
    static func imagesToCurrentFormat(_ db: Database, _ document: UpgradedDocument) throws {
        for (table, key) in [("snapshot", "version"), ("import_image", "seq")] {
            let keys = try Int.fetchAll(db, sql: """
                SELECT \(key) FROM \(table) WHERE document = ? AND length(image) > 0 AND substr(image, 7, 2) != X'0300' ORDER BY \(key)
                """, arguments: [document.id])
            for k in keys {
                guard let data = try Data.fetchOne(db, sql: "SELECT image FROM \(table) WHERE document = ? AND \(key) = ?", arguments: [document.id, k]),
                      let (header, imaged) = try? SnapshotImage.decodeAnyFormat([UInt8](data), name: document.name) else { continue }
                let image = SnapshotImage.encode(imaged, uid: header.uid, version: header.version, seq: header.seq)
                try db.execute(sql: "UPDATE \(table) SET image = ? WHERE document = ? AND \(key) = ?", arguments: [Data(image), document.id, k])
            }
        }
    }
}

/// A document being upgraded: what the conversion's messages and images name.
struct UpgradedDocument {
    let id: Int64
    let uid: String
    let name: String
    /// The last log entry `history compact` dropped (0: none).
    let historyBase: Int
    /// The database's path, for messages.
    let path: String

    /// Runs `body`, which converts `what`: a failure is a corrupt file naming the document and
    /// `what`, and the upgrade rolls back.
    func converting<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw StoreError.corrupt(path, "document \(Validation.quoted(name)): \(what) cannot be converted to schema \(OneDiskVersion.version): \(StoreError.reason(error))")
        }
    }
}
