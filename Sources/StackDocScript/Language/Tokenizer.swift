import Layout

/// One word of a command line. `quoted` words were written in quotes: they are always values
/// (an id, a path, a type), never keywords.
struct Token: Hashable, Sendable {
    let text: String
    let quoted: Bool
    /// `text` lowercased (`keywordFolded`), made once: a word is compared with many keywords.
    let folded: String

    init(_ text: String, quoted: Bool = false) {
        self.text = text
        self.quoted = quoted
        self.folded = text.keywordFolded
    }

    /// True when this is the unquoted keyword `word` (keywords are case-insensitive).
    func isKeyword(_ word: String) -> Bool {
        !quoted && folded == word
    }

    /// How the word is shown in messages: `'abc'` (escaped and cut like every quoted value, so
    /// that a hostile word never floods a message or breaks it over lines).
    var shown: String { Validation.quoted(text) }
}

extension String {
    /// `lowercased()`, the form keywords are compared in, without making a new string when
    /// there is nothing to lower (ASCII without capitals: almost every word of a script).
    var keywordFolded: String {
        for byte in utf8 where byte >= 0x80 || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) {
            return lowercased()
        }
        return self
    }
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
    ///
    /// Words without quotes are read straight from the line's UTF-8 bytes, one `String` each
    /// (no allocation for words of up to 15 bytes); from the first word that holds a quote on,
    /// the rest of the line is read scalar by scalar (`readQuoted`), where the escapes are.
    /// Both give the same words: blanks, `#`, quotes and backslashes are ASCII, and UTF-8 never
    /// puts an ASCII byte inside a multi-byte scalar.
    static func tokenize(_ line: String) throws -> [Token] {
        var line = line
        return try line.withUTF8 { bytes in
            var tokens: [Token] = []
            var i = 0
            let n = bytes.count
            while true {
                while i < n, isBlank(bytes[i]) { i += 1 }
                guard i < n else { break }
                if bytes[i] == UInt8(ascii: "#") && !startsColorLiteral(bytes, at: i) && !afterColor(tokens) { break }
                var end = i
                while end < n, !isBlank(bytes[end]), bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "'") { end += 1 }
                if end < n, !isBlank(bytes[end]) {
                    // A quote in this word: the rest of the line, from the word's start.
                    var rest = Array(String(decoding: UnsafeBufferPointer(rebasing: bytes[i...]), as: UTF8.self).unicodeScalars)[...]
                    try readQuoted(&rest, into: &tokens)
                    break
                }
                tokens.append(Token(String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)))
                i = end
            }
            return tokens
        }
    }

    /// True when the word before is the keyword `color`: a `#` word after it is its (maybe
    /// bad) value, never a comment, so `color #12345` says what is wrong with the color.
    private static func afterColor(_ tokens: [Token]) -> Bool {
        tokens.last?.isKeyword("color") == true
    }

    /// The words of `chars` appended to `tokens`, scalar by scalar (quotes and escapes).
    private static func readQuoted(_ chars: inout ArraySlice<Unicode.Scalar>, into tokens: inout [Token]) throws {
        while true {
            while let c = chars.first, isBlank(c) { chars.removeFirst() }
            guard let first = chars.first else { break }
            if first == "#" && !startsColorLiteral(chars) && !afterColor(tokens) { break }
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
    }

    static func isBlank(_ b: UInt8) -> Bool {
        b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\r") || b == UInt8(ascii: "\n")
    }

    /// `#` followed by exactly six hex digits and then a blank or the end of the line (bytes).
    private static func startsColorLiteral(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        var end = start
        while end < bytes.count, !isBlank(bytes[end]) {
            end += 1
            if end - start > 7 { return false }
        }
        guard end - start == 7, bytes[start] == UInt8(ascii: "#") else { return false }
        return bytes[(start + 1)..<end].allSatisfy(isASCIIHexDigit)
    }

    private static func isASCIIHexDigit(_ b: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(b)
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
        throw CommandError(.syntax(.unterminatedQuote("'")))
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
                    throw CommandError(.syntax(.badEscape(String(e))))
                }
            default:
                text.append(c)
            }
        }
        throw CommandError(.syntax(.unterminatedQuote("\"")))
    }

    private static func readUnicodeEscape(_ chars: inout ArraySlice<Unicode.Scalar>) throws -> Unicode.Scalar {
        guard chars.first == "{" else { throw CommandError(.syntax(.unicodeEscapeWithoutBrace)) }
        chars.removeFirst()
        var hex = ""
        while let c = chars.first, c != "}" {
            chars.removeFirst()
            hex.unicodeScalars.append(c)
            if hex.count > 8 { break }
        }
        guard chars.first == "}" else { throw CommandError(.syntax(.unclosedUnicodeEscape(hex: hex))) }
        chars.removeFirst()
        guard (1...6).contains(hex.count), let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
            throw CommandError(.syntax(.notAUnicodeScalar(hex: hex)))
        }
        return scalar
    }

    /// A word as the tokenizer reads it back: bare when it can be, else double-quoted with
    /// escapes. `keywordSafe` words never need quoting to avoid being read as a keyword;
    /// `always` quotes every word.
    static func quote(_ word: String, keywordSafe: Bool = false, always: Bool = false) -> String {
        if !always, !word.isEmpty, keywordSafe || !Keywords.all.contains(word.keywordFolded),
           !containsScalarNeedingQuotes(word), !word.hasPrefix("#") || isColorLiteral(word) {
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

    /// True when a scalar of `word` needs quoting. ASCII words (almost all) are checked byte by
    /// byte: an ASCII scalar needs quoting when it is a control character, a blank, a space or
    /// a quote or backslash (the ASCII scalars for which `needsQuoting` is true).
    private static func containsScalarNeedingQuotes(_ word: String) -> Bool {
        for byte in word.utf8 {
            if byte >= 0x80 { return word.unicodeScalars.contains(where: needsQuoting) }
            if byte < 0x21 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\\") {
                return true
            }
        }
        return false
    }

    static func needsQuoting(_ c: Unicode.Scalar) -> Bool {
        isBlank(c) || c == "\"" || c == "'" || c == "\\" || c.value < 0x21 || c.value == 0x7F
            || c.isEscapedInText || c.properties.isWhitespace
    }
}
