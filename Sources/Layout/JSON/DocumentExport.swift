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
        exportJSONPieces(pretty: pretty, chunkBytes: Int.max) { piece in piece.withUnsafeBytes { out.append(contentsOf: $0) } }
        return out
    }

    /// `exportJSONBytes(pretty:)` in pieces of about `chunkBytes` bytes (the last may be
    /// shorter), handed to `body` in order — so a million rows are written to a file without
    /// holding their hundreds of megabytes of text. Each piece is a copy of an `ExportPiece` of
    /// `exportJSONPieces(pretty:chunkBytes:_:)`, which hands the same pieces over without the copy.
    /// - Parameters:
    ///   - pretty: Pretty (as `exportJSON()`) or compact text.
    ///   - chunkBytes: About how many bytes each piece holds.
    ///   - body: Takes each piece, in order.
    /// - Throws: What `body` throws (the export stops there).
    public func exportJSONChunks(pretty: Bool = true, chunkBytes: Int = 1 << 20, _ body: ([UInt8]) throws -> Void) rethrows {
        try exportJSONPieces(pretty: pretty, chunkBytes: chunkBytes, blockRows: RowBlocks.defaultRows) { try body($0.bytes) }
    }

    /// `exportJSONBytes(pretty:)` in pieces of about `chunkBytes` bytes (the last may be
    /// shorter), handed to `body` in order, each in the memory it was written in (an
    /// `ExportPiece`: no copy is made between the row writer and `body`). Streams: the settings,
    /// then one root row (with its subtree) at a time; a million rows never exist as one JSON
    /// tree. The root rows are made in blocks of 4,096 by two threads (`RowBlocks`: this one and
    /// a helper, each taking the next block when it is free; the helper's pieces wait in a short
    /// queue), the pieces handed to `body` in order on this thread.
    /// - Parameters:
    ///   - pretty: Pretty (as `exportJSON()`) or compact text.
    ///   - chunkBytes: About how many bytes each piece holds.
    ///   - body: Takes each piece, in order (it may keep them, and free them on any thread).
    /// - Throws: What `body` throws (the export stops there).
    public func exportJSONPieces(pretty: Bool = true, chunkBytes: Int = 1 << 20, _ body: (ExportPiece) throws -> Void) rethrows {
        try exportJSONPieces(pretty: pretty, chunkBytes: chunkBytes, blockRows: RowBlocks.defaultRows, body)
    }

    /// `exportJSONChunks(pretty:chunkBytes:_:)` with the root rows written in blocks of
    /// `blockRows` by two threads (`RowBlocks`) when there are at least two blocks.
    func exportJSONChunks(pretty: Bool, chunkBytes: Int, blockRows: Int, _ body: ([UInt8]) throws -> Void) rethrows {
        try exportJSONPieces(pretty: pretty, chunkBytes: chunkBytes, blockRows: blockRows) { try body($0.bytes) }
    }

    /// `exportJSONPieces(pretty:chunkBytes:_:)` with the root rows written in blocks of
    /// `blockRows` by two threads (`RowBlocks`) when there are at least two blocks.
    func exportJSONPieces(pretty: Bool, chunkBytes: Int, blockRows: Int, _ body: (ExportPiece) throws -> Void) rethrows {
        var out = ExportSink(capacity: min(chunkBytes, 1024 + rowCount * (pretty ? 350 : 230)) + 4096)
        defer { out.deallocate() }
        func flush(_ out: inout ExportSink, _ force: Bool) throws {
            if out.count >= chunkBytes || (force && out.count > 0) {
                try body(out.takePiece())
            }
        }
        guard case let .object(members) = settingsJSONValue() else { return }
        // The document object always holds containers, so the pretty writer expands it.
        var head: [UInt8] = [UInt8(ascii: "{")]
        for (i, member) in members.enumerated() {
            if i > 0 { head.append(UInt8(ascii: ",")) }
            if pretty { head.append(contentsOf: [0x0A, 0x20, 0x20]) }
            JSONWriter.appendString(member.key, to: &head)
            head.append(UInt8(ascii: ":"))
            if pretty { head.append(0x20) }
            JSONWriter.append(member.value, to: &head, pretty: pretty, indent: 1)
        }
        head.append(UInt8(ascii: ","))
        if pretty { head.append(contentsOf: [0x0A, 0x20, 0x20]) }
        JSONWriter.appendString("rows", to: &head)
        head.append(UInt8(ascii: ":"))
        if pretty { head.append(0x20) }
        head.append(UInt8(ascii: "["))
        out.append(head)
        // Every row straight into bytes, each style's fixed text made once (RowExportWriter);
        // the root rows in blocks, shared with a second thread (RowBlocks).
        var rowWriter = RowExportWriter(rows, pretty: pretty)
        defer { rowWriter.deallocate() }
        try RowBlocks(rows: rows, pretty: pretty, blockRows: blockRows, chunkBytes: chunkBytes)
            .write(with: &rowWriter, into: &out, flush: flush, emit: body)
        var tail: [UInt8] = []
        if pretty, childCount(of: nil) > 0 { tail.append(contentsOf: [0x0A, 0x20, 0x20]) }
        tail.append(UInt8(ascii: "]"))
        if pretty { tail.append(0x0A) }
        tail.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
        out.append(tail)
        try flush(&out, true)
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
        if s.safeArea != .zero { obscured.append(JSONMember("safeArea", s.safeArea.jsonValue)) }
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
        // Every field in table order (`forEachField`); the optional ones only when set, so a
        // row without them exports exactly as before (docs/format.md). `sticky` is written only
        // when true.
        var members: [JSONMember] = []
        members.reserveCapacity(RowField.allCases.count)
        forEachField { field, value in
            let json: JSONValue?
            switch value {
            case let .type(t): json = .string(t)
            case .size(.fit): json = .string("fit")
            case let .size(.fixed(n)): json = .object([JSONMember("fixed", .number(n))])
            case let .content(s): json = s.jsonValue
            case let .insets(e): json = e?.jsonValue ?? .null
            case let .margin(e): json = e.jsonValue
            case let .grow(g): json = .number(g)
            case let .shrink(s): json = .number(s)
            case let .alignSelf(a): json = .string(a.rawValue)
            case let .hidden(h): json = .bool(h)
            case let .sticky(on): json = on ? .bool(true) : nil
            case let .separator(o):
                var separator: [JSONMember] = []
                if let hidden = o.hidden { separator.append(JSONMember("hidden", .bool(hidden))) }
                if let insets = o.insets { separator.append(JSONMember("insets", insets.jsonValue)) }
                if let thickness = o.thickness { separator.append(JSONMember("thickness", .number(thickness))) }
                if let color = o.color { separator.append(JSONMember("color", .string(color))) }
                json = .object(separator)
            case let .optional(v): json = v?.jsonValue
            case let .stack(st):
                json = st.map { .object($0.jsonMembers + (stackRows.map { [JSONMember("rows", .array($0))] } ?? [])) } ?? .null
            }
            if let json { members.append(JSONMember(field.spec.json, json)) }
        }
        return members
    }
}

extension StackSettings {
    /// The stack's members of the saved format's `stack` object without `rows` (`axis` …
    /// `spacing`), in order.
    public var jsonMembers: [JSONMember] {
        var members: [JSONMember] = []
        forEachField { value in
            switch value {
            case let .axis(a): members.append(JSONMember("axis", .string(a.rawValue)))
            case let .justify(j): members.append(JSONMember("justify", .string(j.rawValue)))
            case let .align(a): members.append(JSONMember("align", .string(a.rawValue)))
            case let .spacing(n): members.append(JSONMember("spacing", .number(n)))
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
