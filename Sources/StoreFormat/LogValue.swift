import Layout

/// A JSON value of the log's on-disk format (`LogFormat`), encoded with sorted keys by
/// `JSONEncoder` (so equal values give equal bytes) and read back with StackDoc's own JSON parser
/// (integral numbers become `int`): no synthesized `Codable` anywhere, every key is spelled out
/// by `LogFormat`.
package indirect enum LogValue: Hashable, Encodable {
    case object([String: LogValue])
    case array([LogValue])
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package func encode(to encoder: Encoder) throws {
        switch self {
        case let .object(fields):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in fields { try container.encode(value, forKey: Key(stringValue: key)) }
        case let .array(items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case let .string(s):
            var container = encoder.singleValueContainer()
            try container.encode(s)
        case let .int(i):
            var container = encoder.singleValueContainer()
            try container.encode(i)
        case let .double(d):
            var container = encoder.singleValueContainer()
            try container.encode(d)
        case let .bool(b):
            var container = encoder.singleValueContainer()
            try container.encode(b)
        }
    }

    /// Compact JSON with sorted keys: byte for byte what `JSONEncoder` writes with
    /// `[.sortedKeys, .withoutEscapingSlashes]` (`LogFormatTests` compares them), written by hand
    /// because the encoder cost ≈ 3 s of the 4.3 s that `clear` of 100k rows took (its tree of
    /// containers per value). A non-finite number throws, as the encoder's `.throw` strategy.
    package func text() throws -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        try write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact JSON of the value (see `text()`).
    package func write(to out: inout [UInt8]) throws {
        switch self {
        case let .object(fields):
            out.append(UInt8(ascii: "{"))
            var first = true
            for key in fields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                try fields[key]!.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case let .array(items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                try item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .string(s):
            Self.writeString(s, to: &out)
        case let .int(i):
            out.append(contentsOf: String(i).utf8)
        case let .double(d):
            guard d.isFinite else { throw EncodingError.invalidValue(d, .init(codingPath: [], debugDescription: "non-finite number")) }
            var text = d.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            out.append(contentsOf: text.utf8)
        case let .bool(b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        }
    }

    /// A JSON string as `JSONEncoder` writes it: `"` and `\` escaped, `\b \f \n \r \t` for
    /// those controls, `\u00XX` (lower-case hex) for the other controls, everything else as is.
    package static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: s.utf8)  // nothing to escape (ids, types, colours): one copy
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Parses JSON text.
    package static func parse(_ text: String) throws -> LogValue {
        let json: JSONValue
        do { json = try JSONParser.parse(text) } catch { throw LogFormatError("not valid JSON") }
        return try LogValue(json)
    }

    private init(_ json: JSONValue) throws {
        switch json {
        case .null: throw LogFormatError("null where no value may be null")
        case let .bool(b): self = .bool(b)
        case let .number(d): self = d.sign == .minus && d == 0 ? .double(d) : Int(exactly: d).map(LogValue.int) ?? .double(d)
        case let .string(s): self = .string(s)
        case let .array(items): self = .array(try items.map(LogValue.init))
        case let .object(members):
            var fields: [String: LogValue] = [:]
            for member in members { fields[member.key] = try LogValue(member.value) }
            self = .object(fields)
        }
    }
}

/// What is wrong with a stored log payload, as a path and a reason
/// (`add.spec[2]: unknown row spec 'wobble'`); `LogFormat` adds the document and entry.
package struct LogFormatError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
