/// Syntax checks for names and value checks for numbers and colours, shared by edit planning and
/// the JSON importer so that both give the same messages. `path` names the value in messages:
/// `insets.top`, `rows[3].insets.top`.
public enum Validation {
    /// True for a valid row id: `[A-Za-z_][A-Za-z0-9_.-]{0,63}` (SPEC §2.2).
    public static func isValidRowID(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { isValidRowID(utf8: $0) }
    }

    /// `isValidRowID(_:)` of an id's UTF-8 bytes (one table lookup per byte: a bulk load checks
    /// a million ids).
    @inline(__always)
    public static func isValidRowID(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, bytes.count <= DocumentLimits.maxNameLength,
              isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return nameBytes.withUnsafeBufferPointer { table in bytes.allSatisfy { table[Int($0)] } }
    }

    /// `isNameByte` of every byte value.
    private static let nameBytes: [Bool] = (0...255).map { isNameByte(UInt8($0)) }

    /// True for a valid document name: `[A-Za-z0-9_.-]{1,64}` (SPEC §2.1).
    public static func isValidDocumentName(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= DocumentLimits.maxNameLength && bytes.allSatisfy(isNameByte)
    }

    /// True for a valid row type label: `[A-Za-z0-9_.-]{1,64}`, like a document name.
    public static func isValidTypeName(_ type: String) -> Bool { isValidDocumentName(type) }

    /// Throws unless `id` is a valid row id.
    /// - Parameters:
    ///   - id: The id.
    ///   - path: Where it came from, for the message.
    /// - Throws: `StackDocError.Kind.invalidName` at `path`.
    public static func checkRowID(_ id: String, _ path: String = "row id") throws {
        guard isValidRowID(id) else {
            throw StackDocError(.invalidName(.rowID, value: id, path: path))
        }
    }

    /// Throws unless `name` is a valid document name.
    /// - Parameters:
    ///   - name: The name.
    ///   - path: Where it came from, for the message.
    /// - Throws: `StackDocError.Kind.invalidName` at `path`.
    public static func checkDocumentName(_ name: String, _ path: String = "name") throws {
        guard isValidDocumentName(name) else {
            throw StackDocError(.invalidName(.documentName, value: name, path: path))
        }
    }

    /// Throws unless `type` is a valid row type label.
    /// - Parameters:
    ///   - type: The type.
    ///   - path: Where it came from, for the message.
    /// - Throws: `StackDocError.Kind.invalidName` at `path`.
    public static func checkTypeName(_ type: String, _ path: String = "type") throws {
        guard isValidTypeName(type) else {
            throw StackDocError(.invalidName(.type, value: type, path: path))
        }
    }

    /// A finite number (any sign); `-0` becomes `0`.
    /// - Parameters:
    ///   - value: The number.
    ///   - path: Where it came from, for the message (`rows[2].grow`, `fixed`).
    /// - Throws: `StackDocError.Kind.badValue` at `path`.
    public static func finite(_ value: Double, _ path: String) throws -> Double {
        guard value.isFinite else {
            throw StackDocError(.badValue(path: path, problem: "must be a finite number, got \(JSONNumber.describe(value))"))
        }
        return value + 0  // -0 + 0 == +0
    }

    /// A length, size or factor: finite, ≥ 0 and ≤ `DocumentLimits.maxLength`; `-0` becomes `0`.
    /// - Parameters:
    ///   - value: The number.
    ///   - path: Where it came from, for the message.
    /// - Throws: `StackDocError.Kind.badValue` at `path`.
    public static func length(_ value: Double, _ path: String) throws -> Double {
        let v = try finite(value, path)
        guard v >= 0 else { throw StackDocError(.badValue(path: path, problem: "must be ≥ 0, got \(JSONNumber.describe(value))")) }
        guard v <= DocumentLimits.maxLength else {
            throw StackDocError(.badValue(path: path, problem: "must be ≤ \(JSONNumber.describe(DocumentLimits.maxLength)), got \(JSONNumber.describe(value))"))
        }
        return v
    }

    /// A finite number ≥ 0 without the length cap (a scroll offset: content can be longer than
    /// `DocumentLimits.maxLength`); `-0` becomes `0`.
    /// - Parameters:
    ///   - value: The number.
    ///   - path: Where it came from, for the message.
    /// - Throws: `StackDocError.Kind.badValue` at `path`.
    public static func nonNegative(_ value: Double, _ path: String) throws -> Double {
        let v = try finite(value, path)
        guard v >= 0 else { throw StackDocError(.badValue(path: path, problem: "must be ≥ 0, got \(JSONNumber.describe(value))")) }
        return v
    }

    /// Four valid lengths (`path.top`, `path.left`, …).
    /// - Parameters:
    ///   - e: The edges.
    ///   - path: Where they came from; each edge's message names `path.top`, `path.left`, ….
    /// - Throws: `StackDocError.Kind.badValue` at the first bad edge.
    public static func edges(_ e: Edges, _ path: String) throws -> Edges {
        Edges(top: try length(e.top, path + ".top"), left: try length(e.left, path + ".left"),
              bottom: try length(e.bottom, path + ".bottom"), right: try length(e.right, path + ".right"))
    }

    /// Two valid lengths (`path.width`, `path.height`).
    /// - Parameters:
    ///   - s: The size.
    ///   - path: Where it came from; the messages name `path.width`, `path.height`.
    /// - Throws: `StackDocError.Kind.badValue` at the first bad length.
    public static func size(_ s: Size, _ path: String) throws -> Size {
        Size(width: try length(s.width, path + ".width"), height: try length(s.height, path + ".height"))
    }

