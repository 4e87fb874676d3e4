import Layout

/// The saved document format (SPEC §5), from the model's JSON code.
enum DocumentFormat {
    /// A document read from `stackdoc/1` text; errors name the file and the bad value's path.
    static func decode(_ text: String, path: String) throws -> Document {
        do {
            return try Document(json: text)
        } catch let error as StackDocError {
            throw StackDocError("'\(path)': \(error.message)")
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

/// The `layout` output (SPEC §4.2): the JSON result and the text table.
enum LayoutFormat {
    static func json(_ layout: DocumentLayout) -> String {
        JSON.object([
            ("document", .string(layout.document)), ("axis", .string(layout.axis.rawValue)),
            ("viewport", .size(layout.viewport)), ("offset", .number(layout.offset)),
            ("contentSize", .size(layout.contentSize)),
            ("rows", .array(layout.rows.map { r in
                .object([("id", .string(r.id)), ("parent", .optional(r.parent)), ("index", .number(Double(r.index))),
                         ("hidden", .bool(r.hidden)), ("frame", .rect(r.frame)), ("content", .rect(r.content)),
                         ("separator", .rect(r.separator)), ("visibility", .string(r.visibility.rawValue)),
                         ("percent", .number(r.percent))])
            })),
        ]).rendered
    }

    static func table(_ layout: DocumentLayout) -> String {
        var table = TextTable(["#", "id", "type", "frame", "visibility"], rightAligned: [0])
        for (i, r) in layout.rows.enumerated() {
            table.add(["\(i)", Printer.id(r.id), Printer.id(r.type), Session.rect(r.frame),
                       r.visibility == .partial ? "partial \(Session.percent(r.percent))%" : r.visibility.rawValue])
        }
        return table.rendered + "\ncontent \(ChangeReport.size(layout.contentSize)), offset \(NumberFormat.string(layout.offset))"
    }
}
