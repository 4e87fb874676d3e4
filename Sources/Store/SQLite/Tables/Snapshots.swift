import Foundation
import GRDB
import GRDBSQLite
import Layout
import StackDocRuntime
import StoreFormat

/// One stored snapshot, without its image.
public struct SnapshotInfo: Hashable, Sendable {
    /// The document's version the image is of.
    public var version: Int
    /// The last log entry the image includes: the image is the document right after entry `seq`.
    public var seq: Int
    /// Rows in the image.
    public var rows: Int
    /// Size of the image in bytes.
    public var bytes: Int

    /// A snapshot's facts as they are stored.
    public init(version: Int, seq: Int, rows: Int, bytes: Int) {
        self.version = version
        self.seq = seq
        self.rows = rows
        self.bytes = bytes
    }
}

/// When the store writes snapshots and which it keeps (docs/store.md "Snapshots": the costs).
///
/// Snapshots are spaced `spacing(imageBytes:)` log entries apart — `interval` entries, or more
/// for a large document, so that they never cost more than `bytesPerEntry` bytes per log entry —
/// and every one is kept (up to `keep`), so that any point of the history lies within half a
/// spacing of a snapshot: time travel, `diff` and `restore` replay at most that many entries
/// (forward from the snapshot before the point or backward from the one after it). A write
/// also snapshots when the changes (rows touched) since the newest snapshot reach
/// `changeSpacing(rows:)`, so that a few big entries (a `clear` of 100k rows and its undo) are
/// not replayed by every open.
public struct SnapshotPolicy: Sendable, Equatable {
    /// K: a snapshot is written by the first write (outside a `begin … commit` group) after
    /// which the log holds at least `spacing(imageBytes:)` ≥ `interval` entries past the newest
    /// snapshot; an import writes one at once. Opening then applies at most that many entries
    /// after reading the image.
    public var interval: Int
    /// The space budget: a document whose image is larger than `interval · bytesPerEntry`
    /// bytes is snapshotted every `imageBytes / bytesPerEntry` entries instead, so the
    /// snapshots of a document never take more than `bytesPerEntry` bytes per log entry (plus
    /// one image).
    public var bytesPerEntry: Int
    /// The newest `keep` snapshots of a document are kept; older ones are deleted when a new
    /// one is written (0: none is written). Default: all of them (the base of a compacted
    /// history is never deleted).
    public var keep: Int
    /// The change bound: a write (outside a group) after which the changes applied since the
    /// newest snapshot number at least `changeSpacing(rows:)` = `max(changes, rows / 4)` for a
    /// document of `rows` rows also writes one, so opening never applies more than that many
    /// changes after the image, and the image a write adds costs at most 4 rows of image per
    /// change it made.
    public var changes: Int

    /// Every 1,000 log entries (more for documents whose image passes 2 MB: 2 KiB of image per
    /// log entry at most), all kept.
    /// - Parameters:
    ///   - interval: K, the fewest log entries between two snapshots.
    ///   - keep: How many snapshots are kept, newest first.
    ///   - bytesPerEntry: The most image bytes per log entry the snapshots may take.
    ///   - changes: The fewest changes (rows touched) that make a snapshot by themselves.
    public init(interval: Int = 1000, keep: Int = .max, bytesPerEntry: Int = 2048, changes: Int = 10_000) {
        self.interval = max(1, interval)
        self.keep = max(0, keep)
        self.bytesPerEntry = max(1, bytesPerEntry)
        self.changes = max(1, changes)
    }

    /// The log entries between two snapshots of a document whose newest image has
    /// `imageBytes` bytes: `max(interval, imageBytes / bytesPerEntry)`.
    public func spacing(imageBytes: Int) -> Int {
        max(interval, imageBytes / bytesPerEntry)
    }

    /// The changes since the newest snapshot after which a write of a document of `rows` rows
    /// writes a new one: `max(changes, rows / 4)`.
    public func changeSpacing(rows: Int) -> Int {
        max(changes, rows / 4)
    }

    /// True when a write that leaves the log `entries` entries and `changes` changes past the
    /// newest snapshot (of `imageBytes` bytes), on a document of `rows` rows, writes a snapshot
    /// (never when `keep` is 0).
    public func isDue(entries: Int, changes: Int, imageBytes: Int, rows: Int) -> Bool {
        keep > 0 && (entries >= spacing(imageBytes: imageBytes) || changes >= changeSpacing(rows: rows))
    }

