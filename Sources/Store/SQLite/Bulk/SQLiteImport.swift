import Foundation
import GRDB
import Layout
import StackDocRuntime
import StoreFormat

/// The SQLite backend's import (`StoreBackend.importDocument`): a pipeline of threads that
/// read, check and encode the rows while this one writes them, in the import's one transaction.
extension SQLiteBackend {
    func importDocument(uid: String, cancellation: Cancellation,
                        reading: @escaping @Sendable (_ rows: @escaping @Sendable ([ImportedRow]) -> Bool) throws
                            -> (document: Document, rowsHandedOver: Bool)) throws -> (id: Int64, document: Document, live: LiveLayout?) {
        // As many rows waiting as 4 batches of 4,096 (the reading's batches are smaller).
        let queue = HandOverQueue<EncodedRows>(capacity: 32)
        // While this thread writes the rows, a second one reads them and hands them over in
        // batches to a third, which checks and encodes each batch into the image (the import
        // entry's rows and first snapshot) and into the values the INSERTs bind (`EncodedRows`:
        // this thread only binds and steps); then the second checks the document, and a fourth
        // lays it out (the handle's live layout) while this one writes the image and commits.
        // None of them touches SQL. (Reading and encoding on one thread left this one idle half
        // the time: RESULTS.md, 2026-11-28.)
        let read = HandOverQueue<[ImportedRow]>(capacity: 8)
        let encoding = BackgroundTask { () -> ImportedRowsSeen in
            let seen = ImportedRowsSeen()
            defer { queue.finish() }
            while let batch = read.take() {
                // A writer that stopped stops the reading.
                if !queue.put(seen.take(batch, reusing: queue.reusable())) { read.close(stop: true) }
            }
            return seen
        }
        let derived = BackgroundTask { () -> Result<PreparedImport, any Error> in
            Result {
                let (document, handedOver) = try {
                    defer { read.finish() }
                    return try reading { batch in read.put(batch) }
                }()
                return try PreparedImport(document, uid: uid, rowsHandedOver: handedOver, seen: encoding.value)
            }
        }
        /// The reading's or the document's problem first (as when the file was read before
        /// the store was asked), then `error`; a cancellation (`stop`) stops the reading and
        /// is the error.
        func failing(_ error: Error, stop: Bool) -> Error {
            queue.close(stop: stop)
            if !stop, case .failure(let problem) = derived.value { return problem }
            return error
        }
        // The handle's live layout, built while the images are written and committed.
        var layout: BackgroundTask<LiveLayout>?
        // Started once everything is written, stopped when the commit (and the checkpoint
        // SQLite runs in it) returns.
        var writeBack: WriteBackStarter?
        defer { writeBack?.stop() }
        let written: (id: Int64, prepared: PreparedImport)
        do {
            // Foreign keys off (SQLite would look the document up for every row: ≈ 0.1 s at 1M
            // rows). Safe: every row, the log entry, the import image and the snapshot this
            // transaction writes refer to the document row it inserts first (`id`), which nothing
            // can delete before the commit (this transaction holds the write lock); the only
            // deletion (rows not handed over) removes referring rows, never a referred one.
            written = try write(foreignKeys: false) { db in
                // A page cache that holds the new rows and their index while they are written (the
                // 32 MB one spilled pages to the WAL mid-transaction: ≈ 15 % of a 1M-row import).
                try db.execute(sql: "PRAGMA cache_size = -262144")
                defer { try? db.execute(sql: "PRAGMA cache_size = \(Self.cacheSize)") }
                // The document's row first (its rows refer to it), under a name no document can
                // have; its name and settings are set once the whole file is read.
                let id = try SQLiteTransaction(db, path: path, noteDamage: { $0 }).insertDocument(name: "~import " + uid, settings: DocumentSettings(), uid: uid)
                var inserter = try BulkRowInserter(db, document: id, cancellation: cancellation)
                do {
                    while let rows = queue.take() {
                        try inserter.add(rows)
                        queue.recycle(consume rows)
                    }
                    try inserter.finish()
                    try cancellation.check()
                } catch {
                    throw failing(error, stop: (error as? StackDocError)?.kind == .cancelled)
                }
                let prepared = try derived.value.get()
                if !prepared.rowsHandedOver {
                    if inserter.count > 0 { try db.execute(sql: "DELETE FROM row WHERE document = ?", arguments: [id]) }
                    try RowWriter.bulkInsert(db, document: id, rows: prepared.document, cancellation: cancellation)
                }
                let document = prepared.document
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM document WHERE name = ?", arguments: [document.name]) ?? false {
                    throw StackDocError(.documentExists(name: document.name))
                }
                layout = BackgroundTask { prepared.live ?? LiveLayout(prepared.document) }
                try db.execute(sql: "UPDATE document SET name = ? WHERE id = ?", arguments: [document.name, id])
                try RowWriter.writeSettings(document.settings, db: db, id: id)
                try LogWriter.append(db, document: id, seq: 1, kind: .importDocument, payload: try LogFormat.encode(document.settings),
                                     forward: nil, group: nil, label: nil)
                // One image of the imported document: the import entry's rows (what replay and
                // `log export` start from), which is also the first snapshot (stored once).
                try ImportImages.write(db, documentID: id, seq: 1, image: prepared.image)
                if options.snapshots.keep > 0 {
                    try Snapshots.writeImportReference(db, documentID: id, uid: uid, version: 1, seq: 1, rows: document.rowCount,
                                                       keep: options.snapshots.keep)
                }
                if path != ":memory:" { writeBack = WriteBackStarter(path: path) }
                return (id, prepared)
            }
        } catch {
            // The transaction could not start (a read-only or damaged file, a lock held too
            // long): the reading's problem still comes first, then a name in use.
            let error = failing(error, stop: (error as? StackDocError)?.kind == .cancelled)
            if case .success(let prepared) = derived.value, (try? self.read { (db: Database) in try SQLiteTransaction(db, path: self.path, noteDamage: { $0 }).documentKey(named: prepared.document.name) }) != nil {
                throw StackDocError(.documentExists(name: prepared.document.name))
            }
            throw error
        }
        writeBack?.stop()
        writeBack = nil
        return (written.id, written.prepared.document, layout?.value)
    }
}

