import Layout

/// Reads one line of the command language into a `Command` (SPEC §4.1).
public enum Parser {
    /// The longest line read (issue 6: resource limits). Longer lines are refused unread.
    public static let maxLineLength = 1 << 20

    /// The command on `line`, or nil for a blank or comment-only line. Throws a `StackDocError`
    /// that names the bad word and what was expected.
    /// - Parameter line: One line of the command language (without its line break).
    /// - Returns: The command, or nil for a blank or comment-only line.
    /// - Throws: `StackDocError` for an unknown command, a bad or missing word, a bad quote or
    ///   escape, or a line longer than `maxLineLength`.
    public static func parse(_ line: String) throws -> Command? {
        guard line.utf8.count <= maxLineLength else {
            throw CommandError(.syntax(.lineTooLong(bytes: line.utf8.count, limit: maxLineLength)))
        }
        return try parse(tokens: try Tokenizer.tokenize(line))
    }

    /// The command of a line's words (`Tokenizer.tokenize`), or nil for none.
    static func parse(tokens: [Token]) throws -> Command? {
        guard let first = tokens.first else { return nil }
        guard !first.quoted, let spec = CommandTable.find(first.text) else {
            if first.quoted, CommandTable.find(first.text) != nil {
                throw CommandError(.syntax(.quotedCommandWord(first.text)))
            }
            if !first.quoted, let use = ForeignCommands.pointer(for: first.text) {
                throw CommandError(.syntax(.foreignCommand(first.text.lowercased(), use: use)))  // a key of the table: printable
            }
            throw CommandError(.syntax(.unknownCommand(first.text, suggestion: CommandTable.suggestion(for: first.text))))
        }
        var reader = WordReader(tokens)
        _ = reader.next()
        let command = try spec.parse(&reader)
        try reader.finish(usage: spec.usage.joined(separator: " | "))
        return command
    }
}
