import Foundation
import Layout

/// A JSON value of the log's on-disk format (`LogFormat`), encoded with sorted keys by
/// `JSONEncoder` (so equal values give equal bytes) and read back with StackDoc's own JSON parser
/// (integral numbers become `int`): no synthesized `Codable` anywhere, every key is spelled out
/// by `LogFormat`.
indirect enum LogValue: Hashable, Encodable {
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

    func encode(to encoder: Encoder) throws {
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

    /// Compact JSON with sorted keys.
    func text() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .throw
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Parses JSON text.
    static func parse(_ text: String) throws -> LogValue {
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
struct LogFormatError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
