/// A strict RFC 8259 JSON reader. Iterative (an explicit stack, never recursion), so hostile
/// nesting gives an error instead of a stack overflow; nesting deeper than
/// `DocumentLimits.maxJSONDepth` is refused. Refuses duplicate keys, invalid UTF-8, lone
/// surrogates, control characters in strings, leading zeros, numbers out of Double's range and
/// anything after the value. A UTF-8 byte order mark at the start is skipped.
/// Errors are `StackDocError`s: `line 3, column 14: expected ':' after an object key`
/// (lines and columns count from 1; columns count characters).
public struct JSONParser {
    private let bytes: [UInt8]
    private var pos = 0

    /// Parses one JSON text.
    /// - Parameter text: The JSON text.
    /// - Throws: `StackDocError` naming the line, column and what was expected.
    public static func parse(_ text: String) throws -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses one JSON text given as UTF-8 bytes.
    /// - Parameter bytes: The JSON text as UTF-8.
    /// - Throws: `StackDocError` naming the line, column and what was expected.
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    /// Parses one JSON text, handing each element of the top-level object's `"rows"` array to
    /// `row` as soon as it is read instead of keeping it: the returned value has `"rows": []`
    /// there (with the number of elements handed over), so a saved document's rows never
    /// stand as one tree. `row` also gets the members of the top-level object read before
    /// `"rows"`.
    /// - Parameters:
    ///   - bytes: The JSON text as UTF-8.
    ///   - row: Called with each element of the top-level `"rows"` array, in order.
    /// - Throws: `StackDocError` naming the line, column and what was expected; what `row` throws.
    public static func parse(_ bytes: [UInt8], rows row: (_ element: JSONValue, _ membersBefore: [JSONMember]) throws -> Void)
        throws -> (value: JSONValue, rows: Int) {
        try parse(bytes, rows: row, scanning: { _, _ in nil })
    }

