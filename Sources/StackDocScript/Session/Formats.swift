import Layout

/// The saved document format (SPEC §5), from the model's JSON code.
enum DocumentFormat {
    /// A document read from `stackdoc/1` text; errors name the file and the bad value's path.
    static func decode(_ text: String, path: String, name: String? = nil) throws -> Document {
        do {
            return try Document(json: text, name: name)
        } catch let error as StackDocError {
            throw CommandError(.inFile(path: path, error.kind))
        }
    }

    /// `decode`, handing the rows to `rows` while it reads (`Document.read(jsonBytes:name:rows:)`).
    static func decode(_ bytes: [UInt8], path: String, name: String? = nil, rows: ([ImportedRow]) -> Bool) throws
        -> (document: Document, rowsHandedOver: Bool) {
        do {
            return try Document.read(jsonBytes: bytes, name: name, rows: rows)
        } catch let error as StackDocError {
            throw CommandError(.inFile(path: path, error.kind))
        }
    }

    /// Pretty `stackdoc/1` text without the final newline.
    static func encode(_ document: Document) -> String {
        var text = document.exportJSON(pretty: true)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// One-line `stackdoc/1` text (the JSON result of `export`).
    static func compact(_ document: Document) -> String {
        var text = document.exportJSON(pretty: false)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

