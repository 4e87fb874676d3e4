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
        let problem: String
        do {
            guard let data = try Data.fetchOne(statement, arguments: [documentID, seq]) else { throw SnapshotImage.Damage(description: "they are missing") }
            let (header, document) = try SnapshotImage.decode([UInt8](data), name: name)
            if header.uid != uid || header.seq != seq {
                problem = "it is of document \(header.uid), entry \(header.seq)"
            } else if document.settings != settings {
                problem = "its settings are not the logged ones"
            } else {
                return document
            }
        } catch {
            problem = "\(error)"
        }
        throw StoreError.corrupt(path, "document \(Validation.quoted(name)): the rows of import entry \(seq) cannot be read: \(problem)")
    }
}