    /// `parse(_:rows:)`, offering each element of the top-level `"rows"` array first to `scan`,
    /// given the element's position in `bytes` (after the whitespace before it): when `scan`
    /// reads the element itself it returns the position just after it, and `row` does not get
    /// it; nil leaves the element to the parser (and `row`), which reads it from that position
    /// as if `scan` had not looked (a row read without a tree: `JSONRowScanner`).
    static func parse(_ bytes: [UInt8], rows row: (_ element: JSONValue, _ membersBefore: [JSONMember]) throws -> Void,
                      scanning scan: (_ at: Int, _ membersBefore: [JSONMember]) throws -> Int?) throws -> (value: JSONValue, rows: Int) {
        var parser = JSONParser(bytes: bytes)
        let value = try withoutActuallyEscaping(row) { row in
            try withoutActuallyEscaping(scan) { scan in
                // (The parser counts the rows: a count the closures captured was checked for
                // exclusive access at run time at each row.)
                parser.rowHook = row
                parser.rowScan = scan
                defer {  // `row` and `scan` must not outlive this call
                    parser.rowHook = nil
                    parser.rowScan = nil
                }
                return try parser.parseDocument()
            }
        }
        return (value, parser.rowsHandedOver)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Set by `parse(_:rows:)`: takes the elements of the top-level `"rows"` array.
    private var rowHook: ((JSONValue, [JSONMember]) throws -> Void)?
    /// Set by `parse(_:rows:scanning:)`: reads an element of that array itself, or returns nil.
    private var rowScan: ((Int, [JSONMember]) throws -> Int?)?
    /// The elements of that array given to `rowHook` or read by `rowScan`.
    private var rowsHandedOver = 0

    /// An open object while its members are read: the members so far, the key of the member
    /// being read, and (from 16 members on) the set of keys for duplicate checks.
    private struct OpenObject {
        var members: [JSONMember] = []
        var key: String
        var keys: Set<String>?
    }

    private mutating func parseDocument() throws -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { pos = 3 }
        // Open containers, innermost last; `isObject` says which of the two stacks each is on.
        // Elements are appended in place (`arrays[last].append`), never through a copy.
        var isObject: [Bool] = []
        var arrays: [[JSONValue]] = []
        var objects: [OpenObject] = []
        var value: JSONValue
        // True while the open array at depth 2 is the top-level object's `"rows"` and its
        // elements go to `rowHook`.
        var handingRows = false
        // True when the element just read was read by `rowScan` (no value, nothing to hand over).
        var scanned = false
        parsing: while true {
            // Read one value, or open a container and go on with its first element.
            skipWhitespace()
            guard pos < bytes.count else {
                throw error(isObject.isEmpty && pos <= 3 ? "empty input: expected a JSON value" : "unexpected end of input: expected a value")
            }
            if handingRows, isObject.count == 2, let rowScan, let end = try rowScan(pos, objects[0].members) {
                pos = end
                value = .null
                scanned = true
                rowsHandedOver += 1
            } else {
                switch bytes[pos] {
                case UInt8(ascii: "{"):
                    guard isObject.count < DocumentLimits.maxJSONDepth else { throw tooDeep() }
                    pos += 1
                    skipWhitespace()
                    if peek(UInt8(ascii: "}")) {
                        pos += 1
                        value = .object([])
                    } else {
                        objects.append(OpenObject(key: try parseKey()))
                        isObject.append(true)
                        continue parsing
                    }
                case UInt8(ascii: "["):
                    guard isObject.count < DocumentLimits.maxJSONDepth else { throw tooDeep() }
                    pos += 1
                    skipWhitespace()
                    if peek(UInt8(ascii: "]")) {
                        pos += 1
                        value = .array([])
                    } else {
                        arrays.append([])
                        if rowHook != nil, isObject.count == 1, isObject[0], objects[0].key == "rows" { handingRows = true }
                        isObject.append(false)
                        continue parsing
                    }
                case UInt8(ascii: "\""):
                    value = .string(try parseString())
                case UInt8(ascii: "t"):
                    try expectLiteral("true")
                    value = .bool(true)
                case UInt8(ascii: "f"):
                    try expectLiteral("false")
                    value = .bool(false)
                case UInt8(ascii: "n"):
                    try expectLiteral("null")
                    value = .null
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    value = .number(try parseNumber())
                default:
                    throw unexpected("a value")
                }
            }
            // Hand the finished value to its container; close containers that end here.
            while true {
                guard let inObject = isObject.last else {
                    skipWhitespace()
                    guard pos == bytes.count else { throw error("unexpected \(describeHere()) after the JSON value") }
                    return value
                }
                skipWhitespace()
                if !inObject {
                    if handingRows, isObject.count == 2, let rowHook {
                        if !scanned {
                            try rowHook(value, objects[0].members)
                            rowsHandedOver += 1
                        }
                        scanned = false
                    } else {
                        arrays[arrays.count - 1].append(value)
                    }
                    if peek(UInt8(ascii: ",")) {
                        pos += 1
                        continue parsing
                    } else if peek(UInt8(ascii: "]")) {
                        pos += 1
                        if isObject.count == 2 { handingRows = false }
                        value = .array(arrays.removeLast())
                        isObject.removeLast()
                    } else {
                        throw unexpected("',' or ']'")
                    }
                } else {
                    let top = objects.count - 1
                    objects[top].members.append(JSONMember(objects[top].key, value))
                    if peek(UInt8(ascii: ",")) {
                        pos += 1
                        skipWhitespace()
                        let keyStart = pos
                        let next = try parseKey()
                        if objects[top].keys == nil, objects[top].members.count >= 16 {
                            objects[top].keys = Set(objects[top].members.map(\.key))
                        }
                        let duplicate = objects[top].keys.map { $0.contains(next) }
                            ?? objects[top].members.contains(where: { $0.key == next })
                        if duplicate {
                            pos = keyStart
                            throw error("duplicate key \(Validation.quoted(next))")
                        }
                        objects[top].keys?.insert(next)
                        objects[top].key = next
                        continue parsing
                    } else if peek(UInt8(ascii: "}")) {
                        pos += 1
                        value = .object(objects.removeLast().members)
                        isObject.removeLast()
                    } else {
                        throw unexpected("',' or '}'")
                    }
                }
            }
        }
    }

    /// Reads `"key"` and the `:` after it, leaving `pos` before the member's value.
    private mutating func parseKey() throws -> String {
        guard peek(UInt8(ascii: "\"")) else { throw unexpected("a string key") }
        let key = try parseString()
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else { throw unexpected("':' after an object key") }
        pos += 1
        return key
    }

