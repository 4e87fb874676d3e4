import Layout

/// The output of `layout` (SPEC §4.2), shared by the REPL and the one-shot `stackdoc layout`:
/// the JSON result and the text table. Numbers are written by `JSONNumber.format` in both.
enum LayoutOutput {
    /// The SPEC §4.2 result on one line:
    /// `{"document":…,"axis":…,"viewport":…,"offset":…,"contentSize":…,"rows":[…]}`.
    /// `rows` picks the rows to list (a range or a filter of `layout.rows`); all by default.
    static func json(_ layout: DocumentLayout, rows: [RowLayout]? = nil) -> String {
        JSONWriter.compact(jsonValue(layout, rows: rows))
    }

    /// The SPEC §4.2 result as a JSON value.
    static func jsonValue(_ layout: DocumentLayout, rows: [RowLayout]? = nil) -> JSONValue {
        .object([
            JSONMember("document", .string(layout.document)),
            JSONMember("axis", .string(layout.axis.rawValue)),
            JSONMember("viewport", layout.viewport.jsonValue),
            JSONMember("offset", .number(layout.offset)),
            JSONMember("contentSize", layout.contentSize.jsonValue),
            JSONMember("rows", .array((rows ?? layout.rows).map(rowJSON))),
        ])
    }

    /// One row of the result; hidden rows (and rows under a hidden row) have null frames.
    static func rowJSON(_ r: RowLayout) -> JSONValue {
        .object([
            JSONMember("id", .string(r.id)),
            JSONMember("parent", r.parent.map(JSONValue.string) ?? .null),
            JSONMember("index", .number(Double(r.index))),
            JSONMember("hidden", .bool(r.hidden)),
            JSONMember("frame", r.frame?.jsonValue ?? .null),
            JSONMember("content", r.content?.jsonValue ?? .null),
            JSONMember("separator", r.separator?.jsonValue ?? .null),
            JSONMember("visibility", .string(r.visibility.rawValue)),
            JSONMember("percent", .number(r.percent)),
        ])
    }

    /// One visibility transition: `{"row":"a","from":"offscreen","to":"partial"}`.
    static func eventJSON(_ t: VisibilityTransition) -> JSONValue {
        .object([JSONMember("row", .string(t.row)), JSONMember("from", .string(t.from.rawValue)),
                 JSONMember("to", .string(t.to.rawValue))])
    }

    /// The text table: one line per row with its index in its stack, its id (indented two
    /// spaces per nesting level), type, frame `x,y WxH` (`-` when it has none) and visibility
    /// with percent; then a line with the content size, viewport and offset.
    ///
    /// ```
    /// #  id     type   frame          visibility
    /// 0  a      view   0,0 390x124    entire 100%
    /// 1  s      view   0,124 390x300  partial 37.5%
    /// 0    b    label  0,124 390x100  entire 100%
    /// content 390x424  viewport 390x844  offset 0
    /// ```
    static func table(_ layout: DocumentLayout, rows: [RowLayout]? = nil) -> String {
        var depth: [RowID: Int] = [:]
        for r in layout.rows { depth[r.id] = r.parent.flatMap { depth[$0] }.map { $0 + 1 } ?? 0 }
        let header = ["#", "id", "type", "frame", "visibility"]
        var lines: [[String]] = []
        for r in rows ?? layout.rows {
            lines.append([
                String(r.index),
                String(repeating: "  ", count: depth[r.id] ?? 0) + r.id,
                r.type,
                r.frame.map(frameText) ?? "-",
                visibilityText(r),
            ])
        }
        var widths = header.map(\.count)
        for line in lines {
            for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        func render(_ cells: [String]) -> String {
            var out = ""
            for (i, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                if i == 0 {
                    out += pad + cell  // right-aligned index
                } else {
                    out += "  " + cell + (i == cells.count - 1 ? "" : pad)
                }
            }
            return out
        }
        var text = ([header] + lines).map(render).joined(separator: "\n")
        text += "\ncontent \(sizeText(layout.contentSize))  viewport \(sizeText(layout.viewport))  offset \(JSONNumber.format(layout.offset))"
        return text
    }

    /// `x,y WxH` with the JSON number format.
    static func frameText(_ r: Rect) -> String {
        "\(JSONNumber.format(r.x)),\(JSONNumber.format(r.y)) \(sizeText(Size(width: r.width, height: r.height)))"
    }

    /// `WxH` with the JSON number format.
    static func sizeText(_ s: Size) -> String { "\(JSONNumber.format(s.width))x\(JSONNumber.format(s.height))" }

    /// `entire 100%`, `partial 37.5%` (two decimals at most), `offscreen 0%`, `hidden`.
    static func visibilityText(_ r: RowLayout) -> String {
        guard r.visibility != .hidden else { return "hidden" }
        return "\(r.visibility.rawValue) \(JSONNumber.format((r.percent * 100).rounded() / 100))%"
    }
}