    /// A text run (issue 14): `path.count` a whole number 0…`DocumentLimits.maxGlyphs`,
    /// `path.char` within `minGlyphLength`…`maxGlyphLength`, `path.line` 0…`maxGlyphLength`.
    /// - Parameters:
    ///   - t: The run.
    ///   - path: Where it came from (`text`, `rows[2].text`).
    /// - Throws: `StackDocError.Kind.badValue` at the first bad member.
    public static func text(_ t: TextRun, _ path: String) throws -> TextRun {
        guard t.count >= 0, t.count <= DocumentLimits.maxGlyphs else {
            throw StackDocError(.badValue(path: path + ".count", problem: "must be a whole number 0…\(DocumentLimits.maxGlyphs), got \(t.count)"))
        }
        return TextRun(count: t.count, glyphWidth: try glyphLength(t.glyphWidth, path + ".char", minimum: DocumentLimits.minGlyphLength),
                       lineHeight: try glyphLength(t.lineHeight, path + ".line", minimum: 0))
    }

    /// An aspect ratio W:H (issue 14): both terms within `minGlyphLength`…`maxGlyphLength`.
    /// - Parameters:
    ///   - s: W as `width`, H as `height`.
    ///   - path: Where it came from; the messages name `path.width`, `path.height`.
    /// - Throws: `StackDocError.Kind.badValue` at the first bad term.
    public static func aspect(_ s: Size, _ path: String) throws -> Size {
        Size(width: try glyphLength(s.width, path + ".width", minimum: DocumentLimits.minGlyphLength),
             height: try glyphLength(s.height, path + ".height", minimum: DocumentLimits.minGlyphLength))
    }

    private static func glyphLength(_ value: Double, _ path: String, minimum: Double) throws -> Double {
        let v = try finite(value, path)
        guard v >= minimum, v <= DocumentLimits.maxGlyphLength else {
            let lo = minimum == 0 ? "0" : "1/64"
            throw StackDocError(.badValue(path: path, problem: "must be \(lo)…\(JSONNumber.describe(DocumentLimits.maxGlyphLength)), got \(JSONNumber.describe(value))"))
        }
        return v
    }

    /// Text and aspect ratios apply to leaf rows: throws naming the field when `config` is a
    /// stack that has one,
    /// and when a row has both (a text row's height comes from its text, an aspect row's from
    /// its ratio). Defaults for rows (`rowInsets`, `rowSeparator`) and scrolling (`scrolls`)
    /// apply to stack rows only.
    static func checkLeafOnly(_ config: RowConfig, _ prefix: String) throws {
        if config.stack == nil, let field = config.rowInsets != nil ? "rowInsets" : config.rowSeparator != nil ? "rowSeparator" : nil {
            throw StackDocError(.badValue(path: prefix + field, problem: "applies to stack rows only, and the row is a leaf"))
        }
        if config.scrollOffset != nil && config.stack == nil {
            throw StackDocError(.badValue(path: prefix + "scrolls", problem: "applies to stack rows only, and the row is a leaf (make it a stack in the same command: 'stack horizontal scrolls')"))
        }
        guard config.hasHeightForWidth else { return }
        if config.text != nil && config.aspect != nil {
            throw StackDocError(.badValue(path: prefix + "aspect", problem: "a row has text or an aspect ratio, not both (remove one with 'text none' or 'aspect none')"))
        }
        guard config.stack != nil else { return }
        let field = config.text != nil ? "text" : "aspect"
        throw StackDocError(.badValue(path: prefix + field, problem: "applies to leaf rows only, and the row is a stack"))
    }

    /// A `#RRGGBB` colour, returned with upper-case hex digits.
    /// - Parameters:
    ///   - text: The colour as written.
    ///   - path: Where it came from, for the message.
    /// - Throws: `StackDocError.Kind.badValue` at `path` for anything but `#RRGGBB`.
    public static func color(_ text: String, _ path: String) throws -> String {
        guard isColor(text) else {
            throw StackDocError(.badValue(path: path, problem: "expected a colour #RRGGBB, got \(quoted(text))"))
        }
        return text.uppercased()
    }

    /// True for `#RRGGBB` (either case of hex digit); allocation-free.
    static func isColor(_ text: String) -> Bool {
        var count = 0
        for b in text.utf8 {
            guard count == 0 ? b == UInt8(ascii: "#") : isHexDigit(b) else { return false }
            count += 1
            if count > 7 { return false }
        }
        return count == 7
    }

    /// `text` in single quotes for a message: quotes, backslashes and every character that is
    /// never written raw (`Unicode.Scalar.isEscapedInText`: controls, bidi and other format
    /// characters) escaped, cut after 40 characters so that hostile input never floods a message.
    public static func quoted(_ text: String) -> String {
        quoted(text, limit: 40)
    }

    /// A user value shown without quotes where the message reads better so (an origin, a mark
    /// name in a suggested command): as given when it is 1 to 64 characters of `A-Z a-z 0-9 _ .
    /// - : @` (what names and origins are made of), else `quoted` — so the one escaping rule
    /// still applies to anything else.
    public static func bare(_ text: String) -> String {
        let plain = (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: ":") || b == UInt8(ascii: "@")
        }
        return plain ? text : quoted(text)
    }

    /// A file path in single quotes for a message: escaped like `quoted`, never cut (a path
    /// must name its file).
    public static func quotedPath(_ path: String) -> String {
        quoted(path, limit: Int.max)
    }

    private static func quoted(_ text: String, limit: Int) -> String {
        var out = "'"
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { out += "…"; break }
            count += 1
            switch scalar {
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            default:
                if scalar.isEscapedInText { out += scalar.escapedForText } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "'"
    }

    private static func isLetter(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        isLetter(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f"))
            || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "F"))
    }
}
