import Layout
import Store

/// Reads the words of one command line left to right, with errors that name the bad word and
/// what was expected: `expected a number after 'fixed', got 'abc'`.
struct WordReader {
    private(set) var tokens: [Token]
    private(set) var position = 0

    init(_ tokens: [Token]) {
        self.tokens = tokens
    }

    var atEnd: Bool { position >= tokens.count }
    func peek() -> Token? { position < tokens.count ? tokens[position] : nil }

    /// The last word read, for messages (`'fixed'`), or the empty string at the start.
    var previous: String { position > 0 ? tokens[position - 1].text : "" }

    mutating func next() -> Token? {
        guard position < tokens.count else { return nil }
        defer { position += 1 }
        return tokens[position]
    }

    /// An error `expected WHAT after 'PREV', got 'WORD'` (or `got end of line`) for the next word.
    func expected(_ what: String, after: String? = nil) -> CommandError {
        CommandError(.syntax(.expected(what, after: after ?? previous, got: peek()?.text)))
    }

    /// True (and the word is consumed) when the next word is the unquoted keyword `word`.
    mutating func consume(_ word: String) -> Bool {
        guard let t = peek(), t.isKeyword(word) else { return false }
        position += 1
        return true
    }

    /// The next word must be the keyword `word`.
    mutating func expect(_ word: String, after: String? = nil) throws {
        guard consume(word) else { throw expected("'\(word)'", after: after) }
    }

    /// Any word, as a value (an id, a name, a path, a type).
    mutating func value(_ what: String, after: String? = nil) throws -> String {
        guard let t = peek() else { throw expected(what, after: after) }
        position += 1
        return t.text
    }

    /// Every word left on the line, as values (`begin LABEL`, `echo TEXT`).
    mutating func rest() -> [String] {
        var words: [String] = []
        while let t = next() { words.append(t.text) }
        return words
    }

    /// A point of the history: a log entry number, a mark name, `now` or `now~N`.
    mutating func ref(after: String? = nil) throws -> HistoryRef {
        let what = "a history point (a log entry number, a mark name, now or now~N)"
        guard let t = peek(), let ref = t.quoted ? (HistoryRef.isValidMarkName(t.text) ? HistoryRef.mark(t.text) : nil) : HistoryRef(t.text) else {
            throw expected(what, after: after)
        }
        position += 1
        return ref
    }

    /// A finite number (`12`, `-3.5`, `1e3`); hex, `nan` and `inf` are refused.
    mutating func number(_ what: String = "a number", after: String? = nil) throws -> Double {
        guard let t = peek(), !t.quoted, let v = WordReader.parseNumber(t.text) else {
            throw expected(what, after: after)
        }
        position += 1
        return v
    }

    /// A finite number, or nil for the keyword `none` (a limit that is not set).
    mutating func optionalNumber(after: String) throws -> Double? {
        if consume("none") { return nil }
        return try number("a number or 'none'", after: after)
    }

    /// `count` numbers, e.g. the four edges of `insets T L B R`.
    mutating func numbers(_ count: Int, names: [String], after: String) throws -> [Double] {
        var out: [Double] = []
        for i in 0..<count {
            let name = i < names.count ? names[i] : "a number"
            out.append(try number("\(name) (a number)", after: i == 0 ? after : "\(after) \(tokens[position - i..<position].map(\.text).joined(separator: " "))"))
        }
        return out
    }

    /// Edges in the CSS shorthand, 1 to 4 numbers: `T L B R`; `T L/R B`; `T/B L/R`; or one for
    /// all four (`insets 0`). The four-number form is top, left, bottom, right.
    mutating func edges(after: String) throws -> Edges {
        var v = [try number("the top edge, or every edge (a number)", after: after)]
        while v.count < 4, let t = peek(), !t.quoted, let n = WordReader.parseNumber(t.text) {
            v.append(n)
            position += 1
        }
        switch v.count {
        case 1: return Edges(top: v[0], left: v[0], bottom: v[0], right: v[0])
        case 2: return Edges(top: v[0], left: v[1], bottom: v[0], right: v[1])
        case 3: return Edges(top: v[0], left: v[1], bottom: v[2], right: v[1])
        default: return Edges(top: v[0], left: v[1], bottom: v[2], right: v[3])
        }
    }

    /// A width and a height.
    mutating func size(after: String) throws -> Size {
        let v = try numbers(2, names: ["a width", "a height"], after: after)
        return Size(width: v[0], height: v[1])
    }

    /// A whole number ≥ 0.
    mutating func count(_ what: String, after: String? = nil) throws -> Int {
        guard let t = peek(), !t.quoted, t.text.utf8.allSatisfy(WordReader.isASCIIDigit), let v = Int(t.text) else {
            throw expected(what, after: after)
        }
        position += 1
        return v
    }

    /// One of `choices` (case-insensitive; `-` and `_` ignored, so `space-between` reads as
    /// `spaceBetween`).
    mutating func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type, after: String? = nil) throws -> T
    where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        guard let t = peek(), !t.quoted,
              let match = T.allCases.first(where: { WordReader.fold($0.rawValue) == WordReader.fold(t.text) }) else {
            throw expected(names.joined(separator: "|"), after: after)
        }
        position += 1
        return match
    }

    /// Throws when words are left over.
    func finish(usage: String) throws {
        guard let t = peek() else { return }
        throw CommandError(.syntax(.unexpected(t.text, after: previous, usage: usage)))
    }

    static func fold(_ s: String) -> String {
        s.keywordFolded.filter { $0 != "-" && $0 != "_" }
    }

    static func isASCIIDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `[+-]DIGITS` of at most 15 digits (the common case of a script: `fixed 48`), read
    /// without `Double(String)`: every such integer is exact in a Double, so the value is the
    /// one `Double(text)` gives (a minus sign before zero gives -0 there too). Nil otherwise.
    static func parseSmallInteger(_ text: String) -> Double? {
        var value = 0
        var digits = 0
        var negative = false
        for (offset, byte) in text.utf8.enumerated() {
            if offset == 0, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                negative = byte == UInt8(ascii: "-")
                continue
            }
            guard isASCIIDigit(byte), digits < 15 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -Double(value) : Double(value)
    }

    /// A decimal number: `[+-]digits[.digits][e[+-]digits]`, finite.
    static func parseNumber(_ text: String) -> Double? {
        if let v = parseSmallInteger(text) { return v }
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
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
