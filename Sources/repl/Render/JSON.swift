import Layout

/// A JSON value with ordered object keys, rendered on one line. `raw` embeds JSON text that
/// another renderer produced (the layout and document formats).
indirect enum JSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])
    case raw(String)

    static func == (a: JSON, b: JSON) -> Bool { a.rendered == b.rendered }
    func hash(into hasher: inout Hasher) { hasher.combine(rendered) }

    /// Compact one-line text.
    var rendered: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let v): out += v.isFinite ? NumberFormat.string(v) : "null"
        case .string(let s): JSON.writeString(s, to: &out)
        case .raw(let text): out += text
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += "," }
                JSON.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// The one JSON string escaping of StackDoc (`JSONWriter`), appended to text.
    static func writeString(_ s: String, to out: inout String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count + 2)
        JSONWriter.appendString(s, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    static func optional(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
    static func rect(_ r: Rect?) -> JSON {
        guard let r else { return .null }
        return .object([("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height))])
    }
    static func size(_ s: Size) -> JSON { .object([("width", .number(s.width)), ("height", .number(s.height))]) }
    static func edges(_ e: Edges) -> JSON {
        .object([("top", .number(e.top)), ("left", .number(e.left)), ("bottom", .number(e.bottom)), ("right", .number(e.right))])
    }
}

/// The one-line JSON envelope of SPEC §4.2 for one command.
enum Envelope {
    static func success(command: String, result: JSON, events: [VisibilityTransition]) -> String {
        JSON.object([
            ("ok", .bool(true)),
            ("command", .string(command)),
            ("result", result),
            ("events", .array(events.map(event))),
        ]).rendered
    }

    static func failure(error: String, line: Int) -> String {
        JSON.object([("ok", .bool(false)), ("error", .string(error)), ("line", .number(Double(line)))]).rendered
    }

    static func event(_ t: VisibilityTransition) -> JSON {
        .object([("row", .string(t.row)), ("from", .string(t.from.rawValue)), ("to", .string(t.to.rawValue))])
    }
}
