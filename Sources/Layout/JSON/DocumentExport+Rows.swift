// The rows of a `stackdoc/1` export written straight into bytes (issue 11 item 3: `export` of a
// million rows ≤ 1 s): no `RowConfig`, `JSONValue` or `String` is made per row.

/// Writes a document's rows, at any depth, as the text `JSONWriter` gives for their `JSONValue`
/// (`Document.jsonValue()`), byte for byte. A row's text is its style's fixed bytes (everything
/// but the id, size, content and hidden flag, which live in the row's own slots) with those four
/// values written between them; each style's bytes are made once per nesting level, by the
/// generic writer, so the rule of how a value is written stays in `JSONWriter`. The bytes go
/// to an `ExportSink` (raw memory, room made once per row), the fixed pieces from one arena.
struct RowExportWriter {
    let pretty: Bool
    private let rows: DocumentRows
    /// `pieceIndex[level][style]`: the index in `pieces` of that style's bytes at that level,
    /// -1 until first used.
    private var pieceIndex: [[Int32]] = []
    private var pieces: [Pieces] = []
    /// Every piece's bytes.
    private var arena = ExportSink(capacity: 4096)

    init(_ rows: DocumentRows, pretty: Bool) {
        self.rows = rows
        self.pretty = pretty
    }

    /// Frees the arena.
    mutating func deallocate() { arena.deallocate() }

    /// Writes the rows of the stack whose child tree is `root` (`rows.rootRoot` for the root),
    /// each row object at nesting `level`, separated as the elements of an expanded array (the
    /// brackets are the caller's), calling `flush` after each row.
    mutating func writeRows(root: Int32, level: Int, into out: inout ExportSink, flush: (inout ExportSink) throws -> Void) rethrows {
        try writeRows(from: rows.order.first(root), count: .max, first: true, level: level, into: &out, flush: flush)
    }

    /// Writes `count` rows of one stack (fewer when its last row comes first) from the row in
    /// slot `start` on, each with its subtree, as `writeRows(root:level:into:flush:)` writes
    /// them; `first` says whether `start` is the stack's first row (no separating comma
    /// before it). A run of a stack's rows written this way is byte for byte that part of the
    /// whole stack's text, so the runs of consecutive rows can be written apart and joined
    /// (`RowBlocks`).
    mutating func writeRows(from start: Int32, count: Int, first isFirst: Bool, level: Int, into out: inout ExportSink,
                            flush: (inout ExportSink) throws -> Void) rethrows {
        var c = start
        var left = count
        var first = isFirst
        var lastStyle: Int32 = -1
        var f = Pieces()
        while c >= 0, left > 0 {
            left -= 1
            let i = Int(c)
            let style = rows.style[i]
            if style != lastStyle {
                f = pieces(style: style, level: level)
                lastStyle = style
            }
            var id = rows.ids[i]
            id.withUTF8 { idBytes in
                // Room for the whole row but a stack's rows: the fixed pieces, the id escaped
                // (6 bytes a byte at most), three numbers and the separator.
                out.reserve(f.bytes + idBytes.count * 6 + 3 * 40 + 2 * level + 8)
                if !first { out.byte(UInt8(ascii: ",")) }
                if pretty { out.newline(level) }
                let base = arena.base
                out.put(base, f.open)
                out.string(idBytes)
                out.put(base, f.afterID)
                let flags = rows.flags[i]
                if flags & DocumentRows.fit != 0 {
                    out.put(base, f.fit)
                } else {
                    out.put(base, f.fixedOpen)
                    out.number(rows.sizeValue[i])
                    out.byte(UInt8(ascii: "}"))
                }
                out.put(base, f.afterSize)
                let content = rows.content[i]
                out.put(base, f.widthOpen)
                out.number(content.width)
                out.put(base, f.heightOpen)
                out.number(content.height)
                out.byte(UInt8(ascii: "}"))
                out.put(base, f.afterContent)
                out.put(base, flags & DocumentRows.hidden != 0 ? f.trueBytes : f.falseBytes)
            }
            first = false
            let kids = rows.childRoot[i]
            if f.isStack, kids >= 0, rows.order.count(kids) > 0 {
                out.reserve(f.afterHidden.count)
                out.put(arena.base, f.afterHidden)
                try writeRows(root: kids, level: level + 3, into: &out, flush: flush)
                out.reserve(f.stackClose.count)
                out.put(arena.base, f.stackClose)  // (the arena may have moved: pieces are offsets)
            } else {
                out.reserve(f.afterHiddenEmpty.count)
                out.put(arena.base, f.afterHiddenEmpty)
            }
            try flush(&out)
            c = rows.order.successor(c)
        }
    }

    /// Where one style's pieces at one level lie in the arena.
    private struct Pieces {
        var open = 0..<0, afterID = 0..<0, fit = 0..<0, fixedOpen = 0..<0, afterSize = 0..<0, widthOpen = 0..<0
        var heightOpen = 0..<0, afterContent = 0..<0, trueBytes = 0..<0, falseBytes = 0..<0
        var afterHidden = 0..<0, afterHiddenEmpty = 0..<0, stackClose = 0..<0
        var isStack = false
        /// The bytes of the pieces a row without rows of its own writes, at most.
        var bytes = 0
    }

    private mutating func pieces(style: Int32, level: Int) -> Pieces {
        let st = Int(style)
        while pieceIndex.count <= level { pieceIndex.append([]) }
        if pieceIndex[level].count <= st { pieceIndex[level].append(contentsOf: repeatElement(-1, count: st + 1 - pieceIndex[level].count)) }
        if pieceIndex[level][st] >= 0 { return pieces[Int(pieceIndex[level][st])] }
        let f = Fragments(rows.styles[style].rest, level: level, pretty: pretty)
        func add(_ bytes: [UInt8]) -> Range<Int> {
            let start = arena.count
            arena.reserve(bytes.count)
            bytes.withUnsafeBytes { arena.put($0) }
            return start..<arena.count
        }
        var p = Pieces()
        p.open = add(f.open)
        p.afterID = add(f.afterID)
        p.fit = add(f.fit)
        p.fixedOpen = add(f.fixedOpen)
        p.afterSize = add(f.afterSize)
        p.widthOpen = add(f.widthOpen)
        p.heightOpen = add(f.heightOpen)
        p.afterContent = add(f.afterContent)
        p.trueBytes = add(f.trueBytes)
        p.falseBytes = add(f.falseBytes)
        p.afterHidden = add(f.afterHidden)
        p.afterHiddenEmpty = add(f.afterHiddenEmpty)
        p.stackClose = add(f.stackClose ?? [])
        p.isStack = f.stackClose != nil
        p.bytes = [p.open, p.afterID, p.fit, p.fixedOpen, p.afterSize, p.widthOpen, p.heightOpen, p.afterContent,
                   p.trueBytes, p.falseBytes].map(\.count).reduce(0, +)
        pieceIndex[level][st] = Int32(pieces.count)
        pieces.append(p)
        return p
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
