import Foundation
import Layout
import StackDocRuntime
import StoreFormat

/// The `snapshot` table (images `bytea`, read through the view `snapshot_image`, which resolves
/// an import's first snapshot to its import image). A snapshot is derived data: one that is
/// damaged, of another document or from the future is skipped, never trusted (as `Snapshots`).
extension PostgreSQLTransaction {
    func newestSnapshotSize(_ doc: DocumentKey) throws -> (seq: Int, bytes: Int)? {
        let rows = try query("SELECT seq, bytes FROM snapshot_image WHERE document = $1 ORDER BY seq DESC LIMIT 1", [.int(doc.id)])
        return rows.count == 0 ? nil : (seq: Int(rows.int(0, 0) ?? 0), bytes: Int(rows.int(0, 1) ?? 0))
    }

    func snapshots(_ doc: DocumentKey) throws -> [SnapshotInfo] {
        let rows = try query("SELECT version, seq, rows, bytes FROM snapshot_image WHERE document = $1 ORDER BY version DESC", [.int(doc.id)])
        return (0..<rows.count).map {
            SnapshotInfo(version: Int(rows.int($0, 0) ?? 0), seq: Int(rows.int($0, 1) ?? 0), rows: Int(rows.int($0, 2) ?? 0), bytes: Int(rows.int($0, 3) ?? 0))
        }
    }

    func snapshotBytes(_ doc: DocumentKey, seq: Int) throws -> Int? {
        try int("SELECT bytes FROM snapshot_image WHERE document = $1 AND seq = $2 LIMIT 1", [.int(doc.id), .int(Int64(seq))])
    }

    func snapshotVersion(_ doc: DocumentKey, seq: Int) throws -> Int? {
        try int("SELECT version FROM snapshot WHERE document = $1 AND seq = $2 ORDER BY version DESC LIMIT 1", [.int(doc.id), .int(Int64(seq))])
    }

    func readSnapshot<T>(_ doc: DocumentKey, name: String, version: Int, alongside: () -> T) throws -> (SnapshotInfo, Document, T) {
        let rows = try query("SELECT uid, seq, rows, image FROM snapshot_image WHERE document = $1 AND version = $2", [.int(doc.id), .int(Int64(version))])
        guard rows.count > 0 else { throw SnapshotImage.Damage(description: "no snapshot of version \(version)") }
        let rowUID = rows.string(0, 0) ?? "", seq = Int(rows.int(0, 1) ?? 0), count = Int(rows.int(0, 2) ?? 0)
        var extra: T?
        let decoded = try rows.withBytes(0, 3) { image -> (SnapshotImage.Header, Document) in
            let lent = LentImage(bytes: image)
            let decoding = BackgroundTask { Result { try SnapshotImage.decode(bytes: lent.bytes, name: name) } }
            extra = alongside()
            return try decoding.value.get()
        }
        guard let (header, document) = decoded else { throw SnapshotImage.Damage(description: "no image") }
        guard rowUID == doc.uid, header.uid == doc.uid else { throw SnapshotImage.Damage(description: "it is of another document (uid \(header.uid))") }
        guard header.version == version, header.seq == seq, header.rows == count, document.rowCount == count else {
            throw SnapshotImage.Damage(description: "its image is of version \(header.version), entry \(header.seq), \(header.rows) rows; its row says version \(version), entry \(seq), \(count) rows")
        }
        return (SnapshotInfo(version: version, seq: seq, rows: count, bytes: rows.withBytes(0, 3) { $0.count } ?? 0), document, extra!)
    }

    func newestSnapshot<T>(_ doc: DocumentKey, name: String, atOrBeforeVersion version: Int, seq: Int,
                           alongside: ((SnapshotInfo) -> T)?) throws -> (found: (SnapshotInfo, Document, T?)?, skipped: [String]) {
        var skipped: [String] = []
        for info in try snapshots(doc) where info.version <= version {
            guard info.seq <= seq else {
                skipped.append("snapshot of version \(info.version): it includes log entry \(info.seq), past \(seq)")
                continue
            }
            do {
                let (found, document, extra) = try readSnapshot(doc, name: name, version: info.version) { alongside?(info) }
                return ((found, document, extra), skipped)
            } catch let damage as SnapshotImage.Damage {
                skipped.append("snapshot of version \(info.version): \(damage)")
            }
        }
        return (nil, skipped)
    }