    private mutating func parseString() throws -> String {
        pos += 1  // opening quote
        let start = pos
        var escaped = false
        while true {
            guard pos < bytes.count else { throw error("unexpected end of input in a string") }
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") {
                escaped = true
                guard pos + 1 < bytes.count else { throw error("unexpected end of input in a string") }
                guard Array("\"\\/bfnrtu".utf8).contains(bytes[pos + 1]) else { throw error("invalid escape in a string") }
                pos += 2
                continue
            }
            if b < 0x20 { throw error("control character U+\(hex4(UInt32(b))) in a string must be escaped") }
            if b < 0x80 { pos += 1 } else { try skipUTF8Sequence() }
        }
        let end = pos
        pos += 1  // closing quote
        if !escaped { return String(decoding: bytes[start..<end], as: UTF8.self) }
        return try unescape(start, end)
    }

    /// Checks one multi-byte UTF-8 sequence at `pos` and steps over it.
    private mutating func skipUTF8Sequence() throws {
        let b0 = bytes[pos]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw error("invalid UTF-8 byte 0x\(String(b0, radix: 16, uppercase: true))")
        }
        for i in 1..<length {
            let at = pos + i
            let limitLow = i == 1 ? low : 0x80, limitHigh = i == 1 ? high : 0xBF
            guard at < bytes.count, bytes[at] >= limitLow, bytes[at] <= limitHigh else {
                pos = min(at, bytes.count)
                throw error("invalid UTF-8 sequence")
            }
        }
        pos += length
    }

    /// Decodes a string with escapes between `start` and `end` (already checked for UTF-8).
    private mutating func unescape(_ start: Int, _ end: Int) throws -> String {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        while i < end {
            let b = bytes[i]
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                i += 1
                continue
            }
            let e = i + 1 < end ? bytes[i + 1] : 0
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad(at: i + 2, end: end)
                var consumed = 6
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 7 < end, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u"),
                          case let low = try hexQuad(at: i + 8, end: end), (0xDC00...0xDFFF).contains(low) else {
                        pos = i
                        throw error("lone surrogate \\u\(hex4(scalar)) in a string")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    consumed = 12
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    pos = i
                    throw error("lone surrogate \\u\(hex4(scalar)) in a string")
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                i += consumed
                continue
            default:
                pos = i
                throw error("invalid escape in a string")
            }
            i += 2
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func hexQuad(at start: Int, end: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for i in start..<(start + 4) {
            guard i < end else {
                pos = start - 2
                throw error("\\u needs four hex digits")
            }
            let b = bytes[i]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default:
                pos = start - 2
                throw error("\\u needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func parseNumber() throws -> Double {
        let start = pos
        var integral = true
        if peek(UInt8(ascii: "-")) { pos += 1 }
        guard pos < bytes.count, isDigit(bytes[pos]) else { throw unexpected("a digit") }
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < bytes.count, isDigit(bytes[pos]) { throw error("leading zeros are not allowed in numbers") }
        } else {
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            integral = false
            pos += 1
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw unexpected("a digit after '.'") }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            integral = false
            pos += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { pos += 1 }
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw unexpected("a digit in the exponent") }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        let negative = bytes[start] == UInt8(ascii: "-")
        let digitCount = pos - start - (negative ? 1 : 0)
        if integral, digitCount <= 15 {
            var v: Int64 = 0
            for b in bytes[(start + (negative ? 1 : 0))..<pos] { v = v * 10 + Int64(b - UInt8(ascii: "0")) }
            return negative ? -Double(v) : Double(v)
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            pos = start
            throw error("number \(text.prefix(40)) is out of range")
        }
        return value
    }

    private mutating func expectLiteral(_ word: StaticString) throws {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard pos + w.count <= bytes.count, bytes[pos..<(pos + w.count)].elementsEqual(w) else {
            throw unexpected("a value")
        }
        pos += w.count
    }

    // MARK: Helpers

    private mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    private func peek(_ b: UInt8) -> Bool { pos < bytes.count && bytes[pos] == b }
    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    private func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    private func describeHere() -> String {
        guard pos < bytes.count else { return "end of input" }
        let b = bytes[pos]
        if b >= 0x21, b < 0x7F { return "character '\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    private func unexpected(_ expected: String) -> StackDocError {
        error("expected \(expected), found \(describeHere())")
    }

    private func tooDeep() -> StackDocError {
        error("JSON nested deeper than \(DocumentLimits.maxJSONDepth) levels")
    }

    /// An error at `pos`, with its line and column (characters, counting from 1).
    private func error(_ message: String) -> StackDocError {
        let at = min(pos, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<at where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        // Count characters as UTF-8 lead bytes (continuation bytes are 10xxxxxx).
        let column = 1 + bytes[lineStart..<at].reduce(0) { $0 + (($1 & 0xC0) == 0x80 ? 0 : 1) }
        return StackDocError("line \(line), column \(column): \(message)")
    }
}
