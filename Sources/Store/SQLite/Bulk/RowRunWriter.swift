import Foundation
import GRDB
import GRDBSQLite
import Layout
import StackDocRuntime
import StoreFormat

/// Writes the row inserts and removals of one write that come one after another in one stack —
/// a `clear`, its undo and redo, `remove` or `add` of many rows — together, instead of one
/// statement and one or two order-key lookups per row (issue 15 item 8).
///
/// `StoredDocument.apply` asks `mustFlush(before:)` before applying a change to memory and hands
/// the change to `take` after. A change that continues the pending run joins it: an insert right
/// after the run's last row (its index + 1), a removal of the row just before the run's first
/// (descending indexes, as `clear` plans them) or of the row now in the run's place (ascending).
/// Anything else, and the end of the transaction, first `flush`es the run — while memory holds
/// exactly the state right after it:
///
/// - **inserts**: the stored keys of the rows around the run (two lookups), `OrderKey.keys` for
///   the run between them, and the rows written through `BulkRowInserter` (multi-row INSERTs
///   naming only the columns the rows set). When those keys would be too long, row by row
///   through `OrderKeySpace`, which re-keys a neighbourhood as a single insert does.
/// - **removals**: the stored keys of the run's first and last rows, then ONE `DELETE` of that
///   key range of the stack — a stack's rows in key order are its rows in document order, so the
///   range holds exactly the run — checked to have deleted as many rows as the run has.
///
/// Big runs (at least `DeferredIDIndex.firstRun` rows) also spare the id index: a run that
/// outnumbers the rows the table keeps besides it (a `clear` of most of the database's rows, its
/// undo) drops the index before it and builds it again after, in the same transaction
/// (`DeferredIDIndex.dropIfOutnumbered`: one sorted build of the fewer rows instead of an entry
/// written or deleted per row). A removal run of at least `foreignKeysOffMinimum` rows is
/// deleted with SQLite's foreign key enforcement off (`ForeignKeysOff`): `row` has a foreign key,
/// so with it on SQLite deletes in two passes (the keys into a temporary b-tree, then one seek
/// per row), ≈ 0.3 s of CPU for 100k rows; off, in one pass along the range.
///
/// A run of one row is written by `RowWriter.write`, as before.
struct RowRunWriter {
    private enum Kind { case inserts, removals }

    /// Runs of fewer rows go to the per-row INSERT with the keys already chosen (a batch's
    /// statement is prepared for its size: not worth it for a few rows).
    static let bulkThreshold = 32

    private var kind: Kind?
    private var parent: RowID?
    /// Inserts: the index of the run's first row. Removals: the index, before the run, of its
    /// first row (`low ..< low + count` were removed).
    private var low = 0
    private var count = 0
    /// The run's first change (a run of one is written as it is).
    private var first: Change?
    /// Inserts: the changes, in order (a change is one reference: no config is copied). A run
    /// taken from a list (`leadingRun`) is a slice of that list's storage: 100k changes are
    /// not copied one by one on the writing thread.
    private var inserted: ArraySlice<Change> = []
    /// Removals: the ids of the rows that were at `low` and at `low + count - 1`.
    private var lowID: RowID = ""
    private var highID: RowID = ""

    /// True when a run is pending that `change` does not continue: it must be written before
    /// `change` is applied to memory.
    func mustFlush(before change: Change) -> Bool {
        guard let kind else { return false }
        switch (kind, change) {
        case let (.inserts, .insertRow(_, _, p, index)):
            return !(p == parent && index == low + count)
        case let (.removals, .removeRow(_, _, p, index)):
            return !(p == parent && (index == low - 1 || index == low))
        default:
            return true
        }
    }

    /// Takes `change`, just applied to memory, into the pending run (starting one when none is
    /// pending); false for a change that is not a row insert or removal (the caller writes it).
    /// The caller asked `mustFlush(before:)` first.
    mutating func take(_ change: Change) -> Bool {
        take(change, collecting: true)
    }

    /// `take(_:)`; without `collecting`, an insert is counted but not kept in `inserted` (the
    /// caller sets it to a slice of its list: `leadingRun`).
    private mutating func take(_ change: Change, collecting: Bool) -> Bool {
        switch change {
        case let .insertRow(_, _, p, index):
            if kind == nil { start(.inserts, parent: p, low: index, change) }
            if collecting { inserted.append(change) }
            count += 1
            return true
        case let .removeRow(id, _, p, index):
            if kind == nil {
                start(.removals, parent: p, low: index, change)
                (lowID, highID) = (id, id)
            } else if index == low - 1 {
                low -= 1
                lowID = id
            } else {
                highID = id
            }
            count += 1
            return true
        default:
            return false
        }
    }

