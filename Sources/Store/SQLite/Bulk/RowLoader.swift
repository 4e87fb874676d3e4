import Foundation
import GRDB
import GRDBSQLite
import Layout
import StackDocRuntime
import StoreFormat

/// Loads a document's rows from `row` into a
/// `Document`: one sequential scan in (parent, order_key) order through the raw C API (no
/// per-row record decoding), then the stacks are filled from the root down.
///
/// Large documents are loaded by two threads: this one steps SQLite and decodes rows into
/// chunks, a second one appends them to the `Document` (on two cores the two halves overlap).
enum RowLoader {
    /// Row count above which decoding and building run on two threads.
    static let parallelThreshold = 50_000
    static let chunkSize = 8192

    typealias Decoded = (id: RowID, parent: RowID?, config: RowConfig)

    /// `cancellation` is asked every `Cancellation.interval` rows.
    static func load(_ db: Database, name: String, settings: DocumentSettings, documentID: Int64,
                     path: String, cancellation: Cancellation) throws -> Document {
        let columns = (["parent", "id"] + ColumnCoding.configColumns).joined(separator: ", ")
        let filter = "document = ?"
        let arguments: StatementArguments = [documentID]

        // One count over the document's range of the table (its primary key leads with the
        // document; the id index leads with the id since schema 17); the root's list may get
        // them all (reserved, not touched, so it costs no memory when they are nested).
        let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM row WHERE \(filter)", arguments: arguments) ?? 0
        let rootCount = total
        /// A builder with room for every row (made where it is filled, so it is never copied).
        @Sendable func makeBuilder() -> DocumentBuilder {
            var builder = DocumentBuilder(name: name, settings: settings, path: path)
            builder.document.reserveCapacity(rows: total, rootRows: rootCount)
            return builder
        }

        let sql = "SELECT \(columns) FROM row WHERE \(filter) ORDER BY parent, order_key"
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let stmt = statement.sqliteStatement
        defer { sqlite3_reset(stmt) }

        /// Steps the statement, handing rows to `emit`; stops early when it returns false.
        func scan(_ emit: (Decoded) throws -> Bool) throws {
            var untilCheck = Cancellation.interval
            while true {
                untilCheck -= 1
                if untilCheck == 0 {
                    try cancellation.check()
                    untilCheck = Cancellation.interval
                }
                let rc = sqlite3_step(stmt)
                if rc == SQLITE_DONE { return }
                guard rc == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: rc),
                                        message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
                }
                let parent = ColumnCoding.string(stmt, 0) ?? ""
                guard let id = ColumnCoding.string(stmt, 1) else { throw StoreError.corrupt(path, "a row of '\(name)' has no id") }
                let config: RowConfig
                do {
                    config = try ColumnCoding.readConfig(stmt, at: 2)
                } catch let damage as RowFields.Damage {
                    throw StoreError.corrupt(path, "document '\(name)': row \(Validation.quoted(id)): its fields are damaged (\(damage.description))")
                }
                if try !emit((id, parent.isEmpty ? nil : parent, config)) { return }
            }
        }

        if total < parallelThreshold {
            var builder = makeBuilder()
            try scan { row in try builder.add(row); return true }
            return try builder.finish()
        }

        // Two threads: decode here, build there (on a thread of its own: it waits for chunks).
        let chunks = HandOverQueue<[Decoded]>(capacity: 4)
        let building = BackgroundTask(.ownThread(stackBytes: 1 << 20)) { () -> Built in
            var builder = makeBuilder()
            do {
                while let chunk = chunks.take() {
                    for row in chunk { try builder.add(row) }
                }
                return Built(result: .success(try builder.finish()))
            } catch {
                chunks.close(stop: true)
                return Built(result: .failure(error))
            }
        }
        var chunk: [Decoded] = []
        chunk.reserveCapacity(chunkSize)
        do {
            try scan { row in
                chunk.append(row)
                if chunk.count == chunkSize {
                    guard chunks.put(chunk) else { return false }
                    chunk.removeAll(keepingCapacity: true)
                }
                return true
            }
            if !chunk.isEmpty { _ = chunks.put(chunk) }
        } catch {
            chunks.finish()
            _ = building.value
            throw error
        }
        chunks.finish()
        return try building.value.result.get()
    }

    /// The building thread's result (the document moves back to the caller).
    private struct Built: @unchecked Sendable {
        let result: Result<Document, any Error>
    }
}

/// Builds a `Document` from rows in (parent, order) order: root rows as they come, nested rows
/// once their stack row is in.
struct DocumentBuilder: @unchecked Sendable {
    var document: Document
    let path: String
    private var pending: [RowID: [(RowID, RowConfig)]] = [:]
    private var stacks: [RowID] = []

    init(name: String, settings: DocumentSettings, path: String) {
        document = Document(name: name, settings: settings)
        self.path = path
    }

    mutating func add(_ row: RowLoader.Decoded) throws {
        try StoredValues.check(id: row.id, parent: row.parent, config: row.config, document: document.name, path: path)
        if let parent = row.parent {
            pending[parent, default: []].append((row.id, row.config))
        } else {
            try document.appendRow(row.id, config: row.config, parent: nil)
            if row.config.stack != nil { stacks.append(row.id) }
        }
    }

    mutating func finish() throws -> Document {
        while let stack = stacks.popLast() {
            guard let rows = pending.removeValue(forKey: stack) else { continue }
            for (id, config) in rows {
                try document.appendRow(id, config: config, parent: stack)
                if config.stack != nil { stacks.append(id) }
            }
        }
        if let (parent, rows) = pending.first {
            throw StoreError.corrupt(path, "row '\(rows[0].0)' of '\(document.name)' sits in '\(parent)', which is not a stack of the document")
        }
        return document
    }
}
