import Foundation

/// A JSON value of the log's on-disk format (`LogFormat`), encoded with sorted keys by
/// `JSONEncoder` (so equal values give equal bytes) and read back without any synthesized
/// `Codable`: every key is spelled out by `LogFormat`.
indirect enum LogValue: Hashable, Codable {
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

    init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            var fields: [String: LogValue] = [:]
            for key in keyed.allKeys { fields[key.stringValue] = try keyed.decode(LogValue.self, forKey: key) }
            self = .object(fields)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [LogValue] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(LogValue.self)) }
            self = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if let b = try? single.decode(Bool.self) {
                self = .bool(b)
            } else if let i = try? single.decode(Int.self) {
                self = .int(i)
            } else if let d = try? single.decode(Double.self) {
                self = .double(d)
            } else if let s = try? single.decode(String.self) {
                self = .string(s)
            } else {
                throw LogFormatError("a null or an unreadable value")
            }
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
        do {
            return try JSONDecoder().decode(LogValue.self, from: Data(text.utf8))
        } catch let error as LogFormatError {
            throw error
        } catch {
            throw LogFormatError("not valid JSON")
        }
    }
}

/// What is wrong with a stored log payload, as a path and a reason
/// (`add.spec[2]: unknown row spec 'wobble'`); `LogFormat` adds the document and entry.
struct LogFormatError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