    private mutating func start(_ kind: Kind, parent: RowID?, low: Int, _ change: Change) {
        self.kind = kind
        self.parent = parent
        self.low = low
        first = change
    }

    /// Writes the pending run (nothing when none is pending). `document` is the state right
    /// after the run's last change.
    mutating func flush(after document: Document, db: Database, docID: Int64) throws {
        guard let kind, let first else { return }
        defer {
            self.kind = nil
            self.first = nil
            count = 0
            inserted.removeAll(keepingCapacity: true)
        }
        if count == 1 {
            try RowWriter.write(first, after: document, db: db, id: docID)
            return
        }
        switch kind {
        case .inserts: try writeInserts(between: document.child(at: low - 1, of: parent), document.child(at: low + count, of: parent),
                                        db: db, docID: docID)
        case .removals: try writeRemovals(db: db, docID: docID)
        }
    }

    /// The run at the start of `changes` (as `take` forms it: each change after the first
    /// continues it), as a writer holding it, with its length (0 when the first change is not
    /// a row insert or removal).
    static func leadingRun(of changes: ArraySlice<Change>) -> (writer: RowRunWriter, length: Int) {
        var writer = RowRunWriter()
        for change in changes {
            if writer.mustFlush(before: change) || !writer.take(change, collecting: false) { break }
        }
        if writer.kind == .inserts { writer.inserted = changes.prefix(writer.count) }
        return (writer, writer.count)
    }

    /// The rows next to the run, by id, read from `document` as it is BEFORE the run (a run
    /// written ahead of memory, `writeAhead`): an insert run goes between the row before its
    /// first index and the row now at that index; a removal run needs none.
    func neighbours(before document: Document) -> (before: RowID?, after: RowID?) {
        guard kind == .inserts else { return (nil, nil) }
        return (document.child(at: low - 1, of: parent), document.child(at: low, of: parent))
    }

    /// Writes the run taken (`leadingRun`) before memory applies it, with the `neighbours` read
    /// then; the rows come out as `flush` would write them after. Nothing here reads the
    /// document, so another thread may apply the run to memory meanwhile.
    func writeAhead(neighbours: (before: RowID?, after: RowID?), db: Database, docID: Int64) throws {
        switch kind {
        case .inserts?: try writeInserts(between: neighbours.before, neighbours.after, db: db, docID: docID)
        case .removals?: try writeRemovals(db: db, docID: docID)
        case nil: break
        }
    }

    /// The stored order keys of the rows around a bulk insert run (at least `bulkThreshold`
    /// rows) that goes between `neighbours` (read before the run, as for `writeAhead`), so that
    /// another thread can key and encode its rows (`encode`) while this one writes them
    /// (`writeEncoded`); nil for any other run.
    func storedNeighbourKeys(_ neighbours: (before: RowID?, after: RowID?), db: Database, docID: Int64) throws -> EncodedRun? {
        guard kind == .inserts, count >= Self.bulkThreshold else { return nil }
        return EncodedRun(before: try neighbours.before.map { try RowWriter.storedKey($0, db: db, docID: docID) },
                          after: try neighbours.after.map { try RowWriter.storedKey($0, db: db, docID: docID) })
    }

    /// Rows a batch of `encode` holds.
    static let encodedBatch = 8 * RowWriter.bulkBatch

