import Layout

/// The payloads of `mark` and `restore` log entries (schema 6), in the log's JSON
/// (`LogValue`, sorted keys): a mark `{"cursor":C,"step":S}` (the undo cursor when it was made and
/// the first log entry of step C, 0 when C is 0); a restore `{"target":N}` (the log entry whose
/// state it restored) plus `"mark":NAME` when it was named by a mark.
package enum HistoryPayload {
    package static func mark(cursor: Int, step: Int) throws -> String {
        try LogValue.object(["cursor": .int(cursor), "step": .int(step)]).text()
    }

    package static func restore(target: Int, mark: String?) throws -> String {
        var fields: [String: LogValue] = ["target": .int(target)]
        if let mark { fields["mark"] = .string(mark) }
        return try LogValue.object(fields).text()
    }

    /// (cursor, first entry of that step) of a mark's payload.
    package static func mark(_ payload: String?) throws -> (Int, Int) {
        let fields = try object(payload)
        return (try int(fields, "cursor"), try int(fields, "step"))
    }

    package static func restoreTarget(_ payload: String?) throws -> Int {
        try int(try object(payload), "target")
    }

    /// The mark name a restore was given, if any.
    package static func restoreMark(_ payload: String?) throws -> String? {
        guard case let .string(name)? = try object(payload)["mark"] else { return nil }
        return name
    }

    private static func object(_ payload: String?) throws -> [String: LogValue] {
        guard let payload else { throw LogFormatError("no payload") }
        guard case let .object(fields) = try LogValue.parse(payload) else { throw LogFormatError("expected an object") }
        return fields
    }

    private static func int(_ fields: [String: LogValue], _ key: String) throws -> Int {
        guard case let .int(value)? = fields[key] else { throw LogFormatError("\(key): expected an integer") }
        return value
    }
}
