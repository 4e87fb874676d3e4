import Layout

/// The output of `layout` (SPEC §4.2), shared by the REPL and the one-shot `stackdoc layout`:
/// the JSON result and the text table (`TextTable`, numbers and percentages by `Format`).
public enum LayoutOutput {
    /// The SPEC §4.2 result on one line:
    /// `{"document":…,"axis":…,"viewport":…,"offset":…,"contentSize":…,"rows":[…]}`.
    /// `rows` picks the rows to list (a range or a filter of `layout.rows`); all by default.
    /// Written straight into bytes (a million rows without building a JSON tree); the same text
    /// as `JSONWriter.compact(jsonValue(layout, rows:))`.
    /// - Parameters:
    ///   - layout: The layout (its header fields are written as they are).
    ///   - rows: The rows to list (nil: all of `layout.rows`).
    public static func json(_ layout: DocumentLayout, rows: [RowLayout]? = nil) -> String {
        String(decoding: jsonBytes(layout, rows: rows), as: UTF8.self)
    }

    /// `json(_:rows:)` as UTF-8 bytes (for writing a large result without a String copy).
    public static func jsonBytes(_ layout: DocumentLayout, rows: [RowLayout]? = nil) -> [UInt8] {
        let list = rows ?? layout.rows
        var out: [UInt8] = []
        out.reserveCapacity(200 + list.count * 320)
        appendJSONHeader(layout, to: &out)
        appendJSONRows(list, of: layout, first: true, to: &out)
        out.append(contentsOf: Bytes.closeRowsAndResult)
        return out
    }

    /// The result's text up to and with the rows' opening bracket (`{"document":…,"rows":[`).
    static func appendJSONHeader(_ layout: DocumentLayout, to out: inout [UInt8]) {
        out.append(contentsOf: Bytes.openDocument)
        JSONWriter.appendString(layout.document, to: &out)
        out.append(contentsOf: Bytes.axis)
        JSONWriter.appendString(layout.axis.rawValue, to: &out)
        out.append(contentsOf: Bytes.viewport)
        appendSize(layout.viewport, to: &out)
        if layout.obscured != .zero {
            out.append(contentsOf: Bytes.obscured)
            JSONWriter.append(layout.obscured.jsonValue, to: &out, pretty: false, indent: 0)
        }
        if layout.safeArea != .zero {
            out.append(contentsOf: Bytes.safeArea)
            JSONWriter.append(layout.safeArea.jsonValue, to: &out, pretty: false, indent: 0)
        }
        out.append(contentsOf: Bytes.offset)
        JSONWriter.appendNumber(layout.offset, to: &out)
        out.append(contentsOf: Bytes.contentSize)
        appendSize(layout.contentSize, to: &out)
        out.append(contentsOf: Bytes.openRows)
    }

    /// The end of the result after its last row (`]}`).
    static let jsonClosing = Bytes.closeRowsAndResult

