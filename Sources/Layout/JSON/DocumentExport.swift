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

    /// `exportJSON(pretty:)` as UTF-8 bytes. Streams: the settings, then one root row (with its
    /// subtree) at a time, so a million rows never exist as one JSON tree. Byte for byte
    /// `JSONWriter.pretty(jsonValue())` (or `compact`) plus a newline.
    public func exportJSONBytes(pretty: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024 + rowCount * (pretty ? 400 : 260))
        guard case let .object(members) = settingsJSONValue() else { return out }
        // The document object always holds containers, so the pretty writer expands it.
        out.append(UInt8(ascii: "{"))
        for member in members {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
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
        forEachChild(of: nil) { i, id, config in
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if pretty { out.append(contentsOf: [0x0A, 0x20, 0x20, 0x20, 0x20]) }
            if config.stack == nil, config.separator.insets == nil, !config.hasOptionalFields {
                RowWriter(pretty: pretty).append(id, config, to: &out)  // the common row, without a tree
            } else {
                JSONWriter.append(rowJSON(id), to: &out, pretty: pretty, indent: 2)
            }
        }
        if pretty, childCount(of: nil) > 0 { out.append(contentsOf: [0x0A, 0x20, 0x20]) }
        out.append(UInt8(ascii: "]"))
        if pretty { out.append(0x0A) }
        out.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
        return out
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
        var members: [JSONMember] = [
            JSONMember("type", .string(c.type)),
            JSONMember("size", size),
            JSONMember("content", c.content.jsonValue),
            JSONMember("insets", c.insets?.jsonValue ?? .null),
            JSONMember("margin", c.margin.jsonValue),
            JSONMember("grow", .number(c.grow)),
            JSONMember("shrink", .number(c.shrink)),
            JSONMember("alignSelf", .string(c.alignSelf.rawValue)),
            JSONMember("hidden", .bool(c.hidden)),
        ] + (c.sticky ? [JSONMember("sticky", .bool(true))] : []) + [
            JSONMember("separator", .object(separator)),
        ]
        // The optional fields of issue 14, only when set: a document without them exports
        // exactly as before (docs/format.md).
        if let n = c.minMain { members.append(JSONMember("min", .number(n))) }
        if let n = c.maxMain { members.append(JSONMember("max", .number(n))) }
        if let n = c.minCross { members.append(JSONMember("minCross", .number(n))) }
        if let n = c.maxCross { members.append(JSONMember("maxCross", .number(n))) }
        if let s = c.background { members.append(JSONMember("background", .string(s))) }
        if let s = c.highlight { members.append(JSONMember("highlight", .string(s))) }
        members.append(JSONMember("stack", stack))
        return members
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
/// line when pretty; the small objects inline), without building the value.
private struct RowWriter {
    let pretty: Bool

    func append(_ id: RowID, _ c: RowConfig, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        key("id", first: true, &out)
        JSONWriter.appendString(id, to: &out)
        key("type", &out)
        JSONWriter.appendString(c.type, to: &out)
        key("size", &out)
        switch c.size {
        case .fit: JSONWriter.appendString("fit", to: &out)
        case let .fixed(n): inline([("fixed", n)], &out)
        }
        key("content", &out)
        inline([("width", c.content.width), ("height", c.content.height)], &out)
        key("insets", &out)
        if let e = c.insets { edges(e, &out) } else { out.append(contentsOf: "null".utf8) }
        key("margin", &out)
        edges(c.margin, &out)
        key("grow", &out)
        JSONWriter.appendNumber(c.grow, to: &out)
        key("shrink", &out)
        JSONWriter.appendNumber(c.shrink, to: &out)
        key("alignSelf", &out)
        JSONWriter.appendString(c.alignSelf.rawValue, to: &out)
        key("hidden", &out)
        out.append(contentsOf: (c.hidden ? "true" : "false").utf8)
        if c.sticky {
            key("sticky", &out)
            out.append(contentsOf: "true".utf8)
        }
        key("separator", &out)
        separator(c.separator, &out)
        key("stack", &out)
        out.append(contentsOf: "null".utf8)
        if pretty { out.append(contentsOf: [0x0A, 0x20, 0x20, 0x20, 0x20]) }
        out.append(UInt8(ascii: "}"))
    }

    /// `,` (unless first), then the key at nesting level 3 when pretty.
    private func key(_ name: StaticString, first: Bool = false, _ out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        if pretty { out.append(contentsOf: [0x0A, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20]) }
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        out.append(contentsOf: pretty ? [UInt8(ascii: "\""), UInt8(ascii: ":"), 0x20] : [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// An object of numbers on one line.
    private func inline(_ members: [(String, Double)], _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (i, (name, value)) in members.enumerated() {
            if i > 0 { out.append(contentsOf: pretty ? [UInt8(ascii: ","), 0x20] : [UInt8(ascii: ",")]) }
            JSONWriter.appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            if pretty { out.append(0x20) }
            JSONWriter.appendNumber(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private func edges(_ e: Edges, _ out: inout [UInt8]) {
        inline([("top", e.top), ("left", e.left), ("bottom", e.bottom), ("right", e.right)], &out)
    }

    /// Separator overrides without `insets`: scalars only, so always on one line.
    private func separator(_ o: SeparatorOverrides, _ out: inout [UInt8]) {
        var members: [JSONMember] = []
        if let hidden = o.hidden { members.append(JSONMember("hidden", .bool(hidden))) }
        if let thickness = o.thickness { members.append(JSONMember("thickness", .number(thickness))) }
        if let color = o.color { members.append(JSONMember("color", .string(color))) }
        if members.isEmpty {
            out.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        } else {
            JSONWriter.append(.object(members), to: &out, pretty: pretty, indent: 3)
        }
    }
}
