extension Unicode.Scalar {
    /// True for the characters StackDoc never writes raw into text output (issue 10): control
    /// characters (C0 including NUL, ESC and BEL, DEL, C1), format characters (bidi overrides
    /// such as U+202E, zero-width characters, U+FEFF) and the line and paragraph separators.
    /// Written raw, these would move the cursor, ring the bell, reorder or hide what follows, or
    /// break a line. Every text output writes them as `escapedForText` instead: the messages
    /// (`Validation.quoted`) and the command language (`Tokenizer.quote`, and through it every
    /// id, name, path and label the REPL prints).
    public var isEscapedInText: Bool {
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// The escape of a scalar in text: `\n`, `\t`, `\r`, else `\u{HEX}` (lowercase hex), the
    /// form the command language reads back inside double quotes.
    public var escapedForText: String {
        switch self {
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default: return "\\u{" + String(value, radix: 16) + "}"
        }
    }
}