    /// No snapshot is ever written (the rows are read at every open).
    public static let off = SnapshotPolicy(interval: Int.max, keep: 0, changes: Int.max)
}

/// Where an open handle's rows came from (`StoredDocument.loadSource`).
public enum LoadSource: Equatable, Sendable {
    /// The `row` table; `reason` says why no snapshot was used (nil: there was none).
    case rows(reason: String?)
    /// The snapshot of `version` (after log entry `seq`), then `tail` log entries applied.
    case snapshot(version: Int, seq: Int, tail: Int)
}

/// The `snapshot` table (migration 0009): the one place that writes, finds, checks and reads
/// snapshots. A snapshot is derived data — the rows and the log stay the truth — so a snapshot
/// that is missing, damaged (checksum), of another document (uid) or from the future (version
/// or seq past the document's) is skipped, never trusted.
///
/// An import's first snapshot is its import image (migration 0014): its row holds an empty
/// image, which means "the `import_image` of the same document and entry" (the same bytes,
/// stored once). The view `snapshot_image` resolves that rule; every read of an image or its
/// size goes through the view, so readers never see the difference.
enum Snapshots {
    /// Writes the image of `document` (the state after log entry `seq`, at `version`) and drops
    /// all but the newest `keep` snapshots (never the base of a compacted history). Must run inside the write transaction that checked
    /// the handle is current, and never while a group is open (rollback deletes log entries, so
    /// a state inside a group may never exist in the log's history).
    @discardableResult
    /// `rows`: the document's rows encoded already (`SnapshotImage.encodeRows`), if they were.
    static func write(_ db: Database, documentID: Int64, uid: String, version: Int, seq: Int, document: Document,
                      keep: Int, rows: SnapshotImage.Encoder? = nil) throws -> SnapshotInfo {
        let image = (rows ?? SnapshotImage.encodeRows(document)).image(uid: uid, version: version, seq: seq, settings: document.settings)
        try insert(db, documentID: documentID, uid: uid, version: version, seq: seq, rows: document.rowCount, image: Data(image), keep: keep)
        return SnapshotInfo(version: version, seq: seq, rows: document.rowCount, bytes: image.count)
    }

    /// Writes an import's first snapshot (the document right after import entry `seq`, at
    /// `version`, `rows` rows) as a reference to the entry's import image, which the same
    /// transaction wrote (`ImportImages.write`): the image is stored once (migration 0014).
    static func writeImportReference(_ db: Database, documentID: Int64, uid: String, version: Int, seq: Int, rows: Int,
                                     keep: Int) throws {
        try insert(db, documentID: documentID, uid: uid, version: version, seq: seq, rows: rows, image: Data(), keep: keep)
    }

    /// Deletes the import images of the entries up to `seq` (a compaction dropped them), except
    /// one a kept snapshot refers to (the base of a history compacted right after its import).
    static func dropImportImages(_ db: Database, documentID: Int64, through seq: Int) throws {
        try db.execute(sql: """
            DELETE FROM import_image WHERE document = ? AND seq <= ? AND NOT EXISTS
                (SELECT 1 FROM snapshot s WHERE s.document = import_image.document AND s.seq = import_image.seq AND length(s.image) = 0)
            """, arguments: [documentID, seq])
    }

