import Layout

/// The payloads of `mark` and `restore` log entries (schema 6), in the log's JSON
/// (`LogValue`, sorted keys): a mark `{"cursor":C,"step":S}` (the undo cursor when it was made and
/// the first log entry of step C, 0 when C is 0); a restore `{"target":N}` (the log entry whose
/// state it restored) plus `"mark":NAME` when it was named by a mark; a compensating step (also a
/// `restore` entry: one undo step of planned row changes) `{"revert":"undo","steps":[[F,L],…]}`
/// (or `"redo"`): the log entries of the steps of its origin it reverts or re-applies; a
/// `commit` that rolls its group back (`rollback`) `{"rollback":true}`.
package enum HistoryPayload {
    /// The payload of a `commit` entry that rolls its group back instead (SPEC §3: a `rollback`
    /// after another origin wrote): its `forward` holds the compensating changes.
    package static let rollback = #"{"rollback":true}"#

    package static func mark(cursor: Int, step: Int) throws -> String {
        try LogValue.object(["cursor": .int(cursor), "step": .int(step)]).text()
    }

    package static func restore(target: Int, mark: String?) throws -> String {
        var fields: [String: LogValue] = ["target": .int(target)]
        if let mark { fields["mark"] = .string(mark) }
        return try LogValue.object(fields).text()
    }

    package static func revert(undo: Bool, steps: [ClosedRange<Int>]) throws -> String {
        try LogValue.object([
            "revert": .string(undo ? "undo" : "redo"),
            "steps": .array(steps.map { .array([.int($0.lowerBound), .int($0.upperBound)]) }),
        ]).text()
    }

    /// A compensating step's payload: whether it undoes (else redoes) and the steps' log entries;
    /// nil for the payload of a `restore REF`.
    package static func revert(_ payload: String?) throws -> (undo: Bool, steps: [ClosedRange<Int>])? {
        let fields = try object(payload)
        guard let kind = fields["revert"] else { return nil }
        guard case let .string(word) = kind, word == "undo" || word == "redo" else { throw LogFormatError("revert: expected undo or redo") }
        guard case let .array(items)? = fields["steps"], !items.isEmpty else { throw LogFormatError("steps: expected an array") }
        let steps = try items.map { item -> ClosedRange<Int> in
            guard case let .array(pair) = item, pair.count == 2, case let .int(first) = pair[0], case let .int(last) = pair[1],
                  first >= 1, first <= last else { throw LogFormatError("steps: expected [first, last] log entries") }
            return first...last
        }
        return (word == "undo", steps)
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
