import Foundation
import GRDB
import GRDBSQLite
import Layout
import StoreFormat

/// Loads a document's rows (or the rows an import entry brought in) from `row` into a
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
                     importSeq: Int? = nil, path: String, cancellation: Cancellation) throws -> Document {
        let columns = (["parent", "id"] + ColumnCoding.configColumns).joined(separator: ", ")
        let filter = importSeq == nil ? "document = ? AND import_seq = 0" : "document = ? AND import_seq = ?"
        let arguments: StatementArguments = importSeq == nil ? [documentID] : [documentID, importSeq]

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
                guard let id = ColumnCoding.string(stmt, 1) else { throw StoreFailure.corrupt(path, "a row of '\(name)' has no id") }
                let config: RowConfig
                do {
                    config = try ColumnCoding.readConfig(stmt, at: 2)
                } catch let damage as RowFields.Damage {
                    throw StoreFailure.corrupt(path, "document '\(name)': row \(Validation.quoted(id)): its fields are damaged (\(damage.description))")
                }
                if try !emit((id, parent.isEmpty ? nil : parent, config)) { return }
            }
        }

        if total < parallelThreshold {
            var builder = makeBuilder()
            try scan { row in try builder.add(row); return true }
            return try builder.finish()
        }

        // Two threads: decode here, build there.
        let channel = Channel<[Decoded]>(capacity: 4)
        let result = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var builder = makeBuilder()
            do {
                while let chunk = channel.take() {
                    for row in chunk { try builder.add(row) }
                }
                result.value = .success(try builder.finish())
            } catch {
                result.value = .failure(error)
                channel.cancel()
            }
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        var chunk: [Decoded] = []
        chunk.reserveCapacity(chunkSize)
        do {
            try scan { row in
                chunk.append(row)
                if chunk.count == chunkSize {
                    guard channel.put(chunk) else { return false }
                    chunk.removeAll(keepingCapacity: true)
                }
                return true
            }
            if !chunk.isEmpty { _ = channel.put(chunk) }
        } catch {
            channel.finish()
            done.wait()
            throw error
        }
        channel.finish()
        done.wait()
        guard let value = result.value else { throw StoreFailure.internal("loader thread ended without a result") }
        return try value.get()
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
            throw StoreFailure.corrupt(path, "row '\(rows[0].0)' of '\(document.name)' sits in '\(parent)', which is not a stack of the document")
        }
        return document
    }
}

/// A bounded hand-over queue between two threads.
final class Channel<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [T] = []
    private var finished = false
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Blocks while full; false when the consumer cancelled.
    func put(_ item: T) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Blocks while empty; nil once finished and drained, or cancelled.
    func take() -> T? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !finished && !cancelled { condition.wait() }
        if cancelled || items.isEmpty { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}

/// The loader thread's result.
final class ResultBox: @unchecked Sendable {
    var value: Result<Document, Error>?
}
