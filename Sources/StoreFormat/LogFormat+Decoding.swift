import Layout

/// Reading format 1 (see `LogFormat`): every key spelled out, every mismatch a
/// `LogFormatError` with the path to the bad value.
extension LogFormat {
    /// Decodes a stored payload of `format` from `column`. A failure is one `StackDocError`
    /// saying where in the payload and what is wrong (`payload.add: missing 'ids'`); the store
    /// adds the document and the log entry (`StoredDocument.decodingLogEntry`).
    package static func decode<T>(_ text: String?, format: Int, column: String, _ read: (LogReader) throws -> T) throws -> T {
        do {
            guard let text else { throw LogFormatError("\(column) is missing") }
            guard format <= version, format >= 1 else {
                throw LogFormatError("format \(format) is not one this StackDoc reads (1...\(version)); use a newer stackdoc")
            }
            let value: LogValue
            do { value = try LogValue.parse(text) } catch let error as LogFormatError { throw LogFormatError("\(column): \(error)") }
            return try read(LogReader(value, path: column))
        } catch let error as LogFormatError {
            throw StackDocError(error.description)
        }
    }

    /// The `Edit` of an `op`/`view` entry's payload.
    package static func decodeEdit(_ text: String?, format: Int) throws -> Edit {
        try decode(text, format: format, column: "payload", edit)
    }

    /// The `[Change]` of JSON text, as entries of formats 1 and 2 held their `forward` and
    /// `inverse` columns (read only by migration 0020, which converts them). Read directly when the text is in the writers' form (`ChangeReader`), else (and for
    /// every error) by the generic reader.
    package static func decodeChanges(_ text: String?, format: Int, column: String) throws -> [Change] {
        if let text, format <= version, format >= 1, let changes = ChangeReader.decode(text, column: column) { return changes }
        return try decode(text, format: format, column: column, changes)
    }

    /// The `DocumentSettings` of a `new`/`import` entry's payload.
    package static func decodeSettings(_ text: String?, format: Int) throws -> DocumentSettings {
        try decode(text, format: format, column: "payload", settings)
    }

    package static func edit(_ r: LogReader) throws -> Edit {
        let (name, f) = try r.enumCase()
        switch name {
        case "add":
            return .add(ids: try f["ids"].ids(), spec: try f["spec"].array().map(rowSpec),
                        position: try f.optional("position").map(position), parent: try f.optional("parent")?.string())
        case "remove": return .remove(ids: try f["ids"].ids())
        case "clear": return .clear(parent: try f.optional("parent")?.string())
        case "replace": return .replace(id: try f["id"].string(), newID: try f["newID"].string(), spec: try f["spec"].array().map(rowSpec))
        case "move": return .move(id: try f["id"].string(), position: try position(f["position"]), parent: try f.optional("parent")?.string())
        case "hide": return .hide(ids: try f["ids"].ids())
        case "show": return .show(ids: try f["ids"].ids())
        case "set": return .set(id: try f["id"].string(), spec: try f["spec"].array().map(rowSpec))
        case "setRows": return .setRows(ids: try f["ids"].ids(), spec: try f["spec"].array().map(rowSpec))
        case "setStack": return .setStack(try stackSetting(f["_0"]))
        case "defaults": return .defaults(try defaultsSpec(f["_0"]))
        case "scroll": return .scroll(try scroll(f["_0"]))
        case "viewport": return .viewport(try size(f["_0"]))
        case "obscured": return .obscured(try obscured(f["_0"]))
        default: throw r.unknown("edit", name)
        }
    }

    package static func changes(_ r: LogReader) throws -> [Change] { try r.array().map(change) }

    package static func change(_ r: LogReader) throws -> Change {
        let (name, f) = try r.enumCase()
        switch name {
        case "insertRow", "removeRow":
            let (id, config, parent, index) = (try f["id"].string(), try rowConfig(f["config"]), try f.optional("parent")?.string(), try f["index"].int())
            return name == "insertRow" ? .insertRow(id: id, config: config, parent: parent, index: index)
                : .removeRow(id: id, config: config, parent: parent, index: index)
        case "updateRow": return .updateRow(id: try f["id"].string(), old: try rowConfig(f["old"]), new: try rowConfig(f["new"]))
        case "moveRow":
            return .moveRow(id: try f["id"].string(), fromParent: try f.optional("fromParent")?.string(), fromIndex: try f["fromIndex"].int(),
                            toParent: try f.optional("toParent")?.string(), toIndex: try f["toIndex"].int())
        case "updateSettings": return .updateSettings(old: try settings(f["old"]), new: try settings(f["new"]))
        default: throw r.unknown("change", name)
        }
    }

    package static func settings(_ r: LogReader) throws -> DocumentSettings {
        DocumentSettings(axis: try r["axis"].raw(), viewport: try size(r["viewport"]), offset: try r["offset"].double(),
                         padding: try edges(r["padding"]), spacing: try r["spacing"].double(), justify: try r["justify"].raw(),
                         align: try r["align"].raw(), defaults: try defaults(r["defaults"]),
                         viewportInsets: try r.optional("viewportInsets").map(edges) ?? .zero,
                         keyboard: try r.optional("keyboard")?.double() ?? 0,
                         safeArea: try r.optional("safeArea").map(edges) ?? .zero)
    }

