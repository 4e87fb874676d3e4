import Foundation
import Layout

/// JSON of log payloads (edits, changes, settings): sorted keys, so equal values give equal text.
enum JSONCoding {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .throw
        let data = try encoder.encode(value)
        return String(decoding: data, as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String, what: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw StackDocError("cannot decode the \(what): \(StoreFailure.reason(error))")
        }
    }
}
