/// A JSON value as StackDoc reads and writes it (RFC 8259). Objects keep their members in
/// order; the reader refuses duplicate keys, so a key names at most one member.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// Always finite: the reader refuses numbers out of Double's range.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The member named `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    /// What kind of value this is, for messages: `null`, `a boolean`, `a number`, …
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Hashable, Sendable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
