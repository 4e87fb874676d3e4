import Foundation
import GRDB
import Layout
import StoreFormat

/// The rows an `import` log entry brought in: one `SnapshotImage` blob per entry in
/// `import_image`, written in the import's transaction (migration 0020 made the images of
/// imports stored before schema 13). Every reader (replay, `importedDocument(at:)`, time
/// travel) goes through `load`.
enum ImportImages {
    /// Stores `image` (the imported document's image, uid and seq of the entry) for entry `seq`.
    static func write(_ db: Database, documentID: Int64, seq: Int, image: [UInt8]) throws {
        try db.cachedStatement(sql: "INSERT INTO import_image (document, seq, image) VALUES (?, ?, ?)")
            .execute(arguments: [documentID, seq, Data(image)])
    }

    /// The document import entry `seq` brought in, with `settings` (the entry's, from the log).
    /// - Throws: a corrupt-file `StoreError` when the image is missing, damaged, of another
    ///   document or entry, or disagrees with the logged settings.
    static func load(_ db: Database, name: String, uid: String, settings: DocumentSettings, documentID: Int64,
                     seq: Int, path: String) throws -> Document {
        let statement = try db.cachedStatement(sql: "SELECT image FROM import_image WHERE document = ? AND seq = ?")
        guard let data = try Data.fetchOne(statement, arguments: [documentID, seq]) else {
            return try ImportImageCheck.document(nil, name: name, uid: uid, seq: seq, settings: settings, path: path)
        }
        return try data.withUnsafeBytes { bytes in
            try ImportImageCheck.document(bytes, name: name, uid: uid, seq: seq, settings: settings, path: path)
        }
    }
}
