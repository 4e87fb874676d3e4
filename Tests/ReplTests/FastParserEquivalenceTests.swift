import Foundation
import Layout
import OrderStatistics
import Testing
@testable import StackDocScript
import StackDocTestSupport

/// The parser's fast paths (issue 15 item 8: a 100k-line `log export` script is mostly parsing)
/// against the code they replaced, kept here as the reference: on random and mutated lines the
/// tokenizer gives the same words or the same error, the parser the same command or the same
/// message, and the word helpers (`keywordFolded`, numbers, counts, quoting, command lookup) the
/// same answers as before.
@Suite(.longRunning) struct FastParserEquivalenceTests {
    /// Lines of the golden scripts: every feature of the language.
    static let corpus: [String] = {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("scripts").path
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".sd") }.sorted()
        return names.flatMap { name in
            ((try? String(contentsOfFile: dir + "/" + name, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }()

    /// Pieces random lines are made of: words of the language, and every kind of character the
    /// tokenizer treats apart (blanks, quotes, escapes, `#`, hex digits, capitals, non-ASCII
    /// letters whose lowercase is ASCII or longer, combining marks, controls, emoji).
    static let pieces: [String] = [
        "add", "ADD", "Add", "set", "move", "remove", "fixed", "FIXED", "in", "IN", "at", "top", "after", "color", "COLOR",
        "separator", "insets", "text", "char", "line", "type", "stack", "vertical", "none", "import", "begin", "commit",
        "r1", "r99999", "x", "0", "12", "-3", "+4", "-0", "1.5", ".5", "5.", "1e3", "1E-2", "1e", "0x10", "nan", "inf",
        "007", "123456789012345", "1234567890123456", "99999999999999999999", "#", "#abcdef", "#ABCDEF", "#12345",
        "#1234567", "#12345g", " ", "  ", "\t", "\r", "\"", "'", "\\", "\\n", "\\t", "\\u{41}", "\\u{1F600}", "\\u{",
        "\\u{110000}", "\\u{D800}", "\\q", "\\é", "é", "É", "\u{212A}", "\u{0130}", "ß", "\u{0301}", "😀", "\u{7}",
        "\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{200B}", "--visible", "--at", "now~1", "-", "_", "ａｄｄ",
    ]

    static func randomLine(_ rng: inout SplitMix64) -> String {
        if rng.chance(3), let base = corpus.randomElement(using: &rng) {
            // A golden line, maybe with a piece put in somewhere.
            guard rng.chance(2), !base.isEmpty else { return base }
            var scalars = Array(base.unicodeScalars)
            let at = rng.int(0..<(scalars.count + 1))
            scalars.insert(contentsOf: rng.pick(pieces).unicodeScalars, at: at)
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars)
            return String(out)
        }
        var line = ""
        for _ in 0..<rng.int(0..<12) {
            line += rng.pick(pieces)
            if rng.chance(2) { line += " " }
        }
        return line
    }

    enum Outcome<T: Equatable>: Equatable {
        case value(T)
        case error(String)
    }

    static func outcome<T: Equatable>(_ body: () throws -> T) -> Outcome<T> {
        do { return .value(try body()) } catch { return .error("\(error)") }
    }

    @Test func theTokenizerAndParserAgreeWithTheOldTokenizer() {
        var rng = SplitMix64(seed: 0x5EED_0815)
        var quotedLines = 0
        for _ in 0..<20_000 {
            let line = Self.randomLine(&rng)
            let new = Self.outcome { try Tokenizer.tokenize(line) }
            let old = Self.outcome { try ReferenceTokenizer.tokenize(line) }
            #expect(new == old, "line \(line.debugDescription)")
            if line.contains("\"") || line.contains("'") { quotedLines += 1 }
            // The whole parser on the new words and on the old words.
            let parsed = Self.outcome { try Parser.parse(line) }
            let reference = Self.outcome { () -> Command? in
                guard line.utf8.count <= Parser.maxLineLength else { return try Parser.parse(line) }
                return try Parser.parse(tokens: try ReferenceTokenizer.tokenize(line))
            }
            #expect(parsed == reference, "line \(line.debugDescription)")
        }
        #expect(quotedLines > 1000)  // the scalar path ran too
    }

    @Test func everyGoldenLineParsesAsBefore() {
        for line in Self.corpus {
            #expect(Self.outcome { try Tokenizer.tokenize(line) } == Self.outcome { try ReferenceTokenizer.tokenize(line) }, "\(line)")
        }
    }

    @Test func wordHelpersAgreeWithTheOldOnes() {
        var rng = SplitMix64(seed: 42)
        var words = Self.pieces + CommandTable.all.flatMap { [$0.name, $0.name.uppercased()] + $0.aliases }
        for _ in 0..<5_000 {
            words.append((0..<rng.int(1..<4)).map { _ in rng.pick(Self.pieces) }.joined())
        }
        for word in words {
            #expect(word.keywordFolded == word.lowercased(), "\(word.debugDescription)")
            #expect(WordReader.parseNumber(word)?.bitPattern == ReferenceTokenizer.parseNumber(word)?.bitPattern, "\(word.debugDescription)")
            #expect(Tokenizer.quote(word) == ReferenceTokenizer.quote(word), "\(word.debugDescription)")
            #expect(Tokenizer.quote(word, keywordSafe: true) == ReferenceTokenizer.quote(word, keywordSafe: true), "\(word.debugDescription)")
            #expect(CommandTable.find(word)?.name == ReferenceTokenizer.find(word)?.name, "\(word.debugDescription)")
            for quoted in [false, true] {
                var reader = WordReader([Token(word, quoted: quoted)])
                let count = Self.outcome { try reader.count("a count") }
                let oldCount: Outcome<Int> = !quoted && word.allSatisfy(\.isASCIIDigit) && Int(word) != nil
                    ? .value(Int(word)!) : .error("\(WordReader([Token(word, quoted: quoted)]).expected("a count"))")
                #expect(count == oldCount, "\(word.debugDescription)")
                for keyword in ["add", "color", "in", "fixed", "k", "i̇"] {
                    #expect(Token(word, quoted: quoted).isKeyword(keyword) == (!quoted && word.lowercased() == keyword))
                }
            }
        }
    }
}

/// The tokenizer, number reader, quoting and command lookup as they were before the fast paths
/// (main 1f521e9), word for word, as the reference of `FastParserEquivalenceTests`.
enum ReferenceTokenizer {
    static func tokenize(_ line: String) throws -> [Token] {
        var tokens: [Token] = []
        var chars = Array(line.unicodeScalars)[...]
        while true {
            while let c = chars.first, isBlank(c) { chars.removeFirst() }
            guard let first = chars.first else { break }
            let afterColor = !(tokens.last?.quoted ?? true) && tokens.last?.text.lowercased() == "color"
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

    private static func startsColorLiteral(_ chars: ArraySlice<Unicode.Scalar>) -> Bool {
        var word = ""
        for c in chars {
            if isBlank(c) { break }
            word.unicodeScalars.append(c)
            if word.unicodeScalars.count > 7 { return false }
        }
        return isColorLiteral(word)
    }

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

    static func quote(_ word: String, keywordSafe: Bool = false) -> String {
        if !word.isEmpty, keywordSafe || !Keywords.all.contains(word.lowercased()),
           !word.unicodeScalars.contains(where: Tokenizer.needsQuoting), !word.hasPrefix("#") || isColorLiteral(word) {
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

    static func parseNumber(_ text: String) -> Double? {
        var s = Substring(text)
        if s.first == "+" || s.first == "-" { s = s.dropFirst() }
        let mantissaEnd = s.firstIndex(where: { $0 == "e" || $0 == "E" }) ?? s.endIndex
        let mantissa = s[..<mantissaEnd]
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              parts.contains(where: { !$0.isEmpty }) else { return nil }
        if mantissaEnd != s.endIndex {
            var exp = s[s.index(after: mantissaEnd)...]
            if exp.first == "+" || exp.first == "-" { exp = exp.dropFirst() }
            guard !exp.isEmpty, exp.allSatisfy(\.isASCIIDigit) else { return nil }
        }
        guard let v = Double(text), v.isFinite else { return nil }
        return v
    }

    static func find(_ word: String) -> CommandSpec? {
        let w = word.lowercased()
        return CommandTable.all.first { $0.name == w || $0.aliases.contains(w) }
    }
}
