import Layout

/// One word of a command line. `quoted` words were written in quotes: they are always values
/// (an id, a path, a type), never keywords.
struct Token: Hashable, Sendable {
    var text: String
    var quoted: Bool

    init(_ text: String, quoted: Bool = false) {
        self.text = text
        self.quoted = quoted
    }

    /// True when this is the unquoted keyword `word` (keywords are case-insensitive).
    func isKeyword(_ word: String) -> Bool {
        !quoted && text.lowercased() == word
    }

    /// How the word is shown in messages: `'abc'` (escaped and cut like every quoted value, so
    /// that a hostile word never floods a message or breaks it over lines).
    var shown: String { Validation.quoted(text) }
}

/// Splits one line of the command language into words (SPEC §4.1).
///
/// - Words are separated by blanks (spaces, tabs).
/// - `"…"` quotes a word with backslash escapes (`\"`, `\\`, `\n`, `\t`, `\r`, `\u{HEX}`);
///   `'…'` quotes a word literally. Quoting joins with adjacent text (`a"b c"` is one word).
/// - An unquoted word that starts with `#` starts a comment that runs to the end of the line,
///   except a color literal `#RRGGBB` (six hex digits), which is an ordinary word.
enum Tokenizer {
    /// The words of `line`; throws for an unterminated quote or a bad escape.
    static func tokenize(_ line: String) throws -> [Token] {
        var tokens: [Token] = []
        var chars = Array(line.unicodeScalars)[...]
        while true {
            while let c = chars.first, isBlank(c) { chars.removeFirst() }
            guard let first = chars.first else { break }
            // A `#` word after the keyword `color` is its (maybe bad) value, never a comment, so
            // `color #12345` says what is wrong with the color.
            let afterColor = tokens.last?.isKeyword("color") == true
            if first == "#" && !startsColorLiteral(chars) && !afterColor { break }
            var text = String.UnicodeScalarView()
            var quoted = false
            while let c = chars.first, !isBlank(c) {
                chars.removeFirst()
                switch c {
                case "\"":
                    quoted = true
                    try readDoubleQuoted(&chars, into: &text)
                case "'":
                    quoted = true
                    try readSingleQuoted(&chars, into: &text)
                default:
                    text.append(c)
                }
            }
            tokens.append(Token(String(text), quoted: quoted))
        }
        return tokens
    }

    static func isBlank(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\t" || c == "\r" || c == "\n"
    }

    /// `#` followed by exactly six hex digits and then a blank or the end of the line.
    private static func startsColorLiteral(_ chars: ArraySlice<Unicode.Scalar>) -> Bool {
        var word = ""
        for c in chars {
            if isBlank(c) { break }
            word.unicodeScalars.append(c)
            if word.unicodeScalars.count > 7 { return false }
        }
        return isColorLiteral(word)
    }

    /// True for `#RRGGBB` with hex digits of either case.
    static func isColorLiteral(_ word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count == 7, scalars[0] == "#" else { return false }
        return scalars.dropFirst().allSatisfy { $0.properties.isASCIIHexDigit }
    }

    private static func readSingleQuoted(_ chars: inout ArraySlice<Unicode.Scalar>,
                                         into text: inout String.UnicodeScalarView) throws {
        while let c = chars.first {
            chars.removeFirst()
            if c == "'" { return }
            text.append(c)
        }
        throw StackDocError(.syntax(.unterminatedQuote("'")))
    }

    private static func readDoubleQuoted(_ chars: inout ArraySlice<Unicode.Scalar>,
                                         into text: inout String.UnicodeScalarView) throws {
        while let c = chars.first {
            chars.removeFirst()
            switch c {
            case "\"":
                return
            case "\\":
                guard let e = chars.first else { break }
                chars.removeFirst()
                switch e {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "\\", "\"", "'": text.append(e)
                case "u":
                    text.append(try readUnicodeEscape(&chars))
                default:
                    throw StackDocError(.syntax(.badEscape(String(e))))
                }
            default:
                text.append(c)
            }
        }
        throw StackDocError(.syntax(.unterminatedQuote("\"")))
    }

    private static func readUnicodeEscape(_ chars: inout ArraySlice<Unicode.Scalar>) throws -> Unicode.Scalar {
        guard chars.first == "{" else { throw StackDocError(.syntax(.unicodeEscapeWithoutBrace)) }
        chars.removeFirst()
        var hex = ""
        while let c = chars.first, c != "}" {
            chars.removeFirst()
            hex.unicodeScalars.append(c)
            if hex.count > 8 { break }
        }
        guard chars.first == "}" else { throw StackDocError(.syntax(.unclosedUnicodeEscape(hex: hex))) }
        chars.removeFirst()
        guard (1...6).contains(hex.count), let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
            throw StackDocError(.syntax(.notAUnicodeScalar(hex: hex)))
        }
        return scalar
    }

    /// A word as the tokenizer reads it back: bare when it can be, else double-quoted with
    /// escapes. `keywordSafe` words never need quoting to avoid being read as a keyword.
    static func quote(_ word: String, keywordSafe: Bool = false) -> String {
        if !word.isEmpty, keywordSafe || !Keywords.all.contains(word.lowercased()),
           !word.unicodeScalars.contains(where: needsQuoting), !word.hasPrefix("#") || isColorLiteral(word) {
            return word
        }
        var out = "\""
        for c in word.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if c.isEscapedInText { out += c.escapedForText } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    private static func needsQuoting(_ c: Unicode.Scalar) -> Bool {
        isBlank(c) || c == "\"" || c == "'" || c == "\\" || c.value < 0x21 || c.value == 0x7F
            || c.isEscapedInText || c.properties.isWhitespace
    }
}
