// The rows of a `stackdoc/1` export written straight into bytes (issue 11 item 3: `export` of a
// million rows ≤ 1 s): no `RowConfig`, `JSONValue` or `String` is made per row.

/// Writes a document's rows, at any depth, as the text `JSONWriter` gives for their `JSONValue`
/// (`Document.jsonValue()`), byte for byte. A row's text is its style's fixed bytes (everything
/// but the id, size, content and hidden flag, which live in the row's own slots) with those four
/// values written between them; each style's bytes are made once per nesting level, by the
/// generic writer, so the rule of how a value is written stays in `JSONWriter`.
struct RowExportWriter {
    let pretty: Bool
    private let rows: DocumentRows
    /// `fragments[level][style]`, made on first use.
    private var fragments: [[Fragments?]] = []

    init(_ rows: DocumentRows, pretty: Bool) {
        self.rows = rows
        self.pretty = pretty
    }

    /// Writes the rows of the stack whose child tree is `root` (`rows.rootRoot` for the root),
    /// each row object at nesting `level`, separated as the elements of an expanded array (the
    /// brackets are the caller's), calling `flush` after each row.
    mutating func writeRows(root: Int32, level: Int, into out: inout [UInt8], flush: (inout [UInt8]) throws -> Void) rethrows {
        var c = rows.order.first(root)
        var first = true
        while c >= 0 {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            if pretty { Self.newline(level, &out) }
            try writeRow(c, level: level, into: &out, flush: flush)
            try flush(&out)
            c = rows.order.successor(c)
        }
    }

    private mutating func writeRow(_ s: Int32, level: Int, into out: inout [UInt8], flush: (inout [UInt8]) throws -> Void) rethrows {
        let i = Int(s)
        let f = fragments(style: rows.style[i], level: level)
        Self.put(f.open, &out)
        JSONWriter.appendString(rows.ids[i], to: &out)
        Self.put(f.afterID, &out)
        if rows.flags[i] & DocumentRows.fit != 0 {
            Self.put(f.fit, &out)
        } else {
            Self.put(f.fixedOpen, &out)
            JSONWriter.appendNumber(rows.sizeValue[i], to: &out)
            out.append(UInt8(ascii: "}"))
        }
        Self.put(f.afterSize, &out)
        let content = rows.content[i]
        Self.put(f.widthOpen, &out)
        JSONWriter.appendNumber(content.width, to: &out)
        Self.put(f.heightOpen, &out)
        JSONWriter.appendNumber(content.height, to: &out)
        out.append(UInt8(ascii: "}"))
        Self.put(f.afterContent, &out)
        Self.put(rows.flags[i] & DocumentRows.hidden != 0 ? f.trueBytes : f.falseBytes, &out)
        let kids = rows.childRoot[i]
        if let stackClose = f.stackClose, kids >= 0, rows.order.count(kids) > 0 {
            Self.put(f.afterHidden, &out)
            try writeRows(root: kids, level: level + 3, into: &out, flush: flush)
            Self.put(stackClose, &out)
        } else {
            Self.put(f.afterHiddenEmpty, &out)
        }
    }

    private mutating func fragments(style: Int32, level: Int) -> Fragments {
        let st = Int(style)
        if level < fragments.count, st < fragments[level].count, let f = fragments[level][st] { return f }
        while fragments.count <= level { fragments.append([]) }
        if fragments[level].count <= st { fragments[level].append(contentsOf: repeatElement(nil, count: st + 1 - fragments[level].count)) }
        let f = Fragments(rows.styles[style].rest, level: level, pretty: pretty)
        fragments[level][st] = f
        return f
    }

    @inline(__always)
    private static func put(_ bytes: [UInt8], _ out: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    static func newline(_ level: Int, _ out: inout [UInt8]) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
    }

    /// The fixed bytes of one style's rows at one nesting level. A row is `open` id `afterID`
    /// size `afterSize` content `afterContent` hidden, then `afterHiddenEmpty` (a row that is
    /// not a stack, or a stack without rows), or `afterHidden` (through the opening bracket of
    /// the stack's `rows`), its rows at level + 3, and `stackClose`.
    final class Fragments {
        var open: [UInt8] = [], afterID: [UInt8] = [], afterSize: [UInt8] = [], afterContent: [UInt8] = []
        var afterHidden: [UInt8] = [], afterHiddenEmpty: [UInt8] = []
        let stackClose: [UInt8]?
        let fit: [UInt8], fixedOpen: [UInt8], widthOpen: [UInt8], heightOpen: [UInt8]
        let trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)

