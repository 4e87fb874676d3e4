import Foundation
import Layout
import StoreFormat

/// One transaction of the PostgreSQL backend (`StoreReading`, `StoreWriting`): the store's
/// vocabulary as SQL on one libpq connection. Made by `PostgreSQLBackend.transaction` and used on
/// its thread only.
///
/// Round trips: statements whose result the caller does not need at once (`BEGIN`, the writes)
/// wait in `pending` and go to the server with the next read, or with `COMMIT`, in one pipeline
/// (`PostgreSQLConnection.pipeline`); a write that must touch exactly one row is checked when its
/// result comes back. So a transaction costs one round trip per read it makes plus one.
final class PostgreSQLTransaction: StoreWriting {
    let connection: PostgreSQLConnection
    /// The server's URI (password redacted), for messages.
    let path: String
    /// True for a write transaction: `storedVersion` locks the document's record.
    let writing: Bool
    /// Records damage found (`PostgreSQLBackend.noteDamage`); returns the error.
    let noteDamage: (Error) -> Error
    /// Statements not yet sent, and the checks of their results (by index in `pending`).
    private var pending: [PostgreSQLStatement] = []
    private var checks: [(index: Int, check: (PostgreSQLRows) throws -> Void)] = []
    /// The order keys this transaction gave rows (`PostgreSQLTransaction+Rows`): a neighbour's
    /// key is not read back.
    var knownKeys: [RowID: String] = [:]
    /// The documents this transaction changed (by uid) and their new versions (0: dropped): the
    /// commit sends one `NOTIFY` for each (`PostgreSQLBackend.changeChannel`).
    private var changed: [String: Int] = [:]

    init(_ connection: PostgreSQLConnection, path: String, writing: Bool, noteDamage: @escaping (Error) -> Error) {
        self.connection = connection
        self.path = path
        self.writing = writing
        self.noteDamage = noteDamage
    }

    // MARK: Statements

    /// Queues the statements that open the transaction (sent with the first read).
    func begin(_ statements: [String]) {
        pending = statements.map { PostgreSQLStatement($0) }
    }

    /// Queues a statement whose rows are not needed now; `check` runs on its result when it
    /// comes back (before the next read returns, or at the commit).
    /// At most `pipelineLimit` statements wait: a longer queue (a change of many rows) goes in
    /// pipelines of that many, whose results fit the sockets' buffers (a pipeline whose results
    /// fill them before it is all sent would wait on itself).
    func later(_ sql: String, _ parameters: [PostgreSQLValue?] = [], check: ((PostgreSQLRows) throws -> Void)? = nil) throws {
        if let check { checks.append((pending.count, check)) }
        pending.append(PostgreSQLStatement(sql, parameters))
        if pending.count >= Self.pipelineLimit { try flush() }
    }

    /// The most statements one pipeline sends.
    static let pipelineLimit = 1000

    /// Queues a write that must change exactly one row (`what` names it when it did not).
    func laterOne(_ sql: String, _ parameters: [PostgreSQLValue?], _ what: @escaping @autoclosure () -> String) throws {
        try later(sql, parameters) { rows in
            if rows.affected != 1 { throw StoreError.internal("\(what()) is not stored") }
        }
    }

    /// Runs `sql` (after every queued statement, in the same round trip) and returns its rows.
    @discardableResult
    func query(_ sql: String, _ parameters: [PostgreSQLValue?] = []) throws -> PostgreSQLRows {
        pending.append(PostgreSQLStatement(sql, parameters))
        return try flush().last!
    }

    /// Sends every queued statement in one round trip, runs their checks; returns their rows.
    @discardableResult
    func flush() throws -> [PostgreSQLRows] {
        guard !pending.isEmpty else { return [] }
        let (statements, toCheck) = (pending, checks)
        (pending, checks) = ([], [])
        let results = statements.count == 1 && toCheck.isEmpty
            ? [try connection.execute(statements[0].sql, statements[0].parameters)]
            : try connection.pipeline(statements)
        for (index, check) in toCheck { try check(results[index]) }
        return results
    }

    /// Sends what is queued with `COMMIT`, and before it one `NOTIFY` per document the
    /// transaction changed — payload `UID VERSION`, nothing more (docs/shared-store.md, "Why live
    /// updates carry no data") — in the same pipeline: no extra round trip, and a command notifies
    /// once however many rows it wrote (an import or a bulk replay too: once, at its commit).
    func commit() throws {
        for (uid, version) in changed.sorted(by: { $0.key < $1.key }) {
            try later("SELECT pg_notify($1, $2)", [.text(PostgreSQLBackend.changeChannel), .text("\(uid) \(version)")])
        }
        changed = [:]
        try later("COMMIT")
        try flush()
    }

