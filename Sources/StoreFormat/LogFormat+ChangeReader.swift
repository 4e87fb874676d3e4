import Layout

/// Reads a log entry's `[Change]` straight from its bytes when they are in the form the writers
/// produce (the tree writer `LogValue.text`, every earlier release: compact JSON, keys sorted,
/// strings without escapes), skipping the generic path's three passes (JSON parse → `JSONValue` →
/// `LogValue` → `Change`, ≈ 30 % of undoing a 100k-row `clear`).
///
/// It accepts only a subset of what the generic reader (`LogFormat.changes`) accepts, and reads
/// it to the same values (`ChangeCodingTests`: every case, random sessions, edge numbers, and
/// mutated texts — whatever this reader accepts the generic one reads to the same changes):
/// - the list itself must be `[…]` with nothing around it and no whitespace; each element an
///   object; otherwise `decode` returns nil and the caller uses the generic reader, which also
///   gives every error message (with its path);
/// - an element it does not read (an `updateSettings`, an escaped string, a number written
///   another way, a key out of order or unknown) is skipped over and read by the generic reader
///   alone, so one unusual change does not send a 100k-change entry down the slow path.
package struct ChangeReader {
    /// The text is not in the form this reader reads (the generic reader decides).
    package struct Miss: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var pos = 0
    private let column: String

    private init(_ bytes: UnsafeBufferPointer<UInt8>, column: String) {
        self.bytes = bytes
        self.column = column
    }

    /// The changes of `text`, nil when it must be read by the generic reader.
    package static func decode(_ text: String, column: String) -> [Change]? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = ChangeReader(bytes, column: column)
            return try? reader.list()
        }
    }

    private mutating func list() throws -> [Change] {
        try expect("[")
        var out: [Change] = []
        if peek("]") {
            pos += 1
        } else {
            while true {
                out.append(try element(out.count))
                if peek(",") { pos += 1; continue }
                try expect("]")
                break
            }
        }
        guard pos == bytes.count else { throw Miss() }
        return out
    }

    /// One change: read directly, or (a form this reader does not read) skipped and read by the
    /// generic reader from its own text.
    private mutating func element(_ index: Int) throws -> Change {
        let start = pos
        do {
            return try change()
        } catch is Miss {
            pos = start
            try skipObject()
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
            return try LogFormat.change(LogReader(try LogValue.parse(text), path: "\(column)[\(index)]"))
        }
    }

    private mutating func change() throws -> Change {
        try expect("{")
        let change: Change
        let insert = member("insertRow")
        if insert || member("removeRow") {
            var first = true
            let config = try required("config", &first) { try $0.rowConfig() }
            let id = try required("id", &first) { try $0.string() }
            let index = try required("index", &first) { try $0.int() }
            let parent = try optional("parent", &first) { try $0.string() }
            try end()
            change = insert ? .insertRow(id: id, config: config, parent: parent, index: index)
                : .removeRow(id: id, config: config, parent: parent, index: index)
        } else if member("updateRow") {
            var first = true
            let id = try required("id", &first) { try $0.string() }
            let new = try required("new", &first) { try $0.rowConfig() }
            let old = try required("old", &first) { try $0.rowConfig() }
            try end()
            change = .updateRow(id: id, old: old, new: new)
        } else if member("moveRow") {
            var first = true
            let fromIndex = try required("fromIndex", &first) { try $0.int() }
            let fromParent = try optional("fromParent", &first) { try $0.string() }
            let id = try required("id", &first) { try $0.string() }
            let toIndex = try required("toIndex", &first) { try $0.int() }
            let toParent = try optional("toParent", &first) { try $0.string() }
            try end()
            change = .moveRow(id: id, fromParent: fromParent, fromIndex: fromIndex, toParent: toParent, toIndex: toIndex)
        } else {
            throw Miss()
        }
        try expect("}")
        return change
    }

    // MARK: Objects

    /// At the start of an enum case's payload (`"name":`): consumes it when it is `name`.
    private mutating func member(_ name: StaticString) -> Bool {
        matchKey(at: pos, name).map { pos = $0 } != nil
    }

    /// Reads the member `key` of an object whose members come in sorted order: `{` before the
    /// first, `,` before the others. Nil when the next member is another one.
    private mutating func optional<T>(_ key: StaticString, _ first: inout Bool, _ read: (inout ChangeReader) throws -> T) throws -> T? {
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: first ? "{" : ","), let after = matchKey(at: pos + 1, key) else { return nil }
        pos = after
        first = false
        return try read(&self)
    }

    private mutating func required<T>(_ key: StaticString, _ first: inout Bool, _ read: (inout ChangeReader) throws -> T) throws -> T {
        guard let value = try optional(key, &first, read) else { throw Miss() }
        return value
    }

    /// The position after `"key":` at `at`, nil when something else is there.
    private func matchKey(at: Int, _ key: StaticString) -> Int? {
        let count = key.utf8CodeUnitCount
        guard at + count + 3 <= bytes.count, bytes[at] == UInt8(ascii: "\""), bytes[at + count + 1] == UInt8(ascii: "\""),
              bytes[at + count + 2] == UInt8(ascii: ":"),
              same(at: at + 1, key.utf8Start, count) else { return nil }
        return at + count + 3
    }

    private func matchKey(at: Int, _ key: [UInt8]) -> Int? {
        let count = key.count
        guard at + count + 3 <= bytes.count, bytes[at] == UInt8(ascii: "\""), bytes[at + count + 1] == UInt8(ascii: "\""),
              bytes[at + count + 2] == UInt8(ascii: ":"),
              key.withUnsafeBufferPointer({ same(at: at + 1, $0.baseAddress!, count) }) else { return nil }
        return at + count + 3
    }

    /// The end of an object read by `required`/`optional` (which opened it).
    private mutating func end() throws { try expect("}") }

    /// An object with exactly the members `read` takes, all required, in sorted order.
    private mutating func fixedObject<T>(_ read: (inout ChangeReader, inout Bool) throws -> T) throws -> T {
        var first = true
        let value = try read(&self, &first)
        if first { throw Miss() }
        try end()
        return value
    }

    /// A member of a row config's object, in the sorted order of its keys.
    private enum ConfigMember {
        case alignSelf, content, grow, hidden, insets, margin, separator, shrink, size, stack, sticky, type
        case optional(RowField)
    }

    /// Every key a config object may have, sorted as the tree writer sorts them (bytewise): the
    /// format-1 keys merged with the optional fields' log keys, computed once from `RowField`.
    private static let configMembers: [(key: [UInt8], member: ConfigMember)] = {
        let fixed: [(String, ConfigMember)] = [
            ("alignSelf", .alignSelf), ("content", .content), ("grow", .grow), ("hidden", .hidden), ("insets", .insets),
            ("margin", .margin), ("separator", .separator), ("shrink", .shrink), ("size", .size), ("stack", .stack),
            ("sticky", .sticky), ("type", .type),
        ]
        let all = fixed + RowField.optional.map { ($0.spec.log, ConfigMember.optional($0)) }
        return all.map { (Array($0.0.utf8), $0.1) }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }()

    private mutating func rowConfig() throws -> RowConfig {
        var config = RowConfig(type: "")
        var seen = 0, first = true
        for (key, member) in Self.configMembers {
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: first ? "{" : ","), let after = matchKey(at: pos + 1, key) else { continue }
            pos = after
            first = false
            switch member {
            case .alignSelf: config.alignSelf = try raw(); seen += 1
            case .content: config.content = try size(); seen += 1
            case .grow: config.grow = try double(); seen += 1
            case .hidden: config.hidden = try bool(); seen += 1
            case .insets: config.insets = try edges()
            case .margin: config.margin = try edges(); seen += 1
            case .separator: config.separator = try separator(); seen += 1
            case .shrink: config.shrink = try double(); seen += 1
            case .size: config.size = try rowSize(); seen += 1
            case .stack: config.stack = try stackSettings()
            case .sticky: config.sticky = try bool()
            case .type: config.type = try string(); seen += 1
            case let .optional(field):
                switch field.kind {
                case .format1: throw Miss()
                case .number: field.setNumber(try double(), &config)
                case .text: field.setText(try string(), &config)
                }
            }
        }
        // The nine members every config has (`LogFormat.rowConfig` requires them).
        guard seen == 9 else { throw Miss() }
        try end()
        return config
    }

    private mutating func edges() throws -> Edges {
        try fixedObject { r, first in
            let bottom = try r.required("bottom", &first) { try $0.double() }
            let left = try r.required("left", &first) { try $0.double() }
            let right = try r.required("right", &first) { try $0.double() }
            let top = try r.required("top", &first) { try $0.double() }
            return Edges(top: top, left: left, bottom: bottom, right: right)
        }
    }

    private mutating func size() throws -> Size {
        try fixedObject { r, first in
            let height = try r.required("height", &first) { try $0.double() }
            let width = try r.required("width", &first) { try $0.double() }
            return Size(width: width, height: height)
        }
    }

    private mutating func rowSize() throws -> RowSize {
        try expect("{")
        let size: RowSize
        if member("fit") {
            try expect("{")
            try expect("}")
            size = .fit
        } else if member("fixed") {
            size = .fixed(try fixedObject { r, first in try r.required("_0", &first) { try $0.double() } })
        } else {
            throw Miss()
        }
        try expect("}")
        return size
    }

    private mutating func separator() throws -> SeparatorOverrides {
        var first = true
        let color = try optional("color", &first) { try $0.string() }
        let hidden = try optional("hidden", &first) { try $0.bool() }
        let insets = try optional("insets", &first) { try $0.edges() }
        let thickness = try optional("thickness", &first) { try $0.double() }
        if first { try expect("{") }
        try end()
        return SeparatorOverrides(hidden: hidden, insets: insets, thickness: thickness, color: color)
    }

    private mutating func stackSettings() throws -> StackSettings {
        try fixedObject { r, first in
            let align: Align = try r.required("align", &first) { try $0.raw() }
            let axis: Axis = try r.required("axis", &first) { try $0.raw() }
            let justify: Justify = try r.required("justify", &first) { try $0.raw() }
            let spacing = try r.required("spacing", &first) { try $0.double() }
            return StackSettings(axis: axis, justify: justify, align: align, spacing: spacing)
        }
    }

    // MARK: Scalars

    private func peek(_ c: Unicode.Scalar) -> Bool { pos < bytes.count && bytes[pos] == UInt8(ascii: c) }

    private mutating func expect(_ c: Unicode.Scalar) throws {
        guard peek(c) else { throw Miss() }
        pos += 1
    }

    /// A string without escapes or control characters (anything else: the generic reader).
    private mutating func string() throws -> String {
        try expect("\"")
        let start = pos
        while pos < bytes.count {
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") {
                pos += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(pos - 1)]), as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { throw Miss() }
            pos += 1
        }
        throw Miss()
    }

    private mutating func raw<T: RawRepresentable>() throws -> T where T.RawValue == String {
        guard let value = T(rawValue: try string()) else { throw Miss() }
        return value
    }

    private mutating func bool() throws -> Bool {
        if matches("true") { pos += 4; return true }
        if matches("false") { pos += 5; return false }
        throw Miss()
    }

    private func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        return pos + count <= bytes.count && same(at: pos, word.utf8Start, count)
    }

    /// Whether the `count` bytes at `offset` are those at `other` (the caller checked the bounds).
    @inline(__always) private func same(at offset: Int, _ other: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for i in 0..<count where bytes[offset + i] != other[i] { return false }
        return true
    }

    /// A JSON number's extent (RFC 8259 grammar; nil: not a number here) and whether it is
    /// written as a whole number (no fraction, no exponent).
    private mutating func number() throws -> (start: Int, negative: Bool, integral: Bool) {
        let start = pos
        let negative = peek("-")
        if negative { pos += 1 }
        guard pos < bytes.count, isDigit(bytes[pos]) else { throw Miss() }
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < bytes.count, isDigit(bytes[pos]) { throw Miss() }
        } else {
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        var integral = true
        if peek(".") {
            integral = false
            pos += 1
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw Miss() }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        if peek("e") || peek("E") {
            integral = false
            pos += 1
            if peek("+") || peek("-") { pos += 1 }
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw Miss() }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        return (start, negative, integral)
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// The value of the digits `from..<pos` (at most 15: exact in a Double).
    private func digits(from: Int) -> Int {
        var v = 0
        for i in from..<pos { v = v * 10 + Int(bytes[i] - UInt8(ascii: "0")) }
        return v
    }

    /// A number as the generic reader gives it: the JSON parser's Double (whole numbers of up to
    /// 15 digits exactly, others by `Double(text)`, as `JSONParser` does), `-0` kept negative.
    private mutating func double() throws -> Double {
        let (start, negative, integral) = try number()
        let digitStart = start + (negative ? 1 : 0)
        if integral, pos - digitStart <= 15 {
            let v = Double(digits(from: digitStart))
            return negative ? -v : v
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw Miss() }
        return value
    }

    /// An integer written as a whole number of at most 15 digits (others, and `-0`, which the
    /// generic reader refuses as an integer: the generic reader).
    private mutating func int() throws -> Int {
        let (start, negative, integral) = try number()
        let digitStart = start + (negative ? 1 : 0)
        guard integral, pos - digitStart <= 15 else { throw Miss() }
        let v = digits(from: digitStart)
        if negative, v == 0 { throw Miss() }
        return negative ? -v : v
    }

    // MARK: Skipping

    /// Moves past the object at `pos` (strings and nesting followed; its validity is the
    /// generic reader's to check).
    private mutating func skipObject() throws {
        guard peek("{") else { throw Miss() }
        var depth = 0
        while pos < bytes.count {
            let b = bytes[pos]
            pos += 1
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return }
            case UInt8(ascii: "\""):
                while pos < bytes.count, bytes[pos] != UInt8(ascii: "\"") {
                    pos += bytes[pos] == UInt8(ascii: "\\") ? 2 : 1
                }
                pos += 1
            default: break
            }
        }
        throw Miss()
    }
}