    package static func defaults(_ r: LogReader) throws -> DocumentDefaults {
        DocumentDefaults(insets: try edges(r["insets"]), separator: try separatorStyle(r["separator"]),
                         autoHideLastSeparator: try r["autoHideLastSeparator"].bool())
    }

    package static func separatorStyle(_ r: LogReader) throws -> SeparatorStyle {
        SeparatorStyle(hidden: try r["hidden"].bool(), insets: try edges(r["insets"]), thickness: try r["thickness"].double(),
                       color: try r["color"].string())
    }

    package static func rowConfig(_ r: LogReader) throws -> RowConfig {
        let sep = try r["separator"]
        var config = RowConfig(type: try r["type"].string(), size: try rowSize(r["size"]), content: try size(r["content"]),
                         insets: try r.optional("insets").map(edges), margin: try edges(r["margin"]), grow: try r["grow"].double(),
                         shrink: try r["shrink"].double(), alignSelf: try r["alignSelf"].raw(), hidden: try r["hidden"].bool(),
                         separator: SeparatorOverrides(hidden: try sep.optional("hidden")?.bool(), insets: try sep.optional("insets").map(edges),
                                                       thickness: try sep.optional("thickness")?.double(), color: try sep.optional("color")?.string()),
                         stack: try r.optional("stack").map(stackSettings),
                         sticky: try r.optional("sticky")?.bool() ?? false)
        for field in RowField.optional {
            guard let v = try r.optional(field.spec.log) else { continue }
            switch field.kind {
            case .format1: break
            case .number: field.setNumber(try v.double(), &config)
            case .text: field.setText(try v.string(), &config)
            }
        }
        return config
    }

    package static func textRun(_ r: LogReader) throws -> TextRun {
        TextRun(count: try r["count"].int(), glyphWidth: try r["char"].double(), lineHeight: try r["line"].double())
    }

    package static func stackSettings(_ r: LogReader) throws -> StackSettings {
        StackSettings(axis: try r["axis"].raw(), justify: try r["justify"].raw(), align: try r["align"].raw(), spacing: try r["spacing"].double())
    }

    package static func rowSize(_ r: LogReader) throws -> RowSize {
        let (name, f) = try r.enumCase()
        switch name {
        case "fit": return .fit
        case "fixed": return .fixed(try f["_0"].double())
        default: throw r.unknown("size", name)
        }
    }

    package static func edges(_ r: LogReader) throws -> Edges {
        Edges(top: try r["top"].double(), left: try r["left"].double(), bottom: try r["bottom"].double(), right: try r["right"].double())
    }

    package static func size(_ r: LogReader) throws -> Size { Size(width: try r["width"].double(), height: try r["height"].double()) }

    package static func position(_ r: LogReader) throws -> Position {
        let (name, f) = try r.enumCase()
        switch name {
        case "top": return .top
        case "bottom": return .bottom
        case "index": return .index(try f["_0"].int())
        case "after": return .after(try f["_0"].string())
        case "before": return .before(try f["_0"].string())
        default: throw r.unknown("position", name)
        }
    }

    package static func separatorSpec(_ r: LogReader) throws -> SeparatorSpec {
        let (name, f) = try r.enumCase()
        switch name {
        case "hidden": return .hidden
        case "shown": return .shown
        case "insets": return .insets(try edges(f["_0"]))
        case "thickness": return .thickness(try f["_0"].double())
        case "color": return .color(try f["_0"].string())
        case "default": return .default
        default: throw r.unknown("separator spec", name)
        }
    }

    package static func rowSpec(_ r: LogReader) throws -> RowSpecItem {
        let (name, f) = try r.enumCase()
        switch name {
        case "type": return .type(try f["_0"].string())
        case "fixed": return .fixed(try f["_0"].double())
        case "fit": return .fit
        case "content": return .content(try size(f["_0"]))
        case "insets": return .insets(try edges(f["_0"]))
        case "insetsDefault": return .insetsDefault
        case "margin": return .margin(try edges(f["_0"]))
        case "grow": return .grow(try f["_0"].double())
        case "shrink": return .shrink(try f["_0"].double())
        case "align": return .align(try f["_0"].raw())
        case "hidden": return .hidden
        case "stack": return .stack(try f["_0"].raw())
        case "unstack": return .unstack
        case "justify": return .justify(try f["_0"].raw())
        case "alignItems": return .alignItems(try f["_0"].raw())
        case "spacing": return .spacing(try f["_0"].double())
        case "separator": return .separator(try separatorSpec(f["_0"]))
        case "sticky": return .sticky(try f["_0"].bool())
        case "scrolls": return .scrolls(try f["_0"].bool())
        case "text": return .text(try f.optional("_0").map(textRun))
        case "aspect": return .aspect(try f.optional("_0").map(size))
        case "rowInsets": return .rowInsets(try f.optional("_0").map(edges))
        case "rowSeparator": return .rowSeparator(try separatorSpec(f["_0"]))
        default:
            // The optional fields (`RowField.optional`), by the saved format's key.
            guard let field = RowField.optional(json: name) else { throw r.unknown("row spec", name) }
            let value: RowField.Value?
            switch (field.kind, try f.optional("_0")) {
            case (_, nil), (.format1, _): value = nil
            case let (.number, v?): value = .number(try v.double())
            case let (.text, v?): value = .text(try v.string())
            }
            guard let item = RowSpecItem(field, value) else { throw r.unknown("row spec", name) }
            return item
        }
    }