    /// Ends a failed transaction (what was queued is dropped).
    func rollback() {
        (pending, checks) = ([], [])
        if connection.isOpen, connection.inTransaction { _ = try? connection.execute("ROLLBACK") }
    }

    /// The first column of the first row as an integer (nil: no row or NULL).
    func int(_ sql: String, _ parameters: [PostgreSQLValue?] = []) throws -> Int? {
        let rows = try query(sql, parameters)
        return rows.count == 0 ? nil : rows.int(0, 0).map(Int.init)
    }

    // MARK: Database

    func schemaVersion() throws -> Int {
        try int("SELECT coalesce(max(version), 0)::int8 FROM stackdoc_migrations") ?? 0
    }

    func documentNames() throws -> [String] {
        let rows = try query("SELECT name FROM document ORDER BY name")
        return (0..<rows.count).map { rows.string($0, 0) ?? "" }
    }

    func documentSummaries() throws -> [DocumentSummary] {
        let rows = try query("""
            SELECT name, version, cursor, created, modified,
                   (SELECT count(*) FROM row WHERE row.document = d.id), (SELECT count(*) FROM step WHERE step.document = d.id)
            FROM document d ORDER BY name
            """)
        return (0..<rows.count).map { r in
            DocumentSummary(name: rows.string(r, 0) ?? "", rowCount: Int(rows.int(r, 5) ?? 0), version: Int(rows.int(r, 1) ?? 0),
                            steps: Int(rows.int(r, 6) ?? 0), cursor: Int(rows.int(r, 2) ?? 0),
                            created: rows.double(r, 3).map(Date.init(timeIntervalSince1970:)),
                            modified: rows.double(r, 4).map(Date.init(timeIntervalSince1970:)))
        }
    }

    func documentKey(named name: String) throws -> DocumentKey? {
        let rows = try query("SELECT id, uid FROM document WHERE name = $1", [.text(name)])
        guard rows.count > 0, let id = rows.int(0, 0), let uid = rows.string(0, 1) else { return nil }
        return DocumentKey(id: id, uid: uid, name: name)
    }

    func insertDocument(name: String, settings: DocumentSettings, uid: String) throws -> Int64 {
        if try documentKey(named: name) != nil { throw StackDocError(.documentExists(name: name)) }
        let now = Date().timeIntervalSince1970
        let rows = try query("""
            INSERT INTO document (name, version, settings, created, modified, uid) VALUES ($1, 1, $2, $3, $3, $4) RETURNING id
            """, [.text(name), .text(try LogFormat.encode(settings)), .double(now), .text(uid)])
        guard let id = rows.int(0, 0) else { throw StoreError.internal("no id for the new document") }
        changed[uid] = 1
        return id
    }

    func dropDocument(named name: String) throws -> Bool {
        guard let key = try documentKey(named: name) else { return false }
        for table in ["row", "log", "step", "snapshot", "import_image", "open_group"] {
            try later("DELETE FROM \(table) WHERE document = $1", [.int(key.id)])
        }
        try later("DELETE FROM document WHERE id = $1", [.int(key.id)])
        changed[key.uid] = 0
        return true
    }

    // MARK: A document's record

    /// In a write, the document's record is locked (`FOR UPDATE`): until the commit no other
    /// writer of this document gets past this read, and a writer that waited here reads the
    /// version the other committed.
    func storedVersion(_ doc: DocumentKey) throws -> Int? {
        try int("SELECT version FROM document WHERE id = $1 AND uid = $2" + (writing ? " FOR UPDATE" : ""), [.int(doc.id), .text(doc.uid)])
    }

    func header(_ doc: DocumentKey) throws -> StoredHeader? {
        let rows = try query("SELECT settings, version, cursor, history_base FROM document WHERE id = $1 AND uid = $2",
                             [.int(doc.id), .text(doc.uid)])
        guard rows.count > 0 else { return nil }
        let settings: DocumentSettings
        do {
            settings = try LogFormat.decodeSettings(rows.string(0, 0), format: LogFormat.version)
        } catch {
            throw noteDamage(StoreError.corrupt(path, "document \(Validation.quoted(doc.name)): its settings do not decode (\(error))"))
        }
        return StoredHeader(settings: settings, version: Int(rows.int(0, 1) ?? 0), cursor: Int(rows.int(0, 2) ?? 0),
                            historyBase: Int(rows.int(0, 3) ?? 0))
    }