    /// Gives the insert run's rows their order keys between `run`'s stored neighbour keys
    /// (`OrderKey.keyList`, byte for byte `OrderKey.keys`) and encodes them for their INSERTs, in
    /// batches handed to `run.queue` (another thread takes them: `writeEncoded`); stops early
    /// when the writer closed the queue. Each row's style is numbered (`RowStyleTable`) so a
    /// batch encodes a style's columns once and only size, content and hidden per row
    /// (`EncodedRows.append(_:parent:key:config:style:)`, as an import does). With
    /// `run.imageRows` and a run at the root, the rows are also encoded for a snapshot image
    /// (whose style numbers are those), and that encoder is returned: the run is then every row
    /// of the document (the caller checked it was empty), in document order, so the image is
    /// `SnapshotImage.encodeRows` of the document after the run, byte for byte.
    /// Reads no document: the run holds its rows' configs. When the gap is too narrow for such
    /// keys (or a stored key is bad), hands over nothing and says so in `run`.
    @discardableResult
    func encode(_ run: EncodedRun) -> SnapshotImage.Encoder? {
        defer { run.queue.finish() }
        let keys: OrderKeyList
        do {
            guard let found = try OrderKey.keyList(count, between: run.before, run.after) else {
                run.keyed = false
                return nil
            }
            keys = found
        } catch {
            run.error = error
            return nil
        }
        var image = run.imageRows && parent == nil ? SnapshotImage.Encoder(capacity: count) : nil
        var styles = RowStyleTable()
        var rows = EncodedRows(capacity: Self.encodedBatch)
        for (i, change) in inserted.enumerated() {
            guard case let .insertRow(id, config, _, _) = change else { continue }
            let style = image != nil ? image!.add(id, parent: nil, config: config)! : styles.number(of: config)
            rows.append(id, parent: parent, key: keys[i], config: config, style: style)
            if rows.count == Self.encodedBatch {
                guard run.queue.put(rows) else { return nil }
                rows = EncodedRows(capacity: Self.encodedBatch)
            }
        }
        if rows.count > 0 { _ = run.queue.put(rows) }
        return image
    }

    /// Writes the insert run from the batches `encode` hands over, as `writeAhead` would write
    /// it (`BulkRowInserter`, the id index spared when the run outnumbers the table's other
    /// rows), with foreign key enforcement off (`ForeignKeysOff`: every row refers to this
    /// document, whose row the transaction has read and nothing deletes before its commit). When
    /// `encode` found no keys, writes the run as `writeAhead` does (row by row, re-keying as a
    /// single insert does). Closes the queue when it fails, so the encoding thread stops.
    func writeEncoded(from run: EncodedRun, neighbours: (before: RowID?, after: RowID?), db: Database, docID: Int64) throws {
        do {
            try ForeignKeysOff.during(db) {
                var idIndex = DeferredIDIndex()
                try idIndex.dropIfOutnumbered(by: count, deleting: false, db)
                var inserter = try BulkRowInserter(db, document: docID, idIndex: idIndex)
                while let rows = run.queue.take() { try inserter.add(rows) }
                if let error = run.error { throw error }
                try inserter.finish()
                guard !run.keyed || inserter.count == count else {
                    throw StoreError.internal("inserting \(count) rows into stack '\(parent ?? "")' wrote \(inserter.count)")
                }
            }
        } catch {
            run.queue.close(stop: true)
            throw error
        }
        if !run.keyed { try writeAhead(neighbours: neighbours, db: db, docID: docID) }
    }

    /// Writes the insert run between stored rows `beforeID` and `afterID` (nil: the stack's
    /// start or end).
    private func writeInserts(between beforeID: RowID?, _ afterID: RowID?, db: Database, docID: Int64) throws {
        let before = try beforeID.map { try RowWriter.storedKey($0, db: db, docID: docID) }
        let after = try afterID.map { try RowWriter.storedKey($0, db: db, docID: docID) }
        if let keys = try OrderKey.keyList(count, between: before, after) {
            if count >= Self.bulkThreshold {
                var idIndex = DeferredIDIndex()
                try idIndex.dropIfOutnumbered(by: count, deleting: false, db)
                var inserter = try BulkRowInserter(db, document: docID, idIndex: idIndex)
                for (i, change) in inserted.enumerated() {
                    guard case let .insertRow(id, config, _, _) = change else { continue }
                    try inserter.add(id, parent: parent, key: keys[i], config: config)
                }
                try inserter.finish()
            } else {
                for (i, change) in inserted.enumerated() {
                    guard case let .insertRow(id, config, _, _) = change else { continue }
                    try RowWriter.insert(id, config: config, parent: parent, key: String(decoding: keys[i], as: UTF8.self), db: db, docID: docID)
                }
            }
            return
        }
        // The gap is used up: each row after the previous one, re-keying as a single insert does
        // (which may re-key the row after the run: its key is read again each time).
        var previous = before
        for change in inserted {
            guard case let .insertRow(id, config, _, _) = change else { continue }
            let next = try afterID.map { try RowWriter.storedKey($0, db: db, docID: docID) }
            let key = try OrderKeySpace.key(between: previous, next, parent: parent ?? "", moving: nil, rows: SQLiteOrderKeyedRows(db: db, docID: docID))
            try RowWriter.insert(id, config: config, parent: parent, key: key, db: db, docID: docID)
            previous = key
        }
    }