/// What the reading thread of an import derives from the rows as it hands them over: each row
/// checked by the one validator (`DocumentStore.checkRow`), encoded into the image
/// (`SnapshotImage.Encoder`), so neither waits for the end of the file, and encoded as the
/// values its INSERT binds, under its order key (`EncodedRows`, `StackKeys`), so the writing
/// thread does not. Used by that thread only.
final class ImportedRowsSeen: @unchecked Sendable {
    /// Everything a row changes, in one value that each batch reaches once (a stored property
    /// of a class is checked for exclusive access at run time at each reach: per row, ≈ 5 % of
    /// this thread).
    private struct State {
        var encoder = SnapshotImage.Encoder(capacity: 0)
        var problem: Error?
        var keys = StackKeys()

        /// Checks and encodes the rows of `batch`, each read in place, borrowed from the span
        /// (a row of an `UnsafeBufferPointer` or its `pointee` was copied, config and all, for
        /// each call it was passed to).
        mutating func take(_ batch: Span<ImportedRow>, into rows: inout EncodedRows) {
            for i in batch.indices { take(batch[i], into: &rows) }
        }

        /// Checks and encodes one row.
        private mutating func take(_ row: borrowing ImportedRow, into rows: inout EncodedRows) {
            if problem == nil {
                do { try DocumentStore.checkRow(row.id, row.config) } catch { problem = error }
            }
            // The style number the image gives the row lets its INSERT values copy the
            // style's columns, encoded once per batch.
            let style = encoder.add(row.id, parent: row.parent, config: row.config)
            // (Not `keys.withKey`: its closure would capture, and so copy, the row.)
            keys.select(row.parent)
            if let style {
                rows.append(row.id, parent: row.parent, key: keys.nextKey, config: row.config, style: style)
            } else {
                rows.append(row.id, parent: row.parent, key: keys.nextKey, config: row.config)
            }
            keys.advance()
        }
    }
    private var state = State()

    /// The image's rows so far.
    var encoder: SnapshotImage.Encoder { state.encoder }
    /// The first row handed over that breaks a rule.
    var problem: Error? { state.problem }

    /// Checks and encodes `batch`; returns its rows as the INSERTs bind them, in `storage`
    /// (emptied) when given.
    func take(_ batch: [ImportedRow], reusing storage: consuming EncodedRows? = nil) -> EncodedRows {
        var rows: EncodedRows
        if let reused = storage.take() {
            rows = reused
            rows.removeAll()
        } else {
            rows = EncodedRows(capacity: batch.count)
        }
        state.take(batch.span, into: &rows)
        return rows
    }
}

/// What an import derives from its document off the writing thread: the document checked (name,
/// settings, row count, rows) with its offset clamped, and its image. (Its live layout is built
/// while the image is written; `live` is the one the clamp needed, if any.)
struct PreparedImport: Sendable {
    var document: Document
    var rowsHandedOver: Bool
    var image: [UInt8]
    var live: LiveLayout?

    /// - Parameter seen: The rows handed over, checked and encoded; used when they are the
    ///   document's (`rowsHandedOver`, as many rows, in document order), else the document's
    ///   rows are checked and encoded here.
    /// - Throws: the first rule `document` breaks, with the one validator's message.
    init(_ document: Document, uid: String, rowsHandedOver: Bool, seen: ImportedRowsSeen? = nil) throws {
        try Validation.checkDocumentName(document.name)
        try Validation.check(document.settings)
        guard document.rowCount <= DocumentLimits.maxRows else {
            throw StackDocError("import: a document holds at most \(DocumentLimits.maxRows) rows, this one has \(document.rowCount)")
        }
        let streamed = seen.flatMap { rowsHandedOver && $0.encoder.isInOrder && $0.encoder.rows == document.rowCount ? $0 : nil }
        if let streamed {
            if let problem = streamed.problem { throw problem }
        } else {
            try DocumentStore.checkRows(document)
        }
        var document = document
        var layout: LiveLayout?
        if document.settings.offset > 0 {
            var clamped = LiveLayout(document)
            if let clamp = document.offsetClamp(maxOffset: clamped.maxOffset) {
                try document.apply(clamp)
                clamped.apply([clamp], to: document)
            }
            layout = clamped
        }
        self.document = document
        self.rowsHandedOver = rowsHandedOver
        self.image = streamed?.encoder.image(uid: uid, version: 1, seq: 1, settings: document.settings)
            ?? SnapshotImage.encode(document, uid: uid, version: 1, seq: 1)
        self.live = layout
    }
}