    func setHeader(_ doc: DocumentKey, version: Int, cursor: Int) throws {
        changed[doc.uid] = version
        try later("UPDATE document SET version = $1, cursor = $2, modified = $3 WHERE id = $4",
              [.int(Int64(version)), .int(Int64(cursor)), .double(Date.now.timeIntervalSince1970), .int(doc.id)])
    }

    func openGroups(_ doc: DocumentKey) throws -> [String: Int] {
        let rows = try query("SELECT origin, seq FROM open_group WHERE document = $1", [.int(doc.id)])
        var groups: [String: Int] = [:]
        for r in 0..<rows.count { groups[rows.string(r, 0) ?? ""] = Int(rows.int(r, 1) ?? 0) }
        return groups
    }

    func setOpenGroup(_ doc: DocumentKey, origin: String, seq: Int?) throws {
        if let seq {
            try later("""
                INSERT INTO open_group (document, origin, seq) VALUES ($1, $2, $3)
                ON CONFLICT (document, origin) DO UPDATE SET seq = excluded.seq
                """, [.int(doc.id), .text(origin), .int(Int64(seq))])
        } else {
            try later("DELETE FROM open_group WHERE document = $1 AND origin = $2", [.int(doc.id), .text(origin)])
        }
    }

    func setHistoryBase(_ doc: DocumentKey, _ base: Int) throws {
        try later("UPDATE document SET history_base = $1 WHERE id = $2", [.int(Int64(base)), .int(doc.id)])
    }

    // MARK: Undo steps

    func stepCount(_ doc: DocumentKey) throws -> Int {
        try int("SELECT count(*) FROM step WHERE document = $1", [.int(doc.id)]) ?? 0
    }

    func step(_ doc: DocumentKey, _ n: Int) throws -> StoredStep? {
        try steps(where: "AND n = $2", [.int(doc.id), .int(Int64(n))]).first
    }

    func steps(_ doc: DocumentKey) throws -> [StoredStep] {
        try steps(where: "", [.int(doc.id)])
    }

    private func steps(where filter: String, _ parameters: [PostgreSQLValue?]) throws -> [StoredStep] {
        let rows = try query("SELECT first_seq, last_seq, label FROM step WHERE document = $1 \(filter) ORDER BY n", parameters)
        return (0..<rows.count).map { StoredStep(first: Int(rows.int($0, 0) ?? 0), last: Int(rows.int($0, 1) ?? 0), label: rows.string($0, 2)) }
    }

    func deleteSteps(_ doc: DocumentKey, after n: Int) throws {
        try later("DELETE FROM step WHERE document = $1 AND n > $2", [.int(doc.id), .int(Int64(n))])
    }

    func insertStep(_ doc: DocumentKey, _ n: Int, _ step: StoredStep) throws {
        try later("INSERT INTO step (document, n, first_seq, last_seq, label) VALUES ($1, $2, $3, $4, $5)",
              [.int(doc.id), .int(Int64(n)), .int(Int64(step.first)), .int(Int64(step.last)), step.label.map { .text($0) }])
    }

    func stepOwners(_ doc: DocumentKey) throws -> [StepOwner] {
        let rows = try query("""
            SELECT s.n, s.first_seq, s.last_seq, l.origin, l.kind, l.payload FROM step s
            LEFT JOIN log l ON l.document = s.document AND l.seq = s.first_seq
            WHERE s.document = $1 ORDER BY s.n
            """, [.int(doc.id)])
        return try (0..<rows.count).map { r in
            let first = Int(rows.int(r, 1) ?? 0), last = Int(rows.int(r, 2) ?? 0)
            return try decoding(doc, first) {
                var revert: StepRevert?
                if rows.string(r, 4) == LogEntry.Kind.restore.rawValue, let found = try HistoryPayload.revert(rows.string(r, 5)) {
                    revert = StepRevert(undo: found.undo, steps: found.steps)
                }
                return StepOwner(n: Int(rows.int(r, 0) ?? 0), entries: first...last, origin: rows.string(r, 3), reverts: revert)
            }
        }
    }
}
