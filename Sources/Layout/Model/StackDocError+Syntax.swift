extension StackDocError {
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
