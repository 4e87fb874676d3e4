import Foundation
import GRDB
import Layout
import StoreFormat

/// One transaction of the SQLite backend (`StoreReading`, `StoreWriting`): the store's
/// vocabulary as SQL on one GRDB connection. Made by `SQLiteBackend.read`/`write` for one
/// transaction and used on its thread only; it keeps the pending run of row inserts or removals
/// (`RowRunWriter`) until it is written.
final class SQLiteTransaction: StoreWriting {
    let db: Database
    /// The database's path, for messages.
    let path: String
    /// Records damage found in the file (`SQLiteBackend.noteDamage`); returns the error.
    let noteDamage: (Error) -> Error
    /// The run of row inserts or removals applied to memory and not yet written.
    private var rows = RowRunWriter()

    init(_ db: Database, path: String, noteDamage: @escaping (Error) -> Error) {
        self.db = db
        self.path = path
        self.noteDamage = noteDamage
    }

    // MARK: Database

    func schemaVersion() throws -> Int {
        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations").compactMap(Schema.version(of:)).max() ?? 0
    }

    func documentNames() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM document ORDER BY name")
    }

    func documentSummaries() throws -> [DocumentSummary] {
        try GRDB.Row.fetchAll(db, sql: """
            SELECT name, version, cursor, created, modified,
                   (SELECT count(*) FROM row WHERE row.document = d.id) AS rows,
                   (SELECT count(*) FROM step WHERE step.document = d.id) AS steps
            FROM document d ORDER BY name
            """).map { r in
            DocumentSummary(name: try r.decode(forColumn: "name"), rowCount: try r.decode(forColumn: "rows"), version: try r.decode(forColumn: "version"),
                            steps: try r.decode(forColumn: "steps"), cursor: try r.decode(forColumn: "cursor"),
                            created: (try r.decode(forColumn: "created") as Double?).map(Date.init(timeIntervalSince1970:)),
                            modified: (try r.decode(forColumn: "modified") as Double?).map(Date.init(timeIntervalSince1970:)))
        }
    }

    func documentKey(named name: String) throws -> DocumentKey? {
        guard let found = try GRDB.Row.fetchOne(db, sql: "SELECT id, uid FROM document WHERE name = ?", arguments: [name]) else { return nil }
        guard let id: Int64 = found["id"], let uid: String = found["uid"] else {
            throw StoreError.corrupt(path, "document \(Validation.quoted(name)) has no identity (id, uid)")
        }
        return DocumentKey(id: id, uid: uid, name: name)
    }

    func insertDocument(name: String, settings: DocumentSettings, uid: String) throws -> Int64 {
        if try documentKey(named: name) != nil { throw StackDocError(.documentExists(name: name)) }
        let now = Date().timeIntervalSince1970
        let columns = ["name", "version"] + ColumnCoding.settingsColumns + ["created", "modified", "uid"]
        let values: [(any DatabaseValueConvertible)?] = [name, 1] + ColumnCoding.values(settings) + [now, now, uid]
        try db.execute(sql: "INSERT INTO document (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))",
                       arguments: StatementArguments(values))
        return db.lastInsertedRowID
    }

    func dropDocument(named name: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM document WHERE name = ?", arguments: [name])
        return db.changesCount > 0
    }

    // MARK: A document's record and rows

    func storedVersion(_ doc: DocumentKey) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT version FROM document WHERE id = ? AND uid = ?"), arguments: [doc.id, doc.uid])
    }

    func header(_ doc: DocumentKey) throws -> StoredHeader? {
        guard let row = try GRDB.Row.fetchOne(db, sql: "SELECT * FROM document WHERE id = ? AND uid = ?", arguments: [doc.id, doc.uid]) else {
            return nil
        }
        return StoredHeader(settings: try ColumnCoding.settings(row), version: try row.decode(forColumn: "version"),
                            cursor: try row.decode(forColumn: "cursor"),
                            historyBase: try row.decode(forColumn: "history_base"))
    }

    func setHeader(_ doc: DocumentKey, version: Int, cursor: Int) throws {
        try db.cachedStatement(sql: "UPDATE document SET version = ?, cursor = ?, modified = ? WHERE id = ?")
            .execute(arguments: [version, cursor, Date.now.timeIntervalSince1970, doc.id])
    }

    func openGroups(_ doc: DocumentKey) throws -> [String: Int] {
        var groups: [String: Int] = [:]
        for row in try GRDB.Row.fetchAll(db.cachedStatement(sql: "SELECT origin, seq FROM open_group WHERE document = ?"), arguments: [doc.id]) {
            groups[try row.decode(forColumn: "origin")] = try row.decode(forColumn: "seq")
        }
        return groups
    }

    func setOpenGroup(_ doc: DocumentKey, origin: String, seq: Int?) throws {
        if let seq {
            try db.execute(sql: "INSERT OR REPLACE INTO open_group (document, origin, seq) VALUES (?, ?, ?)", arguments: [doc.id, origin, seq])
        } else {
            try db.execute(sql: "DELETE FROM open_group WHERE document = ? AND origin = ?", arguments: [doc.id, origin])
        }
    }

    func setHistoryBase(_ doc: DocumentKey, _ base: Int) throws {
        try db.execute(sql: "UPDATE document SET history_base = ? WHERE id = ?", arguments: [base, doc.id])
    }

    func loadRows(_ doc: DocumentKey, name: String, settings: DocumentSettings, cancellation: Cancellation) throws -> Document {
        try RowLoader.load(db, name: name, settings: settings, documentID: doc.id, path: path, cancellation: cancellation)
    }

    func importedRows(_ doc: DocumentKey, name: String, seq: Int, settings: DocumentSettings) throws -> Document {
        try ImportImages.load(db, name: name, uid: doc.uid, settings: settings, documentID: doc.id, seq: seq, path: path)
    }

    // MARK: Rows

    func willApply(_ change: Change, to document: Document, _ doc: DocumentKey) throws {
        if rows.mustFlush(before: change) { try rows.flush(after: document, db: db, docID: doc.id) }
    }

    func didApply(_ change: Change, to document: Document, _ doc: DocumentKey) throws {
        if !rows.take(change) { try RowWriter.write(change, after: document, db: db, id: doc.id) }
    }

    func flushRows(after document: Document, _ doc: DocumentKey) throws {
        try rows.flush(after: document, db: db, docID: doc.id)
    }

    func leadingRunLength(of changes: ArraySlice<Change>) -> Int {
        RowRunWriter.leadingRun(of: changes).length
    }

    func longRun(_ changes: ArraySlice<Change>, before document: Document, _ doc: DocumentKey) throws -> any LongRunWrite {
        // The pending run first, while memory holds exactly the state right after it.
        try flushRows(after: document, doc)
        return try SQLiteLongRun(RowRunWriter.leadingRun(of: changes).writer, before: document, db: db, docID: doc.id)
    }

    // MARK: Undo steps

    func stepCount(_ doc: DocumentKey) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM step WHERE document = ?", arguments: [doc.id]) ?? 0
    }

    func step(_ doc: DocumentKey, _ n: Int) throws -> StoredStep? {
        try GRDB.Row.fetchOne(db.cachedStatement(sql: "SELECT first_seq, last_seq, label FROM step WHERE document = ? AND n = ?"),
                              arguments: [doc.id, n]).map(Self.step)
    }

    func steps(_ doc: DocumentKey) throws -> [StoredStep] {
        try GRDB.Row.fetchAll(db, sql: "SELECT first_seq, last_seq, label FROM step WHERE document = ? ORDER BY n", arguments: [doc.id]).map(Self.step)
    }

    private static func step(_ row: GRDB.Row) throws -> StoredStep {
        StoredStep(first: try row.decode(forColumn: "first_seq"), last: try row.decode(forColumn: "last_seq"), label: try row.decode(forColumn: "label"))
    }

    func deleteSteps(_ doc: DocumentKey, after n: Int) throws {
        try db.cachedStatement(sql: "DELETE FROM step WHERE document = ? AND n > ?").execute(arguments: [doc.id, n])
    }

    func insertStep(_ doc: DocumentKey, _ n: Int, _ step: StoredStep) throws {
        try db.cachedStatement(sql: "INSERT INTO step (document, n, first_seq, last_seq, label) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [doc.id, n, step.first, step.last, step.label])
    }

    func stepOwners(_ doc: DocumentKey) throws -> [StepOwner] {
        try GRDB.Row.fetchAll(db.cachedStatement(sql: """
            SELECT s.n, s.first_seq, s.last_seq, l.origin, l.kind, l.payload FROM step s
            LEFT JOIN log l ON l.document = s.document AND l.seq = s.first_seq
            WHERE s.document = ? ORDER BY s.n
            """), arguments: [doc.id]).map { row in
            let first: Int = try row.decode(forColumn: "first_seq")
            return try decoding(doc, first) {
                var revert: StepRevert?
                if try row.decode(String?.self, forColumn: "kind") == LogEntry.Kind.restore.rawValue,
                   let r = try HistoryPayload.revert(try row.decode(String?.self, forColumn: "payload")) {
                    revert = StepRevert(undo: r.undo, steps: r.steps)
                }
                let last: Int = try row.decode(forColumn: "last_seq")
                return StepOwner(n: try row.decode(forColumn: "n"), entries: first...last, origin: try row.decode(forColumn: "origin"), reverts: revert)
            }
        }
    }
}