    /// Rows of the result's `rows` array, comma-separated (a comma before the first unless
    /// `first`); `layout` gives the rows sticky positioning moves.
    static func appendJSONRows(_ list: [RowLayout], of layout: DocumentLayout, first: Bool, to out: inout [UInt8]) {
        for (i, r) in list.enumerated() {
            if i > 0 || !first { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: Bytes.openRowID)
            JSONWriter.appendString(r.id, to: &out)
            out.append(contentsOf: Bytes.parent)
            if let parent = r.parent { JSONWriter.appendString(parent, to: &out) } else { out.append(contentsOf: Bytes.null) }
            out.append(contentsOf: Bytes.index)
            JSONWriter.appendNumber(Double(r.index), to: &out)
            out.append(contentsOf: r.hidden ? Bytes.hiddenTrue : Bytes.hiddenFalse)
            appendRect(r.frame, to: &out)
            out.append(contentsOf: Bytes.content)
            appendRect(r.content, to: &out)
            out.append(contentsOf: Bytes.separator)
            appendRect(r.separator, to: &out)
            out.append(contentsOf: Bytes.visibility)
            JSONWriter.appendString(r.visibility.rawValue, to: &out)
            out.append(contentsOf: Bytes.percent)
            JSONWriter.appendNumber(r.percent, to: &out)
            if !layout.displaced.isEmpty, let d = layout.displaced[r.id], let f = r.frame {
                out.append(contentsOf: Bytes.stuckFrame)
                appendRect(d.moved(f), to: &out)
                out.append(contentsOf: d.stuck ? Bytes.stuckTrue : Bytes.stuckFalse)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The fixed pieces of the layout JSON as bytes (appending an array is a plain copy).
    private enum Bytes {
        static let openDocument: [UInt8] = Array(#"{"document":"#.utf8)
        static let axis: [UInt8] = Array(#","axis":"#.utf8)
        static let viewport: [UInt8] = Array(#","viewport":"#.utf8)
        static let offset: [UInt8] = Array(#","offset":"#.utf8)
        static let obscured: [UInt8] = Array(#","obscured":"#.utf8)
        static let safeArea: [UInt8] = Array(#","safeArea":"#.utf8)
        static let stuckFrame: [UInt8] = Array(#","shownFrame":"#.utf8)
        static let stuckTrue: [UInt8] = Array(#","stuck":true"#.utf8)
        static let stuckFalse: [UInt8] = Array(#","stuck":false"#.utf8)
        static let contentSize: [UInt8] = Array(#","contentSize":"#.utf8)
        static let openRows: [UInt8] = Array(#","rows":["#.utf8)
        static let openRowID: [UInt8] = Array(#"{"id":"#.utf8)
        static let parent: [UInt8] = Array(#","parent":"#.utf8)
        static let null: [UInt8] = Array("null".utf8)
        static let index: [UInt8] = Array(#","index":"#.utf8)
        static let content: [UInt8] = Array(#","content":"#.utf8)
        static let separator: [UInt8] = Array(#","separator":"#.utf8)
        static let visibility: [UInt8] = Array(#","visibility":"#.utf8)
        static let percent: [UInt8] = Array(#","percent":"#.utf8)
        static let closeRowsAndResult: [UInt8] = Array("]}".utf8)
        static let openWidth: [UInt8] = Array(#"{"width":"#.utf8)
        static let height: [UInt8] = Array(#","height":"#.utf8)
        static let openX: [UInt8] = Array(#"{"x":"#.utf8)
        static let y: [UInt8] = Array(#","y":"#.utf8)
        static let width: [UInt8] = Array(#","width":"#.utf8)
        static let hiddenTrue: [UInt8] = Array(#","hidden":true,"frame":"#.utf8)
        static let hiddenFalse: [UInt8] = Array(#","hidden":false,"frame":"#.utf8)
    }

    private static func appendSize(_ s: Size, to out: inout [UInt8]) {
        out.append(contentsOf: Bytes.openWidth)
        JSONWriter.appendNumber(s.width, to: &out)
        out.append(contentsOf: Bytes.height)
        JSONWriter.appendNumber(s.height, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func appendRect(_ r: Rect?, to out: inout [UInt8]) {
        guard let r else {
            out.append(contentsOf: Bytes.null)
            return
        }
        out.append(contentsOf: Bytes.openX)
        JSONWriter.appendNumber(r.x, to: &out)
        out.append(contentsOf: Bytes.y)
        JSONWriter.appendNumber(r.y, to: &out)
        out.append(contentsOf: Bytes.width)
        JSONWriter.appendNumber(r.width, to: &out)
        out.append(contentsOf: Bytes.height)
        JSONWriter.appendNumber(r.height, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The SPEC §4.2 result as a JSON value.
    /// - Parameters:
    ///   - layout: The layout.
    ///   - rows: The rows to list (nil: all of `layout.rows`).
    public static func jsonValue(_ layout: DocumentLayout, rows: [RowLayout]? = nil) -> JSONValue {
        .object([
            JSONMember("document", .string(layout.document)),
            JSONMember("axis", .string(layout.axis.rawValue)),
            JSONMember("viewport", layout.viewport.jsonValue),
        ] + (layout.obscured == .zero ? [] : [JSONMember("obscured", layout.obscured.jsonValue)])
          + (layout.safeArea == .zero ? [] : [JSONMember("safeArea", layout.safeArea.jsonValue)]) + [
            JSONMember("offset", .number(layout.offset)),
            JSONMember("contentSize", layout.contentSize.jsonValue),
            JSONMember("rows", .array((rows ?? layout.rows).map { rowJSON($0, layout.displaced[$0.id]) })),
        ])
    }

    /// One row of the result; hidden rows (and rows under a hidden row) have null frames.
    static func rowJSON(_ r: RowLayout, _ moved: StuckRow? = nil) -> JSONValue {
        var shown: [JSONMember] = []
        if let moved, let f = r.frame {
            shown = [JSONMember("shownFrame", moved.moved(f).jsonValue), JSONMember("stuck", .bool(moved.stuck))]
        }
        return .object([
            JSONMember("id", .string(r.id)),
            JSONMember("parent", r.parent.map(JSONValue.string) ?? .null),
            JSONMember("index", .number(Double(r.index))),
            JSONMember("hidden", .bool(r.hidden)),
            JSONMember("frame", r.frame?.jsonValue ?? .null),
            JSONMember("content", r.content?.jsonValue ?? .null),
            JSONMember("separator", r.separator?.jsonValue ?? .null),
            JSONMember("visibility", .string(r.visibility.rawValue)),
            JSONMember("percent", .number(r.percent)),
        ] + shown)
    }

    /// One stuck-state transition of a sticky row: `{"row":"h","stuck":true}`.
    static func eventJSON(_ t: StuckTransition) -> JSONValue {
        .object([JSONMember("row", .string(t.row)), JSONMember("stuck", .bool(t.stuck))])
    }

    /// One visibility transition: `{"row":"a","from":"offscreen","to":"partial"}`; `from` is
    /// null for a row the command inserted, `to` for a row it removed.
    static func eventJSON(_ t: VisibilityTransition) -> JSONValue {
        .object([JSONMember("row", .string(t.row)), JSONMember("from", t.from.map { .string($0.rawValue) } ?? .null),
                 JSONMember("to", t.to.map { .string($0.rawValue) } ?? .null)])
    }

    /// One row's frame change: `{"row":"a","from":{"x":…},"to":{"x":…}}` (null for no frame).
    static func movedJSON(_ m: FrameChange) -> JSONValue {
        .object([JSONMember("row", .string(m.row)), JSONMember("from", m.from?.jsonValue ?? .null),
                 JSONMember("to", m.to?.jsonValue ?? .null)])
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
    /// - Parameters:
    ///   - layout: The layout.
    ///   - rows: The rows to list (nil: all of `layout.rows`).
    public static func table(_ layout: DocumentLayout, rows: [RowLayout]? = nil) -> String {
        let depths = nestingDepths(layout)
        var table = TextTable(tableHeaders, rightAligned: [0])
        for r in rows ?? layout.rows {
            let depth = (rows == nil ? depths[table.rows.count] : layout.position(of: r.id).map { depths[$0] }) ?? 0
            table.add(tableCells(r, depth: depth, layout))
        }
        return table.rendered + "\n" + tableFooter(layout)
    }

    /// The text table's column titles.
    static let tableHeaders = ["#", "id", "type", "frame", "visibility"]

    /// One row's cells of the text table, its id indented by `depth`; `layout` gives the rows
    /// sticky positioning moves.
    static func tableCells(_ r: RowLayout, depth: Int, _ layout: DocumentLayout) -> [String] {
        let frame = frameText(r.frame, shown: layout.displaced.isEmpty ? nil : layout.displaced[r.id])
        return [String(r.index), String(repeating: "  ", count: depth) + Printer.id(r.id), Printer.id(r.type), frame, visibilityText(r)]
    }

    /// A frame as the text tables show it, with where sticky positioning shows the row
    /// (`0,0 390x44 stuck at 0,120`) when it moves it.
    static func frameText(_ frame: Rect?, shown: StuckRow?) -> String {
        guard let shown, let frame else { return Format.rect(frame) }
        let moved = shown.moved(frame)
        return Format.rect(frame) + " \(shown.stuck ? "stuck" : "moved") at \(Format.number(moved.x)),\(Format.number(moved.y))"
    }

    /// The text table's last line: content size, viewport, obscured insets, safe area, offset.
    static func tableFooter(_ layout: DocumentLayout) -> String {
        "content \(Format.size(layout.contentSize))  viewport \(Format.size(layout.viewport))"
            + (layout.obscured == .zero ? "" : "  obscured \(Format.edges(layout.obscured))")
            + (layout.safeArea == .zero ? "" : "  safe area \(Format.edges(layout.safeArea))")
            + "  offset \(Format.number(layout.offset))"
    }

    /// The nesting depth of every row of `layout.rows` (0 for a root row), from document order
    /// alone (`NestingDepths`).
    static func nestingDepths(_ layout: DocumentLayout) -> [Int] {
        var depths: [Int] = []
        depths.reserveCapacity(layout.rows.count)
        var tracker = NestingDepths()
        for r in layout.rows { depths.append(tracker.depth(of: r)) }
        return depths
    }

    /// Nesting depths of rows read in document order (0 for a root row): a stack of the open
    /// ancestors, no lookups by id; rows may come a block at a time.
    struct NestingDepths {
        private var ancestors: [RowID] = []

        /// The depth of `r`, the row after the previous one asked about in document order.
        mutating func depth(of r: RowLayout) -> Int {
            if let parent = r.parent {
                while let last = ancestors.last, last != parent { ancestors.removeLast() }
            } else {
                ancestors.removeAll(keepingCapacity: true)
            }
            defer { ancestors.append(r.id) }
            return ancestors.count
        }
    }

    /// `entire 100%`, `partial 37.5%` (`Format.percent`), `offscreen 0%`, `hidden`.
    static func visibilityText(_ r: RowLayout) -> String {
        guard r.visibility != .hidden else { return "hidden" }
        return "\(r.visibility.rawValue) \(Format.percent(r.percent))%"
    }
}