    /// Stores a snapshot row (`image` empty: the import image of entry `seq`) and drops all but
    /// the newest `keep` (never the base of a compacted history).
    private static func insert(_ db: Database, documentID: Int64, uid: String, version: Int, seq: Int, rows: Int, image: Data,
                               keep: Int) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO snapshot (document, version, uid, seq, rows, image, time) VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [documentID, version, uid, seq, rows, image, Date.now.timeIntervalSince1970])
        try db.cachedStatement(sql: """
            DELETE FROM snapshot WHERE document = ? AND version NOT IN
                (SELECT version FROM snapshot WHERE +document = ? ORDER BY version DESC LIMIT ?)
                AND seq <> (SELECT history_base FROM document WHERE id = ?)
            """).execute(arguments: [documentID, documentID, max(keep, 1), documentID])
    }

    /// The document's snapshots, newest first (images not read).
    ///
    /// The reads of this table scan it (`+document`, `+version`: no key search) on purpose.
    /// `snapshot` is a WITHOUT ROWID table, and SQLite compares a search key with a row of
    /// such a table by reading the whole row, image included, when it spills onto overflow
    /// pages: a search by `(document, version)` read ≈ 4 images (72 MB at 1M rows) and this
    /// list every image of the document (268 MB for 12) — ≈ a third of a past state's time.
    /// A scan reads only what each row keeps on its page (the key, seq, rows and the image's
    /// length); a document has at most a few dozen snapshots.
    static func list(_ db: Database, documentID: Int64) throws -> [SnapshotInfo] {
        try GRDB.Row.fetchAll(db, sql: """
            SELECT version, seq, rows, bytes FROM snapshot_image WHERE +document = ? ORDER BY version DESC
            """, arguments: [documentID]).map {
            SnapshotInfo(version: try $0.decode(forColumn: "version"), seq: try $0.decode(forColumn: "seq"),
                         rows: try $0.decode(forColumn: "rows"), bytes: try $0.decode(forColumn: "bytes"))
        }
    }

    /// Reads and checks the snapshot of `version`: its image decodes (checksum, format, values)
    /// and says what its row says (uid, version, seq, rows), and the uid is the document's. The
    /// image is decoded where SQLite holds it.
    static func read(_ db: Database, documentID: Int64, uid: String, name: String, version: Int) throws -> (SnapshotInfo, Document) {
        try withImage(db, documentID: documentID, uid: uid, version: version) { image, _ in
            try SnapshotImage.decode(bytes: image, name: name)
        }
    }

    /// `read`, with `alongside` run on this thread (it may use the database: the log entries
    /// to apply to the image) while the image is decoded on a second one, where SQLite holds it:
    /// the statement that read it is neither stepped nor reset until the decoding is over (other
    /// statements of the connection leave its value alone), so the image is not copied.
    static func read<T>(_ db: Database, documentID: Int64, uid: String, name: String, version: Int,
                        alongside: () -> T) throws -> (SnapshotInfo, Document, T) {
        var extra: T?
        let (info, document) = try withImage(db, documentID: documentID, uid: uid, version: version) { image, _ in
            let lent = LentBytes(bytes: image)
            let decoding = BackgroundTask { Result { try SnapshotImage.decode(bytes: lent.bytes, name: name) } }
            extra = alongside()
            return try decoding.value.get()
        }
        return (info, document, extra!)
    }

    /// Bytes SQLite holds for a statement, lent to the thread that decodes them while the
    /// statement waits (`read(alongside:)`).
    private struct LentBytes: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
    }

    /// The snapshot of `version` decoded by `decode` (given the image where SQLite holds it,
    /// valid until the statement is reset), checked against its row.
    private static func withImage(_ db: Database, documentID: Int64, uid: String, version: Int,
                                  decode: (UnsafeRawBufferPointer, SQLiteStatement) throws -> (header: SnapshotImage.Header, document: Document)) throws -> (SnapshotInfo, Document) {
        // Stepped through the C API so that the image is not copied into a `Data` and an array.
        // A scan, not a key search, which would read the images it compares with (`list`).
        let statement = try db.cachedStatement(sql: "SELECT uid, seq, rows, image FROM snapshot_image WHERE +document = ? AND +version = ?")
        try statement.setArguments([documentID, version])
        let s = statement.sqliteStatement
        defer { sqlite3_reset(s) }
        switch sqlite3_step(s) {
        case SQLITE_ROW: break
        case SQLITE_DONE: throw SnapshotImage.Damage(description: "no snapshot of version \(version)")
        case let rc: throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
        let rowUID = ColumnCoding.string(s, 0) ?? "", seq = Int(sqlite3_column_int64(s, 1)), rows = Int(sqlite3_column_int64(s, 2))
        let bytes = Int(sqlite3_column_bytes(s, 3))
        guard sqlite3_column_type(s, 3) == SQLITE_BLOB, let blob = sqlite3_column_blob(s, 3) else { throw SnapshotImage.Damage(description: "no image") }
        let (header, document) = try decode(UnsafeRawBufferPointer(start: blob, count: bytes), s)
        guard rowUID == uid, header.uid == uid else {
            throw SnapshotImage.Damage(description: "it is of another document (uid \(header.uid))")
        }
        guard header.version == version, header.seq == seq, header.rows == rows, document.rowCount == rows else {
            throw SnapshotImage.Damage(description: "its image is of version \(header.version), entry \(header.seq), \(header.rows) rows; its row says version \(version), entry \(seq), \(rows) rows")
        }
        return (SnapshotInfo(version: version, seq: seq, rows: rows, bytes: bytes), document)
    }

    /// The newest snapshot that checks out among those at or before `version` and `seq` (both
    /// bounds apply; the stored document's own version and last entry exclude snapshots from
    /// the future), with the reasons the newer ones were skipped.
    static func newest(_ db: Database, documentID: Int64, uid: String, name: String, atOrBeforeVersion version: Int,
                       seq: Int) throws -> (found: (SnapshotInfo, Document)?, skipped: [String]) {
        let (found, skipped) = try newest(db, documentID: documentID, uid: uid, name: name, atOrBeforeVersion: version, seq: seq,
                                          alongside: nil as ((SnapshotInfo) -> Void)?)
        return (found.map { ($0.0, $0.1) }, skipped)
    }

    /// `newest`, with `alongside` (when given) run for the snapshot being read while its image
    /// is decoded (`read(alongside:)`: the log entries after it, read meanwhile).
    static func newest<T>(_ db: Database, documentID: Int64, uid: String, name: String, atOrBeforeVersion version: Int,
                          seq: Int, alongside: ((SnapshotInfo) -> T)?) throws -> (found: (SnapshotInfo, Document, T?)?, skipped: [String]) {
        var skipped: [String] = []
        for info in try list(db, documentID: documentID) where info.version <= version {
            guard info.seq <= seq else {
                skipped.append("snapshot of version \(info.version): it includes log entry \(info.seq), past \(seq)")
                continue
            }
            do {
                if let alongside {
                    return (try read(db, documentID: documentID, uid: uid, name: name, version: info.version, alongside: { alongside(info) }), skipped)
                }
                let (info, document) = try read(db, documentID: documentID, uid: uid, name: name, version: info.version)
                return ((info, document, nil), skipped)
            } catch let damage as SnapshotImage.Damage {
                skipped.append("snapshot of version \(info.version): \(damage)")
            }
        }
        return (nil, skipped)
    }

    /// The changes of the log entries after `seq` up to `last`, oldest first (what each `op`,
    /// `view`, `undo`, `redo` and `restore` entry and a `commit` that rolls its group back
    /// applied, as logged; `HistoryMoveLog.applied`; a `mark` changes nothing), and how many entries were read. Every entry must be there,
    /// and none may start a document (`new`, `import`: it cannot follow a snapshot).
    static func tailChanges(_ db: Database, documentID: Int64, after seq: Int, through last: Int) throws -> (entries: Int, changes: [[Change]]) {
        let rows = try GRDB.Row.fetchCursor(db, sql: """
            SELECT seq, kind, payload, forward, format FROM log WHERE document = ? AND seq > ? AND seq <= ? ORDER BY seq
            """, arguments: [documentID, seq, last])
        var count = 0
        var result: [[Change]] = []
        var expected = seq + 1
        let decoded = HistoryMoveLog.Decoded()
        while let row = try rows.next() {
            let entrySeq: Int = try row.decode(forColumn: "seq")
            guard entrySeq == expected else { throw SnapshotImage.Damage(description: "log entry \(expected) is missing") }
            expected += 1
            count += 1
            let kind: String = try row.decode(forColumn: "kind")
            switch LogEntry.Kind(rawValue: kind) {
            case .op?, .view?, .undo?, .redo?, .restore?:
                result.append(try HistoryMoveLog.applied(db, documentID: documentID, row: row, decoded: decoded))
            case .commit?:
                // A group's commit changes nothing, one that rolls it back its compensation.
                let changes = try HistoryMoveLog.applied(db, documentID: documentID, row: row, decoded: decoded)
                if !changes.isEmpty { result.append(changes) }
            case .begin?, .mark?:
                break
            default:
                throw SnapshotImage.Damage(description: "log entry \(entrySeq) (\(kind)) cannot follow a snapshot")
            }
        }
        guard expected == last + 1 else { throw SnapshotImage.Damage(description: "log entry \(expected) is missing") }
        return (count, result)
    }
}
