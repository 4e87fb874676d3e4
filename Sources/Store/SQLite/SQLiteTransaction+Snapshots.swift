import Foundation
import GRDB
import Layout

/// The `snapshot` table (`Snapshots`) in the store's vocabulary.
extension SQLiteTransaction {
    func newestSnapshotSize(_ doc: DocumentKey) throws -> (seq: Int, bytes: Int)? {
        // A scan, not a key search, which would read every image it compares with (`Snapshots.list`).
        try GRDB.Row.fetchOne(db, sql: "SELECT seq, bytes FROM snapshot_image WHERE +document = ? ORDER BY seq DESC LIMIT 1", arguments: [doc.id])
            .map { (seq: try $0.decode(forColumn: "seq"), bytes: try $0.decode(forColumn: "bytes")) }
    }

    func snapshots(_ doc: DocumentKey) throws -> [SnapshotInfo] {
        try Snapshots.list(db, documentID: doc.id)
    }

    func snapshotBytes(_ doc: DocumentKey, seq: Int) throws -> Int? {
        try Int.fetchOne(db, sql: "SELECT bytes FROM snapshot_image WHERE +document = ? AND +seq = ?", arguments: [doc.id, seq])
    }

    func snapshotVersion(_ doc: DocumentKey, seq: Int) throws -> Int? {
        try Int.fetchOne(db, sql: "SELECT version FROM snapshot WHERE document = ? AND seq = ? ORDER BY version DESC LIMIT 1", arguments: [doc.id, seq])
    }

    func readSnapshot<T>(_ doc: DocumentKey, name: String, version: Int, alongside: () -> T) throws -> (SnapshotInfo, Document, T) {
        try Snapshots.read(db, documentID: doc.id, uid: doc.uid, name: name, version: version, alongside: alongside)
    }

    func newestSnapshot<T>(_ doc: DocumentKey, name: String, atOrBeforeVersion version: Int, seq: Int,
                           alongside: ((SnapshotInfo) -> T)?) throws -> (found: (SnapshotInfo, Document, T?)?, skipped: [String]) {
        try Snapshots.newest(db, documentID: doc.id, uid: doc.uid, name: name, atOrBeforeVersion: version, seq: seq, alongside: alongside)
    }

    func writeSnapshot(_ doc: DocumentKey, version: Int, seq: Int, document: Document, keep: Int,
                       rows: SnapshotImage.Encoder?) throws -> SnapshotInfo {
        try Snapshots.write(db, documentID: doc.id, uid: doc.uid, version: version, seq: seq, document: document, keep: keep, rows: rows)
    }

    func deleteSnapshot(_ doc: DocumentKey, version: Int) throws {
        try db.execute(sql: "DELETE FROM snapshot WHERE document = ? AND version = ?", arguments: [doc.id, version])
    }

    func deleteSnapshots(_ doc: DocumentKey, before seq: Int) throws -> Int {
        try db.execute(sql: "DELETE FROM snapshot WHERE document = ? AND seq < ?", arguments: [doc.id, seq])
        return db.changesCount
    }
}
