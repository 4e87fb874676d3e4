import Foundation
import GRDB
import Layout
import StoreFormat

/// The rows an `import` log entry brought in (migration 0013): one `SnapshotImage` blob per
/// entry in `import_image`, written in the import's transaction. Imports stored before 0013
/// keep them in `row` under `import_seq` = the entry's seq; `load` reads either, so every reader
/// (replay, `importedDocument(at:)`, time travel) goes through it.
enum ImportImages {
    /// Stores `image` (the imported document's image, uid and seq of the entry) for entry `seq`.
    static func write(_ db: Database, documentID: Int64, seq: Int, image: [UInt8]) throws {
        try db.cachedStatement(sql: "INSERT INTO import_image (document, seq, image) VALUES (?, ?, ?)")
            .execute(arguments: [documentID, seq, Data(image)])
    }

    /// The document import entry `seq` brought in, with `settings` (the entry's, from the log).
    /// `cancellation` is asked while an older import's rows are read from `row`.
    /// - Throws: a corrupt-file `StoreError` when the image is damaged, of another document
    ///   or entry, or disagrees with the logged settings.
    static func load(_ db: Database, name: String, uid: String, settings: DocumentSettings, documentID: Int64,
                     seq: Int, path: String, cancellation: Cancellation = .never) throws -> Document {
        let statement = try db.cachedStatement(sql: "SELECT image FROM import_image WHERE document = ? AND seq = ?")
        guard let data = try Data.fetchOne(statement, arguments: [documentID, seq]) else {
            return try RowLoader.load(db, name: name, settings: settings, documentID: documentID, importSeq: seq, path: path,
                                      cancellation: cancellation)
        }
        return try data.withUnsafeBytes { bytes in
            try ImportImageCheck.document(bytes, name: name, uid: uid, seq: seq, settings: settings, path: path)
        }
    }
}

extension StoredDocument {
    /// The rows import entry `seq` of this document brought in (`ImportImages.load`).
    func importedRows(_ db: Database, seq: Int, settings: DocumentSettings) throws -> Document {
        try ImportImages.load(db, name: name, uid: uid, settings: settings, documentID: id, seq: seq, path: store.path,
                              cancellation: store.cancellation)
    }
}
