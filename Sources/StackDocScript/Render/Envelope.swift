import Layout

/// The one-line JSON envelope of SPEC §4.2 for one command.
public enum Envelope {
    /// `{"ok":true,"command":…,"result":…,"events":[…]}`.
    /// - Parameters:
    ///   - command: The command's canonical text (`Printer.text`).
    ///   - result: What it produced.
    ///   - ms: With `timer on`, the command's wall time in milliseconds: `"ms"` follows `events`.
    public static func success(command: String, result: CommandResult, ms: Double? = nil) -> String {
        var out: [UInt8] = []
        write(command: command, result: result, ms: ms) { out.append(contentsOf: $0) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `success(command:result:ms:)` in pieces of bytes, as it is made (a whole layout's rows a
    /// block at a time): joined, they are the envelope's line, without its line break.
    /// - Parameters:
    ///   - command: The command's canonical text (`Printer.text`).
    ///   - result: What it produced.
    ///   - ms: With `timer on`, the command's wall time in milliseconds.
    ///   - piece: Receives each piece, in order.
    /// - Throws: What `piece` throws (the pieces after it are not made).
    public static func write(command: String, result: CommandResult, ms: Double? = nil,
                             to piece: ([UInt8]) throws -> Void) rethrows {
        var out: [UInt8] = []
        out.append(contentsOf: #"{"ok":true,"command":"#.utf8)
        JSONWriter.appendString(command, to: &out)
        out.append(contentsOf: #","result":"#.utf8)
        try piece(out)
        try result.writeJSON(piece)
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: #","events":"#.utf8)
        JSONWriter.append(.array(result.events.map(LayoutOutput.eventJSON) + result.stuckEvents.map(LayoutOutput.eventJSON)),
                          to: &out, pretty: false, indent: 0)
        if let ms {
            out.append(contentsOf: #","ms":"#.utf8)
            out.append(contentsOf: Timing.milliseconds(ms).utf8)
        }
        out.append(UInt8(ascii: "}"))
        try piece(out)
    }

    /// `{"ok":false,"error":…,"line":N}`, with `"file"` when several scripts run.
    /// - Parameters:
    ///   - error: The error's message.
    ///   - line: The line of the failed command, from 1.
    ///   - file: The script's file, when several run.
    public static func failure(error: String, line: Int, file: String? = nil) -> String {
        var members = [JSONMember("ok", .bool(false)), JSONMember("error", .string(error)), JSONMember("line", .number(Double(line)))]
        if let file { members.append(JSONMember("file", .string(file))) }
        return JSONWriter.compact(.object(members))
    }
}
