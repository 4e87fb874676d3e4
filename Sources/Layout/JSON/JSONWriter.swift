/// The canonical JSON writer: the same value always gives the same bytes. Members keep their
/// order, numbers use `JSONNumber.format`, strings escape `"`, `\` and control characters only.
public enum JSONWriter {
    /// One line without spaces: `{"a":1,"b":[true,null]}` (the REPL's `--json` output).
    public static func compact(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        write(value, into: &out, pretty: false, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Two-space indentation; an array or object that holds only scalars (or nothing) stays on
    /// one line: `"viewport": {"width": 390, "height": 844}`. Ends without a newline.
    public static func pretty(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        write(value, into: &out, pretty: true, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `value` to `out` as `pretty` or `compact` would write it when it sits at nesting
    /// level `indent` of a larger value (its own lines are indented 2 × `indent` spaces deeper).
    public static func append(_ value: JSONValue, to out: inout [UInt8], pretty: Bool, indent: Int) {
        write(value, into: &out, pretty: pretty, indent: indent)
    }

    /// Appends a quoted, escaped JSON string to `out`.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        writeString(s, into: &out)
    }

    /// Appends a number in the canonical format (`null` when not finite) to `out`.
    public static func appendNumber(_ n: Double, to out: inout [UInt8]) {
        if let integer = integerForm(n) {
            appendInteger(integer, to: &out)  // the common case, without a String
        } else {
            out.append(contentsOf: JSONNumber.format(n).utf8)
        }
    }

    /// `n` as the integer the canonical format writes it as (a whole number below 1e15 in
    /// magnitude), or nil when `JSONNumber.format` writes it.
    @inline(__always)
    static func integerForm(_ n: Double) -> Int64? {
        n == n.rounded(.towardZero) && abs(n) < 1e15 ? Int64(n) : nil
    }

    /// True when byte `b` stands for itself inside a JSON string (no escape).
    @inline(__always)
    static func isPlainStringByte(_ b: UInt8) -> Bool {
        b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\")
    }

    private static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[i]) }
        }
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8], pretty: Bool, indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case let .number(n): appendNumber(n, to: &out)
        case let .string(s): writeString(s, into: &out)
        case let .array(elements):
            let expand = pretty && elements.contains(where: \.isContainerWithContent)
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                separator(into: &out, pretty: pretty, expand: expand, indent: indent + 1, first: i == 0)
                write(element, into: &out, pretty: pretty, indent: indent + 1)
            }
            if expand { newline(into: &out, indent: indent) }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            let expand = pretty && members.contains(where: { $0.value.isContainerWithContent })
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                separator(into: &out, pretty: pretty, expand: expand, indent: indent + 1, first: i == 0)
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                write(member.value, into: &out, pretty: pretty, indent: indent + 1)
            }
            if expand { newline(into: &out, indent: indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func separator(into out: inout [UInt8], pretty: Bool, expand: Bool, indent: Int, first: Bool) {
        if expand {
            newline(into: &out, indent: indent)
        } else if pretty, !first {
            out.append(UInt8(ascii: " "))
        }
    }

    private static func newline(into out: inout [UInt8], indent: Int) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // The common string (an id, a key) needs no escape: its bytes in one copy.
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for b in bytes where !isPlainStringByte(b) { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain != true { writeEscaped(s, into: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// The bytes of `s` with `"`, `\` and control characters escaped.
    private static func writeEscaped(_ s: String, into out: inout [UInt8]) {
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: out.append(b)
            }
        }
    }
}

extension JSONValue {
    /// A non-empty array or object: the pretty writer puts the containers holding one on
    /// several lines.
    fileprivate var isContainerWithContent: Bool {
        switch self {
        case let .array(a): return !a.isEmpty
        case let .object(o): return !o.isEmpty
        default: return false
        }
    }
}
