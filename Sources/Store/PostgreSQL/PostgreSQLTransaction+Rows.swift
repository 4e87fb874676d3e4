import Foundation
import Layout
import StoreFormat

/// The `row` table: one statement per primitive change (queued: `later`), order keys between the
/// stored keys of the row's neighbours (`OrderKeySpace`), and the load of a document's rows in
/// (parent, order key) order. Configs are the same columns as SQLite's: `size` (NULL = fit) and
/// `fields` (`RowFields`).
extension PostgreSQLTransaction {
    func loadRows(_ doc: DocumentKey, name: String, settings: DocumentSettings, cancellation: Cancellation) throws -> Document {
        let rows = try query("SELECT parent, id, size, fields FROM row WHERE document = $1 ORDER BY parent, order_key", [.int(doc.id)])
        var builder = DocumentBuilder(name: name, settings: settings, path: path)
        builder.document.reserveCapacity(rows: rows.count, rootRows: rows.count)
        var untilCheck = Cancellation.interval
        for r in 0..<rows.count {
            untilCheck -= 1
            if untilCheck == 0 {
                try cancellation.check()
                untilCheck = Cancellation.interval
            }
            let parent = rows.string(r, 0) ?? ""
            guard let id = rows.string(r, 1) else { throw StoreError.corrupt(path, "a row of '\(name)' has no id") }
            var config: RowConfig
            do {
                config = try rows.withBytes(r, 3) { try RowFields.decode($0) } ?? RowConfig()
            } catch let damage as RowFields.Damage {
                throw StoreError.corrupt(path, "document '\(name)': row \(Validation.quoted(id)): its fields are damaged (\(damage.description))")
            }
            if let size = rows.double(r, 2) { config.size = .fixed(size) }
            try builder.add((id, parent.isEmpty ? nil : parent, config))
        }
        return try builder.finish()
    }

    func importedRows(_ doc: DocumentKey, name: String, seq: Int, settings: DocumentSettings) throws -> Document {
        let rows = try query("SELECT image FROM import_image WHERE document = $1 AND seq = $2", [.int(doc.id), .int(Int64(seq))])
        func check(_ image: UnsafeRawBufferPointer?) throws -> Document {
            try ImportImageCheck.document(image, name: name, uid: doc.uid, seq: seq, settings: settings, path: path)
        }
        if rows.count > 0, let document = try rows.withBytes(0, 0, check) { return document }
        return try check(nil)
    }

    // MARK: Writing rows

    func willApply(_ change: Change, to document: Document, _ doc: DocumentKey) throws {}

    func didApply(_ change: Change, to document: Document, _ doc: DocumentKey) throws {
        let id = PostgreSQLValue.int(doc.id)
        switch change {
        case let .insertRow(row, config, parent, index):
            let key = try orderKey(at: index, in: parent, of: document, moving: nil, doc)
            knownKeys[row] = key
            try later("INSERT INTO row (document, parent, order_key, id, size, fields) VALUES ($1, $2, $3, $4, $5, $6)",
                  [id, .text(parent ?? ""), .text(key), .text(row)] + Self.configValues(config))
        case let .removeRow(row, _, _, _):
            knownKeys[row] = nil
            try laterOne("DELETE FROM row WHERE document = $1 AND id = $2", [id, .text(row)], "row '\(row)'")
        case let .updateRow(row, _, new):
            try laterOne("UPDATE row SET size = $1, fields = $2 WHERE document = $3 AND id = $4", Self.configValues(new) + [id, .text(row)], "row '\(row)'")
        case let .moveRow(row, _, _, toParent, toIndex):
            let key = try orderKey(at: toIndex, in: toParent, of: document, moving: row, doc)
            knownKeys[row] = key
            try laterOne("UPDATE row SET parent = $1, order_key = $2 WHERE document = $3 AND id = $4",
                     [.text(toParent ?? ""), .text(key), id, .text(row)], "row '\(row)'")
        case let .updateSettings(_, new):
            try later("UPDATE document SET settings = $1 WHERE id = $2", [.text(try LogFormat.encode(new)), id])
        }
    }

