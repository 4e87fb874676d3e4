import Layout
import StoreFormat

/// The one check of an import entry's image (the rows it brought in), for every backend.
enum ImportImageCheck {
    /// The document in `image` (nil: the entry has no image), checked: it decodes, is of
    /// document `uid` and entry `seq`, and has the logged `settings`.
    /// - Throws: a corrupt-file `StoreError` naming the document and entry when it is not.
    static func document(_ image: UnsafeRawBufferPointer?, name: String, uid: String, seq: Int, settings: DocumentSettings,
                         path: String) throws -> Document {
        let problem: String
        if let image {
            do {
                let (header, document) = try SnapshotImage.decode(bytes: image, name: name)
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
        } else {
            problem = "its image is missing"
        }
        throw StoreError.corrupt(path, "document \(Validation.quoted(name)): the rows of import entry \(seq) cannot be read: \(problem)")
    }
}
