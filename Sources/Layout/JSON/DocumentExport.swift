// Export of a document as `stackdoc/1` JSON (SPEC §5): every field written, in the spec's order.

extension Document {
    /// The format string of saved documents.
    public static let formatName = "stackdoc/1"

    /// The document as `stackdoc/1` JSON text: canonical, so the same document always gives the
    /// same bytes. Pretty (two-space indentation, small objects on one line) by default; ends
    /// with a newline in both forms.
    public func exportJSON(pretty: Bool = true) -> String {
        String(decoding: exportJSONBytes(pretty: pretty), as: UTF8.self)
    }

    /// `exportJSON(pretty:)` as UTF-8 bytes: byte for byte `JSONWriter.pretty(jsonValue())` (or
    /// `compact`) plus a newline.
    public func exportJSONBytes(pretty: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024 + rowCount * (pretty ? 350 : 230))
        exportJSONChunks(pretty: pretty, chunkBytes: Int.max) { out.append(contentsOf: $0) }
        return out
    }

    /// `exportJSONBytes(pretty:)` in pieces of about `chunkBytes` bytes (the last may be
    /// shorter), handed to `body` in order — so a million rows are written to a file without
    /// holding their hundreds of megabytes of text. Streams: the settings, then one root row
    /// (with its subtree) at a time; a million rows never exist as one JSON tree.
    /// - Parameters:
    ///   - pretty: Pretty (as `exportJSON()`) or compact text.
    ///   - chunkBytes: About how many bytes each piece holds.
    ///   - body: Takes each piece, in order.
    /// - Throws: What `body` throws (the export stops there).
    public func exportJSONChunks(pretty: Bool = true, chunkBytes: Int = 1 << 20, _ body: ([UInt8]) throws -> Void) rethrows {
        var out: [UInt8] = []
        out.reserveCapacity(min(chunkBytes, 1024 + rowCount * (pretty ? 350 : 230)) + 4096)
        func flush(_ force: Bool) throws {
            if out.count >= chunkBytes || (force && !out.isEmpty) {
                try body(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        guard case let .object(members) = settingsJSONValue() else { return }
        // The document object always holds containers, so the pretty writer expands it.
        out.append(UInt8(ascii: "{"))
        for (i, member) in members.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if pretty { out.append(contentsOf: [0x0A, 0x20, 0x20]) }
            JSONWriter.appendString(member.key, to: &out)
            out.append(UInt8(ascii: ":"))
            if pretty { out.append(0x20) }
            JSONWriter.append(member.value, to: &out, pretty: pretty, indent: 1)
        }
        out.append(UInt8(ascii: ","))
        if pretty { out.append(contentsOf: [0x0A, 0x20, 0x20]) }
        JSONWriter.appendString("rows", to: &out)
        out.append(UInt8(ascii: ":"))
        if pretty { out.append(0x20) }
        out.append(UInt8(ascii: "["))
        // The root's rows with their configs in one walk (no id lookups).
        let rows = RowWriter(pretty: pretty)
        try forEachChild(of: nil) { i, id, config in
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if pretty { rows.raw("\n    ", &out) }
            if config.stack == nil, config.separator.insets == nil, !config.hasOptionalFields {
                rows.append(id, config, to: &out)  // the common row, without a tree
            } else {
                JSONWriter.append(rowJSON(id), to: &out, pretty: pretty, indent: 2)
            }
            try flush(false)
        }
        if pretty, childCount(of: nil) > 0 { out.append(contentsOf: [0x0A, 0x20, 0x20]) }
        out.append(UInt8(ascii: "]"))
        if pretty { out.append(0x0A) }
        out.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
        try flush(true)
    }

    /// The document as a JSON value in the `stackdoc/1` shape.
    public func jsonValue() -> JSONValue {
        guard case var .object(members) = settingsJSONValue() else { return .null }
        members.append(JSONMember("rows", .array(children(of: nil).map(rowJSON))))
        return .object(members)
    }

    /// Every member of the document object but `rows`, in order.
    private func settingsJSONValue() -> JSONValue {
        .object([JSONMember("format", .string(Document.formatName)), JSONMember("name", .string(name))] + settings.jsonMembers)
    }

    /// One row and its subtree (depth is bounded by `DocumentLimits.maxDepth`).
    private func rowJSON(_ id: RowID) -> JSONValue {
        let c = config(of: id) ?? RowConfig()
        return .object([JSONMember("id", .string(id))] + c.jsonMembers(stackRows: c.stack == nil ? nil : children(of: id).map(rowJSON)))
    }
}

extension DocumentSettings {
    /// The settings as members of the saved format's document object (`axis` … `defaults`), in
    /// order: what `export` writes and `diff` compares field by field.
    public var jsonMembers: [JSONMember] {
        let s = self
        // The view state of issue 14 is optional: a document without it exports as before.
        var obscured: [JSONMember] = []
        if s.viewportInsets != .zero { obscured.append(JSONMember("viewportInsets", s.viewportInsets.jsonValue)) }
        if s.keyboard != 0 { obscured.append(JSONMember("keyboard", .number(s.keyboard))) }
        return [
            JSONMember("axis", .string(s.axis.rawValue)),
            JSONMember("viewport", s.viewport.jsonValue),
        ] + obscured + [
            JSONMember("offset", .number(s.offset)),
            JSONMember("padding", s.padding.jsonValue),
            JSONMember("spacing", .number(s.spacing)),
            JSONMember("justify", .string(s.justify.rawValue)),
            JSONMember("align", .string(s.align.rawValue)),
            JSONMember("defaults", .object([
                JSONMember("insets", s.defaults.insets.jsonValue),
                JSONMember("separator", .object([
                    JSONMember("hidden", .bool(s.defaults.separator.hidden)),
                    JSONMember("insets", s.defaults.separator.insets.jsonValue),
                    JSONMember("thickness", .number(s.defaults.separator.thickness)),
                    JSONMember("color", .string(s.defaults.separator.color)),
                ])),
                JSONMember("autoHideLastSeparator", .bool(s.defaults.autoHideLastSeparator)),
            ])),
        ]
    }
}

extension RowConfig {
    /// The config as members of the saved format's row object (`type` … `stack`, without `id`),
    /// in order; a stack's `rows` member holds `stackRows` (left out when nil): what `export`
    /// writes and `diff` compares field by field.
    public func jsonMembers(stackRows: [JSONValue]?) -> [JSONMember] {
        let c = self
        var separator: [JSONMember] = []
        if let hidden = c.separator.hidden { separator.append(JSONMember("hidden", .bool(hidden))) }
        if let insets = c.separator.insets { separator.append(JSONMember("insets", insets.jsonValue)) }
        if let thickness = c.separator.thickness { separator.append(JSONMember("thickness", .number(thickness))) }
        if let color = c.separator.color { separator.append(JSONMember("color", .string(color))) }
        let size: JSONValue
        switch c.size {
        case .fit: size = .string("fit")
        case let .fixed(n): size = .object([JSONMember("fixed", .number(n))])
        }
        let stack: JSONValue = c.stack.map { st in
            var members = [
                JSONMember("axis", .string(st.axis.rawValue)),
                JSONMember("justify", .string(st.justify.rawValue)),
                JSONMember("align", .string(st.align.rawValue)),
                JSONMember("spacing", .number(st.spacing)),
            ]
            if let stackRows { members.append(JSONMember("rows", .array(stackRows))) }
            return .object(members)
        } ?? .null
        // Every field in table order (`RowField`); the optional ones only when set, so a row
        // without them exports exactly as before (docs/format.md). `sticky` is written only when
        // true.
        var members: [JSONMember] = []
        members.reserveCapacity(RowField.allCases.count)
        for field in RowField.allCases {
            let key = field.spec.json
            switch field {
            case .type: members.append(JSONMember(key, .string(c.type)))
            case .size: members.append(JSONMember(key, size))
            case .content: members.append(JSONMember(key, c.content.jsonValue))
            case .insets: members.append(JSONMember(key, c.insets?.jsonValue ?? .null))
            case .margin: members.append(JSONMember(key, c.margin.jsonValue))
            case .grow: members.append(JSONMember(key, .number(c.grow)))
            case .shrink: members.append(JSONMember(key, .number(c.shrink)))
            case .alignSelf: members.append(JSONMember(key, .string(c.alignSelf.rawValue)))
            case .hidden: members.append(JSONMember(key, .bool(c.hidden)))
            case .sticky: if c.sticky { members.append(JSONMember(key, .bool(true))) }
            case .separator: members.append(JSONMember(key, .object(separator)))
            case .stack: members.append(JSONMember(key, stack))
            default: if let v = field.value(c) { members.append(JSONMember(key, v.jsonValue)) }
            }
        }
        return members
    }
}

extension RowField.Value {
    /// The value as JSON: a number or a string.
    public var jsonValue: JSONValue {
        switch self {
        case let .number(n): return .number(n)
        case let .text(t): return .string(t)
        }
    }
}

extension Edges {
    /// `{"top":…,"left":…,"bottom":…,"right":…}`.
    public var jsonValue: JSONValue {
        .object([JSONMember("top", .number(top)), JSONMember("left", .number(left)),
                 JSONMember("bottom", .number(bottom)), JSONMember("right", .number(right))])
    }
}

extension Size {
    /// `{"width":…,"height":…}`.
    public var jsonValue: JSONValue {
        .object([JSONMember("width", .number(width)), JSONMember("height", .number(height))])
    }
}

extension Rect {
    /// `{"x":…,"y":…,"width":…,"height":…}` (SPEC §4.2 frames).
    public var jsonValue: JSONValue {
        .object([JSONMember("x", .number(x)), JSONMember("y", .number(y)),
                 JSONMember("width", .number(width)), JSONMember("height", .number(height))])
    }
}

/// Writes a root row that is not a stack and has no separator insets override straight into
/// bytes: the text `JSONWriter` gives for `rowJSON` at nesting level 2 (every member on its own
/// line when pretty; the small objects inline), without building the value. Keys and
/// punctuation are static byte strings (no array or string is made per row).
private struct RowWriter {
    let pretty: Bool

    func append(_ id: RowID, _ c: RowConfig, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        raw(pretty ? "\n      \"id\": " : "\"id\":", &out)
        JSONWriter.appendString(id, to: &out)
        raw(pretty ? ",\n      \"type\": " : ",\"type\":", &out)
        JSONWriter.appendString(c.type, to: &out)
        raw(pretty ? ",\n      \"size\": " : ",\"size\":", &out)
        switch c.size {
        case .fit: raw("\"fit\"", &out)
        case let .fixed(n):
            raw(pretty ? "{\"fixed\": " : "{\"fixed\":", &out)
            JSONWriter.appendNumber(n, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        raw(pretty ? ",\n      \"content\": " : ",\"content\":", &out)
        raw(pretty ? "{\"width\": " : "{\"width\":", &out)
        JSONWriter.appendNumber(c.content.width, to: &out)
        raw(pretty ? ", \"height\": " : ",\"height\":", &out)
        JSONWriter.appendNumber(c.content.height, to: &out)
        out.append(UInt8(ascii: "}"))
        raw(pretty ? ",\n      \"insets\": " : ",\"insets\":", &out)
        if let e = c.insets { edges(e, &out) } else { raw("null", &out) }
        raw(pretty ? ",\n      \"margin\": " : ",\"margin\":", &out)
        edges(c.margin, &out)
        raw(pretty ? ",\n      \"grow\": " : ",\"grow\":", &out)
        JSONWriter.appendNumber(c.grow, to: &out)
        raw(pretty ? ",\n      \"shrink\": " : ",\"shrink\":", &out)
        JSONWriter.appendNumber(c.shrink, to: &out)
        raw(pretty ? ",\n      \"alignSelf\": " : ",\"alignSelf\":", &out)
        JSONWriter.appendString(c.alignSelf.rawValue, to: &out)
        raw(pretty ? ",\n      \"hidden\": " : ",\"hidden\":", &out)
        raw(c.hidden ? "true" : "false", &out)
        if c.sticky { raw(pretty ? ",\n      \"sticky\": true" : ",\"sticky\":true", &out) }
        raw(pretty ? ",\n      \"separator\": " : ",\"separator\":", &out)
        separator(c.separator, &out)
        raw(pretty ? ",\n      \"stack\": null\n    }" : ",\"stack\":null}", &out)
    }

    /// The bytes of a static string.
    @inline(__always)
    func raw(_ text: StaticString, _ out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private func edges(_ e: Edges, _ out: inout [UInt8]) {
        raw(pretty ? "{\"top\": " : "{\"top\":", &out)
        JSONWriter.appendNumber(e.top, to: &out)
        raw(pretty ? ", \"left\": " : ",\"left\":", &out)
        JSONWriter.appendNumber(e.left, to: &out)
        raw(pretty ? ", \"bottom\": " : ",\"bottom\":", &out)
        JSONWriter.appendNumber(e.bottom, to: &out)
        raw(pretty ? ", \"right\": " : ",\"right\":", &out)
        JSONWriter.appendNumber(e.right, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Separator overrides without `insets`: scalars only, so always on one line.
    private func separator(_ o: SeparatorOverrides, _ out: inout [UInt8]) {
        guard !o.isEmpty else {
            raw("{}", &out)
            return
        }
        var members: [JSONMember] = []
        if let hidden = o.hidden { members.append(JSONMember("hidden", .bool(hidden))) }
        if let thickness = o.thickness { members.append(JSONMember("thickness", .number(thickness))) }
        if let color = o.color { members.append(JSONMember("color", .string(color))) }
        JSONWriter.append(.object(members), to: &out, pretty: pretty, indent: 3)
    }
}