    func tailChanges(_ doc: DocumentKey, after seq: Int, through last: Int) throws -> (entries: Int, changes: [[Change]]) {
        let rows = try query("SELECT seq, kind, payload, forward, format FROM log WHERE document = $1 AND seq > $2 AND seq <= $3 ORDER BY seq",
                             [.int(doc.id), .int(Int64(seq)), .int(Int64(last))])
        var result: [[Change]] = []
        let decoded = HistoryMoveLog.Decoded()
        for r in 0..<rows.count {
            let entrySeq = Int(rows.int(r, 0) ?? 0)
            guard entrySeq == seq + 1 + r else { throw SnapshotImage.Damage(description: "log entry \(seq + 1 + r) is missing") }
            let kind = rows.string(r, 1) ?? ""
            switch LogEntry.Kind(rawValue: kind) {
            case .op?, .view?, .undo?, .redo?, .restore?:
                result.append(try applied(rows, r, doc, decoded: decoded))
            case .commit?:
                // A group's commit changes nothing, one that rolls it back its compensation.
                let changes = try applied(rows, r, doc, decoded: decoded)
                if !changes.isEmpty { result.append(changes) }
            case .begin?, .mark?:
                break
            default:
                throw SnapshotImage.Damage(description: "log entry \(entrySeq) (\(kind)) cannot follow a snapshot")
            }
        }
        guard seq + rows.count == last else { throw SnapshotImage.Damage(description: "log entry \(seq + rows.count + 1) is missing") }
        return (rows.count, result)
    }

    func writeSnapshot(_ doc: DocumentKey, version: Int, seq: Int, document: Document, keep: Int,
                       rows: SnapshotImage.Encoder?) throws -> SnapshotInfo {
        let image = (rows ?? SnapshotImage.encodeRows(document)).image(uid: doc.uid, version: version, seq: seq, settings: document.settings)
        try insertSnapshot(doc, version: version, seq: seq, rows: document.rowCount, image: image, keep: keep)
        return SnapshotInfo(version: version, seq: seq, rows: document.rowCount, bytes: image.count)
    }

    /// Stores a snapshot row (`image` nil: the import image of entry `seq`) and drops all but
    /// the newest `keep` (never the base of a compacted history).
    func insertSnapshot(_ doc: DocumentKey, version: Int, seq: Int, rows: Int, image: [UInt8]?, keep: Int) throws {
        let id = PostgreSQLValue.int(doc.id)
        try later("""
            INSERT INTO snapshot (document, version, uid, seq, rows, image, time) VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (document, version) DO UPDATE SET uid = excluded.uid, seq = excluded.seq, rows = excluded.rows,
                image = excluded.image, time = excluded.time
            """, [id, .int(Int64(version)), .text(doc.uid), .int(Int64(seq)), .int(Int64(rows)), image.map { .bytes($0) },
                  .double(Date.now.timeIntervalSince1970)])
        try later("""
            DELETE FROM snapshot WHERE document = $1 AND version NOT IN
                (SELECT version FROM snapshot WHERE document = $1 ORDER BY version DESC LIMIT $2)
                AND seq <> (SELECT history_base FROM document WHERE id = $1)
            """, [id, .int(Int64(max(keep, 1)))])
    }

    func deleteSnapshot(_ doc: DocumentKey, version: Int) throws {
        try later("DELETE FROM snapshot WHERE document = $1 AND version = $2", [.int(doc.id), .int(Int64(version))])
    }

    func deleteSnapshots(_ doc: DocumentKey, before seq: Int) throws -> Int {
        try query("DELETE FROM snapshot WHERE document = $1 AND seq < $2", [.int(doc.id), .int(Int64(seq))]).affected
    }
}

/// Bytes libpq holds for a result, lent to the thread that decodes them while the result lives.
private struct LentImage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
}