    package static func stackSetting(_ r: LogReader) throws -> StackSettingSpec {
        let (name, f) = try r.enumCase()
        switch name {
        case "axis": return .axis(try f["_0"].raw())
        case "padding": return .padding(try edges(f["_0"]))
        case "spacing": return .spacing(try f["_0"].double())
        case "justify": return .justify(try f["_0"].raw())
        case "align": return .align(try f["_0"].raw())
        default: throw r.unknown("stack setting", name)
        }
    }

    package static func defaultsSpec(_ r: LogReader) throws -> DefaultsSpec {
        let (name, f) = try r.enumCase()
        switch name {
        case "insets": return .insets(try edges(f["_0"]))
        case "separator": return .separator(try f["_0"].array().map(separatorSpec))
        case "autoHide": return .autoHide(try f["_0"].bool())
        default: throw r.unknown("defaults change", name)
        }
    }

    package static func scroll(_ r: LogReader) throws -> ScrollSpec {
        let (name, f) = try r.enumCase()
        switch name {
        case "offset": return .offset(try f["_0"].double())
        case "by": return .by(try f["_0"].double())
        case "to": return .to(try f["_0"].string(), try f["_1"].raw())
        case "focus": return .focus(try f["_0"].string())
        case "stack": return .stack(try f["_0"].string(), try f["_1"].double())
        default: throw r.unknown("scroll", name)
        }
    }

    package static func obscured(_ r: LogReader) throws -> ObscuredSpec {
        let (name, f) = try r.enumCase()
        switch name {
        case "insets": return .insets(viewport: try f.optional("viewport").map(size), insets: try edges(f["insets"]))
        case "safeArea": return .safeArea(viewport: try f.optional("viewport").map(size), safeArea: try edges(f["safeArea"]))
        case "keyboard": return .keyboard(try f.optional("_0")?.double())
        default: throw r.unknown("obscured", name)
        }
    }
}

/// A `LogValue` being read, with the path to it for error messages (`forward[0].insertRow.id`).
package struct LogReader {
    package let value: LogValue
    package let path: String

    package init(_ value: LogValue, path: String) {
        self.value = value
        self.path = path
    }

    private func fail(_ expected: String) -> LogFormatError { LogFormatError("\(path): expected \(expected)") }

    package func unknown(_ what: String, _ name: String) -> LogFormatError { LogFormatError("\(path): unknown \(what) '\(name)'") }

    private func fields() throws -> [String: LogValue] {
        guard case let .object(fields) = value else { throw fail("an object") }
        return fields
    }

    /// A required field.
    package subscript(_ key: String) -> LogReader {
        get throws {
            guard let v = try fields()[key] else { throw LogFormatError("\(path): missing '\(key)'") }
            return LogReader(v, path: "\(path).\(key)")
        }
    }

    /// An optional field (absent = nil).
    package func optional(_ key: String) throws -> LogReader? {
        try fields()[key].map { LogReader($0, path: "\(path).\(key)") }
    }

    /// An enum case: an object with exactly one key, the case name.
    package func enumCase() throws -> (String, LogReader) {
        let f = try fields()
        guard f.count == 1, let (name, inner) = f.first else { throw fail("one case name") }
        return (name, LogReader(inner, path: "\(path).\(name)"))
    }

    package func array() throws -> [LogReader] {
        guard case let .array(items) = value else { throw fail("an array") }
        return items.enumerated().map { LogReader($1, path: "\(path)[\($0)]") }
    }

    package func ids() throws -> [RowID] { try array().map { try $0.string() } }

    package func string() throws -> String {
        guard case let .string(s) = value else { throw fail("a string") }
        return s
    }

    package func double() throws -> Double {
        switch value {
        case let .double(d): return d
        case let .int(i): return Double(i)
        default: throw fail("a number")
        }
    }

    package func int() throws -> Int {
        guard case let .int(i) = value else { throw fail("an integer") }
        return i
    }

    package func bool() throws -> Bool {
        guard case let .bool(b) = value else { throw fail("true or false") }
        return b
    }

    package func raw<T: RawRepresentable>() throws -> T where T.RawValue == String {
        let s = try string()
        guard let v = T(rawValue: s) else { throw LogFormatError("\(path): unknown value '\(s)'") }
        return v
    }
}
