import Foundation
import Layout
import StackDocRuntime
import StoreFormat

/// The PostgreSQL backend's import (`StoreBackend.importDocument`): the document is read and
/// checked first (`PreparedImport`: the one validator, the image), then written in ONE
/// transaction: its record, its rows through `COPY … FROM STDIN` (binary), the `import` entry,
/// its image and first snapshot. Nothing is stored when anything fails.
extension PostgreSQLBackend {
    func importDocument(uid: String, cancellation: Cancellation,
                        reading: @escaping @Sendable (_ rows: @escaping @Sendable ([ImportedRow]) -> Bool) throws
                            -> (document: Document, rowsHandedOver: Bool)) throws -> (id: Int64, document: Document, live: LiveLayout?) {
        // The rows handed over are in the document the reading returns: it is written from there.
        let (read, _) = try reading { _ in true }
        let prepared = try PreparedImport(read, uid: uid, rowsHandedOver: false)
        let document = prepared.document
        let layout = BackgroundTask { prepared.live ?? LiveLayout(prepared.document) }
        let id = try write { tx in
            let tx = tx as! PostgreSQLTransaction
            let id = try tx.insertDocument(name: document.name, settings: document.settings, uid: uid)
            try tx.flush()
            try tx.connection.copyIn("COPY row (document, id, parent, order_key, size, fields) FROM STDIN (FORMAT binary)",
                                     try RowCopy.chunks(document, documentID: id, cancellation: cancellation))
            let key = DocumentKey(id: id, uid: uid, name: document.name)
            try tx.appendLog(key, NewLogEntry(seq: 1, kind: .importDocument, payload: try LogFormat.encode(document.settings), forward: nil))
            try tx.later("INSERT INTO import_image (document, seq, image) VALUES ($1, 1, $2)", [.int(id), .bytes(prepared.image)])
            if options.snapshots.keep > 0 {
                try tx.insertSnapshot(key, version: 1, seq: 1, rows: document.rowCount, image: nil, keep: options.snapshots.keep)
            }
            return id
        }
        return (id, document, layout.value)
    }
}

/// A document's rows in `COPY … (FORMAT binary)` form, columns (document, id, parent, order_key,
/// size, fields), with evenly spaced order keys per stack (`StackKeys`).
enum RowCopy {
    /// Bytes per chunk handed to libpq.
    static let chunkBytes = 1 << 20

    static func chunks(_ document: Document, documentID: Int64, cancellation: Cancellation) throws -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var out: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00]
        out.reserveCapacity(chunkBytes + 4096)
        append(Int32(0), to: &out)  // flags
        append(Int32(0), to: &out)  // header extension
        var keys = StackKeys()
        var untilCheck = Cancellation.interval
        try document.forEachRow { id, parent, _, config in
            untilCheck -= 1
            if untilCheck == 0 {
                try cancellation.check()
                untilCheck = Cancellation.interval
            }
            append(Int16(6), to: &out)
            append(Int32(8), to: &out)
            append(documentID, to: &out)
            field(Array(id.utf8), to: &out)
            field(Array((parent ?? "").utf8), to: &out)
            field(keys.key(in: parent), to: &out)
            if case .fixed(let n) = config.size {
                append(Int32(8), to: &out)
                append(Int64(bitPattern: n.bitPattern), to: &out)
            } else {
                append(Int32(-1), to: &out)
            }
            if let fields = RowFields.encode(config) { field(fields, to: &out) } else { append(Int32(-1), to: &out) }
            if out.count >= chunkBytes {
                chunks.append(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        append(Int16(-1), to: &out)
        chunks.append(out)
        return chunks
    }

    private static func field(_ bytes: [UInt8], to out: inout [UInt8]) {
        append(Int32(bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }

    private static func append<I: FixedWidthInteger>(_ value: I, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { out.append(contentsOf: $0) }
    }
}