        /// The members of `rest.jsonMembers` in order, with the row's own four values left as
        /// gaps; the object is always expanded when pretty (`content` is a non-empty object).
        init(_ rest: RowConfig, level: Int, pretty: Bool) {
            fit = Array("\"fit\"".utf8)
            fixedOpen = Array((pretty ? "{\"fixed\": " : "{\"fixed\":").utf8)
            widthOpen = Array((pretty ? "{\"width\": " : "{\"width\":").utf8)
            heightOpen = Array((pretty ? ", \"height\": " : ",\"height\":").utf8)
            var parts: [[UInt8]] = [[UInt8(ascii: "{")]]
            var gaps: [String] = []
            var stackTail: (open: [UInt8], empty: [UInt8])?
            let members = [JSONMember("id", .null)] + rest.jsonMembers(stackRows: nil)
            for (index, member) in members.enumerated() {
                var part = parts.removeLast()
                if index > 0 { part.append(UInt8(ascii: ",")) }
                if pretty { RowExportWriter.newline(level + 1, &part) }
                JSONWriter.appendString(member.key, to: &part)
                part.append(UInt8(ascii: ":"))
                if pretty { part.append(UInt8(ascii: " ")) }
                switch member.key {
                case "id", "size", "content", "hidden":
                    gaps.append(member.key)
                    parts.append(part)
                    parts.append([])
                case "stack":
                    if let stack = rest.stack {
                        stackTail = Self.stackBytes(stack, level: level, pretty: pretty)  // follows `afterHidden`
                        parts.append(part)
                    } else {
                        JSONWriter.append(member.value, to: &part, pretty: pretty, indent: level + 1)
                        parts.append(part)
                    }
                default:
                    JSONWriter.append(member.value, to: &part, pretty: pretty, indent: level + 1)
                    parts.append(part)
                }
            }
            precondition(gaps == ["id", "size", "content", "hidden"], "a row's own values are id, size, content and hidden, in this order")
            var close: [UInt8] = []
            if pretty { RowExportWriter.newline(level, &close) }
            close.append(UInt8(ascii: "}"))
            open = parts[0]
            afterID = parts[1]
            afterSize = parts[2]
            afterContent = parts[3]
            let tail = parts[4]
            if let stackTail {
                afterHidden = tail + stackTail.open
                afterHiddenEmpty = tail + stackTail.empty + close
                var end: [UInt8] = []
                if pretty { RowExportWriter.newline(level + 2, &end) }
                end.append(UInt8(ascii: "]"))
                if pretty { RowExportWriter.newline(level + 1, &end) }
                end.append(UInt8(ascii: "}"))
                stackClose = end + close
            } else {
                afterHidden = tail + close
                afterHiddenEmpty = afterHidden
                stackClose = nil
            }
        }

        /// A stack's object (the value of `stack`, at level + 1): expanded through the opening
        /// bracket of its non-empty `rows`, and whole when it has none.
        private static func stackBytes(_ stack: StackSettings, level: Int, pretty: Bool) -> (open: [UInt8], empty: [UInt8]) {
            var empty: [UInt8] = []
            JSONWriter.append(.object(stack.jsonMembers + [JSONMember("rows", .array([]))]), to: &empty, pretty: pretty, indent: level + 1)
            var open: [UInt8] = [UInt8(ascii: "{")]
            for (index, member) in (stack.jsonMembers + [JSONMember("rows", .null)]).enumerated() {
                if index > 0 { open.append(UInt8(ascii: ",")) }
                if pretty { RowExportWriter.newline(level + 2, &open) }
                JSONWriter.appendString(member.key, to: &open)
                open.append(UInt8(ascii: ":"))
                if pretty { open.append(UInt8(ascii: " ")) }
                if member.key == "rows" {
                    open.append(UInt8(ascii: "["))
                } else {
                    JSONWriter.append(member.value, to: &open, pretty: pretty, indent: level + 2)
                }
            }
            return (open, empty)
        }
    }
}
