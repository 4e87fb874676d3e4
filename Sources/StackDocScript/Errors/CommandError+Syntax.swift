import Layout

extension CommandError {
    /// A line of the command language that does not parse (SPEC §4.1): what the tokenizer, the
    /// parser and the word readers refuse. User words are kept as written; `message` quotes
    /// and escapes them (`Validation.quoted`).
    public enum Syntax: Hashable, Sendable {
        /// `expected WHAT after 'PREV', got 'WORD'`: `what` is the grammar's description, `after`
        /// the word before (empty: none), `got` the word found (nil: the end of the line).
        case expected(String, after: String, got: String?)
        /// Words left over after a whole command: the first of them, the word before, the
        /// command's usage.
        case unexpected(String, after: String, usage: String)
        /// A quoted word without its closing quote (`quote` is `'` or `"`).
        case unterminatedQuote(Character)
        /// A backslash escape other than `\\ \" \n \t \r \u{HEX}`, as written after the backslash
        /// (shown escaped like every quoted value, so a control character never reaches the
        /// terminal raw: found by the libFuzzer `command` target).
        case badEscape(String)
        /// `\u` not followed by `{`.
        case unicodeEscapeWithoutBrace
        /// `\u{HEX` without its closing `}` (the digits read).
        case unclosedUnicodeEscape(hex: String)
        /// `\u{HEX}` that is not a unicode scalar.
        case notAUnicodeScalar(hex: String)
        /// A line longer than the parser reads.
        case lineTooLong(bytes: Int, limit: Int)
        /// A command word written in quotes.
        case quotedCommandWord(String)
        /// A first word that is no command; `suggestion`: the command it is closest to.
        case unknownCommand(String, suggestion: String?)
        /// A second position in one `add` (the word that starts it).
        case secondPosition(command: String, at: String)
        /// A second `in ROW` in one `add`.
        case secondParent(command: String)
        /// `help WORD` of a word that is no command or topic.
        case noHelp(String, suggestion: String?, commands: [String])
        /// `help COMMAND FORM` of a form the command does not have.
        case noHelpForm(String, command: String, forms: [String])
        /// An unquoted word where a row id may go that is one or two edits from a ROWSPEC
        /// keyword (`add a fixd`): `keyword` is the one it is closest to.
        case lookalikeKeyword(String, keyword: String)
        /// A first word that is a sqlite3 or psql command (`\q`, `.mode`): what to use instead.
        case foreignCommand(String, use: String)
    }
}

// The text of a syntax error (`CommandError.message`).
extension CommandError {
    static func text(_ s: Syntax) -> String {
        let q = Validation.quoted
        // A user's text inside a quoted message part: escaped like every quoted value.
        func inner(_ t: String) -> Substring { q(t).dropFirst().dropLast() }
        switch s {
        case let .expected(what, after, got):
            return "expected \(what)\(after.isEmpty ? "" : " after \(q(after))"), got \(got.map(q) ?? "end of line")"
        case let .unexpected(word, after, usage):
            return "unexpected \(q(word)) after \(q(after)) (usage: \(usage))"
        case let .unterminatedQuote(quote):
            return "unterminated quote: a word starting with \(quote) has no closing \(quote)"
        case let .badEscape(e):
            return "bad escape '\\\(inner(e))' in a quoted word (use \\\\, \\\", \\n, \\t, \\r or \\u{HEX})"
        case .unicodeEscapeWithoutBrace:
            return "bad escape: expected '{' after '\\u'"
        case let .unclosedUnicodeEscape(hex):
            return "bad escape: '\\u{\(inner(hex))' has no closing '}'"
        case let .notAUnicodeScalar(hex):
            return "bad escape: '\\u{\(inner(hex))}' is not a unicode scalar"
        case let .lineTooLong(bytes, limit):
            return "line too long: \(bytes) bytes (the limit is \(limit))"
        case let .quotedCommandWord(word):
            return "unknown command \(q("\"" + word + "\"")): a command word is not quoted"
        case let .unknownCommand(word, suggestion):
            return "unknown command \(q(word)) (\(suggestion.map { "did you mean \(q($0))? " } ?? "")type 'help' for the list)"
        case let .secondPosition(command, at):
            return "\(q(command)) takes one position, got a second one at \(q(at))"
        case let .secondParent(command):
            return "\(q(command)) takes one 'in ROW', got a second one"
        case let .noHelp(word, suggestion, commands):
            return "no help for \(q(word))\(suggestion.map { " (did you mean \(q($0))?)" } ?? ""): the commands are \(commands.joined(separator: " ")), and the topics rowspec, sepspec"
        case let .noHelpForm(word, command, forms):
            return "no help for \(q(word)): the forms of \(command) are \(forms.map { "'\($0)'" }.joined(separator: ", "))"
        case let .lookalikeKeyword(word, keyword):
            return "\(q(word)) is not a row spec word: did you mean \(q(keyword))? (quote a row id that looks like one: \"\(inner(word))\")"
        case let .foreignCommand(word, use):
            // The word comes from the table of sqlite3 and psql commands: printed as typed.
            return "unknown command '\(word)': \(use)"
        }
    }
}
