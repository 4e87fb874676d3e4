extension Parser {
    /// True for a line that holds only blanks and a comment (no command, no error to report).
    /// A line that does not tokenize is not blank: its error is reported.
    public static func isBlankOrComment(_ line: String) -> Bool {
        guard let tokens = try? Tokenizer.tokenize(line) else { return false }
        return tokens.isEmpty
    }
}