    func flushRows(after document: Document, _ doc: DocumentKey) throws {}

    /// Every change is written on its own (no long runs beside memory).
    func leadingRunLength(of changes: ArraySlice<Change>) -> Int { 0 }

    func longRun(_ changes: ArraySlice<Change>, before document: Document, _ doc: DocumentKey) throws -> any LongRunWrite {
        throw StoreError.internal("the PostgreSQL backend writes no long runs")
    }

    /// A config as the values of `size` and `fields`.
    static func configValues(_ config: RowConfig) -> [PostgreSQLValue?] {
        var size: PostgreSQLValue?
        if case .fixed(let n) = config.size { size = .double(n) }
        return [size, RowFields.encode(config).map { .bytes($0) }]
    }

    /// A key between the stored keys of the row's neighbours (the row already sits at `index`
    /// of `parent` in `document`): the keys this transaction wrote are known (`knownKeys`: a
    /// run of inserts reads one neighbour's key in all), the others are read in one round trip
    /// for both; more only when `OrderKeySpace` re-keys a neighbourhood.
    private func orderKey(at index: Int, in parent: RowID?, of document: Document, moving: RowID?, _ doc: DocumentKey) throws -> String {
        let before = document.child(at: index - 1, of: parent), after = document.child(at: index + 1, of: parent)
        var keys: [String: String] = [:]
        let neighbours = [before, after].compactMap { $0 }.filter { id in
            guard let known = knownKeys[id] else { return true }
            keys[id] = known
            return false
        }
        if !neighbours.isEmpty {
            let rows = try query("SELECT id, order_key FROM row WHERE document = $1 AND id IN ($2, $3)",
                                 [.int(doc.id), .text(neighbours[0]), neighbours.count > 1 ? .text(neighbours[1]) : nil])
            for r in 0..<rows.count { keys[rows.string(r, 0) ?? ""] = rows.string(r, 1) }
        }
        func stored(_ id: RowID?) throws -> String? {
            guard let id else { return nil }
            guard let key = keys[id] else { throw StoreError.internal("row '\(id)' has no stored order key") }
            return key
        }
        return try OrderKeySpace.key(between: try stored(before), try stored(after), parent: parent ?? "", moving: moving,
                                     rows: PostgreSQLOrderKeyedRows(tx: self, docID: doc.id))
    }
}

/// The `row` table as `OrderKeySpace` re-keys it.
struct PostgreSQLOrderKeyedRows: OrderKeyedRows {
    let tx: PostgreSQLTransaction
    let docID: Int64

    private static let range = "document = $1 AND parent = $2 AND order_key >= $3 AND order_key < $4"

    func count(in parent: String, from: String, below: String) throws -> Int {
        try tx.int("SELECT count(*) FROM row WHERE \(Self.range)", [.int(docID), .text(parent), .text(from), .text(below)]) ?? 0
    }

    func forEachRow(in parent: String, from: String, below: String, _ body: (String, UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let rows = try tx.query("SELECT id, order_key FROM row WHERE \(Self.range) ORDER BY order_key", [.int(docID), .text(parent), .text(from), .text(below)])
        for r in 0..<rows.count {
            let key = Array((rows.string(r, 1) ?? "").utf8)
            try key.withUnsafeBufferPointer { try body(rows.string(r, 0) ?? "", $0) }
        }
    }

    func park(in parent: String, from: String, below: String, moving: RowID?) throws {
        tx.knownKeys.removeAll()
        try tx.later("UPDATE row SET order_key = '~' || id WHERE \(Self.range)", [.int(docID), .text(parent), .text(from), .text(below)])
        if let moving { try tx.later("UPDATE row SET order_key = '~' || id WHERE document = $1 AND id = $2", [.int(docID), .text(moving)]) }
    }

    func setKeys(_ keys: [(id: String, key: String)]) throws {
        for (id, key) in keys {
            tx.knownKeys[id] = key
            try tx.later("UPDATE row SET order_key = $1 WHERE document = $2 AND id = $3", [.text(key), .int(docID), .text(id)])
        }
    }
}