    /// Removal runs of at least this many rows are deleted with foreign key enforcement off
    /// (`ForeignKeysOff`: one pass instead of a seek per row, ≈ 3 µs a row); turning it off and
    /// on again makes the connection's statements prepare again (≈ 0.1–0.2 ms), not worth it below.
    static let foreignKeysOffMinimum = 512

    private static let deleteRangeSQL = """
        DELETE FROM row WHERE document = ? AND parent = ? AND order_key BETWEEN ? AND ?
        """

    /// When the run's rows are every row of the table (a `clear` of the database's one
    /// document, its redo): the table holds `count` rows and the run's key range holds `count`
    /// rows, so they are the same rows, and a `DELETE` without WHERE — with foreign key
    /// enforcement off, SQLite then frees the table's and its indexes' pages instead of deleting
    /// row by row — removes exactly them. Returns false (nothing deleted) otherwise.
    private func truncateIfWhole(_ parent: String, _ low: String, _ high: String, _ db: Database, _ docID: Int64) throws -> Bool {
        guard try DeferredIDIndex.tableRows(upTo: count + 1, db) == count else { return false }
        let inRange = try Int.fetchOne(db, sql: Self.countRangeSQL, arguments: [docID, parent, low, high]) ?? 0
        guard inRange == count else { return false }
        try db.execute(sql: "DELETE FROM row")
        let deleted = db.changesCount
        guard deleted == count else {
            throw StoreError.internal("clearing the \(count) rows of the table deleted \(deleted)")
        }
        return true
    }

    private static let countRangeSQL = """
        SELECT count(*) FROM row WHERE document = ? AND parent = ? AND order_key BETWEEN ? AND ?
        """

    private func writeRemovals(db: Database, docID: Int64) throws {
        guard count >= Self.foreignKeysOffMinimum else { return try deleteRemovals(db: db, docID: docID) }
        // A long run: deleted in one pass, with foreign key enforcement off (deleting rows of
        // `row` cannot break a foreign key: nothing refers to `row`), and the many pages it frees
        // are not overwritten with zeros (`SecureDeleteFast`). Both settings are changed once for
        // the whole run, the truncation check included.
        try SecureDeleteFast.during(db) {
            try ForeignKeysOff.during(db) { try deleteRemovals(db: db, docID: docID) }
        }
    }

    private func deleteRemovals(db: Database, docID: Int64) throws {
        var lowKey = try RowWriter.storedKey(lowID, db: db, docID: docID)
        var highKey = try RowWriter.storedKey(highID, db: db, docID: docID)
        var parentText = parent ?? ""
        // (`firstRun` ≥ `foreignKeysOffMinimum`: a run that may truncate has enforcement off.)
        if count >= DeferredIDIndex.firstRun, try truncateIfWhole(parentText, lowKey, highKey, db, docID) {
            return
        }
        var idIndex = DeferredIDIndex()
        try idIndex.dropIfOutnumbered(by: count, deleting: true, db)
        try RowWriter.run(db, Self.deleteRangeSQL) { s in
            sqlite3_bind_int64(s, 1, docID)
            ColumnValue.bindText(&parentText, to: s, at: 2)
            ColumnValue.bindText(&lowKey, to: s, at: 3)
            ColumnValue.bindText(&highKey, to: s, at: 4)
        }
        let deleted = db.changesCount
        try idIndex.restore(db)
        guard deleted == count else {
            throw StoreError.internal("removing \(count) rows of stack '\(parent ?? "")' deleted \(deleted) stored rows")
        }
    }
}

/// An insert run keyed and encoded on another thread (`RowRunWriter.encode`) while the writing
/// thread inserts its batches (`writeEncoded`): the stored keys of its neighbours, the queue of
/// batches, and what the encoding found. `keyed` and `error` are written before `queue` is
/// finished and read after `take()` returned nil (the queue's lock orders them).
final class EncodedRun: @unchecked Sendable {
    let before: String?
    let after: String?
    /// 32 batches (8,192 rows, ≈ 4 MB): encoding is faster than the INSERTs, so a long queue
    /// lets it run ahead, and the writer seldom waits for the encoding thread to be scheduled.
    let queue = HandOverQueue<EncodedRows>(capacity: 32)
    /// False when the gap between the neighbours is too narrow for `OrderKey.keys`.
    var keyed = true
    /// Set before `encode` starts: also encode the rows for a snapshot image (the run fills an
    /// empty document and the write will likely end with a snapshot).
    var imageRows = false
    var error: (any Error)?

    init(before: String?, after: String?) {
        self.before = before
        self.after = after
    }
}
