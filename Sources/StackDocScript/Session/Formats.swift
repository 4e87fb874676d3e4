import Layout

/// The saved document format (SPEC §5), from the model's JSON code.
enum DocumentFormat {
    /// A document read from `stackdoc/1` text; errors name the file and the bad value's path.
    static func decode(_ text: String, path: String, name: String? = nil) throws -> Document {
        do {
            return try Document(json: text, name: name)
        } catch let error as StackDocError {
            throw StackDocError(.inFile(path: path, error.kind))
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

