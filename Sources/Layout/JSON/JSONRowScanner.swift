/// Reads the common top-level row of a saved document — `{"id":"r1","size":{"fixed":40}}` —
/// straight from the bytes, without a JSON tree (issue 11 item 3: at a million rows, the tree of
/// each row and the walk over it were a third of the reading).
///
/// It reads only rows it can read exactly as `JSONParser` and the row reader
/// (`DocumentImporter.readRow`) would, with no problem: the members `id`, `type`, `size`
/// (`"fit"` or `{"fixed": N}`), `content` (`{"width": W, "height": H}`), `grow`, `shrink`,
/// `hidden` and `sticky`, each at most once, with an id and a type that are valid names,
/// strings of printable ASCII without escapes, and numbers that are plain non-negative integers
/// of at most 15 digits within `DocumentLimits.maxLength`. Anything else — another member, an
/// escape, a fraction, a value out of range, a duplicate member, bad JSON — gives nil, and the
/// caller reads the element the general way from the same position: the same document, the
/// same errors. (`JSONRowScannerTests` holds it to that on random and mutated rows.)
struct JSONRowScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var pos: Int

    /// A row read: its id and config, and the position just after its closing brace.
    struct Row {
        var id: RowID
        var config: RowConfig
        var end: Int
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) {
        self.bytes = bytes
        pos = start
    }

    /// The row object starting at `start` (its `{`), or nil when it is not one this reader reads.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Row? {
        var id: RowID = ""
        var config = RowConfig()
        guard let end = scan(bytes, at: start, id: &id, config: &config) else { return nil }
        return Row(id: id, config: config, end: end)
    }

    /// `scan(_:at:)` into `id` and `config`, which must hold `""` and `RowConfig()` (the
    /// members the object names are set, the others are left): the position just after the
    /// object, nil when it is not one this reader reads (`id` and `config` then unspecified).
    /// The row is read where the caller keeps it, so that it can hand both on without a copy
    /// (a copy of the ≈ 440-byte config, with a retain of each reference in it, cost a row).
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, id: inout RowID, config: inout RowConfig) -> Int? {
        var scanner = JSONRowScanner(bytes, at: start)
        return scanner.row(id: &id, config: &config) ? scanner.pos : nil
    }

    // The members read, one bit each (a second one is a duplicate: not a row this reader reads).
    private static let idBit: UInt8 = 1, typeBit: UInt8 = 2, sizeBit: UInt8 = 4, contentBit: UInt8 = 8
    private static let growBit: UInt8 = 16, shrinkBit: UInt8 = 32, hiddenBit: UInt8 = 64, stickyBit: UInt8 = 128

    private mutating func row(id: inout RowID, config: inout RowConfig) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        var seen: UInt8 = 0
        repeat {
            skipWhitespace()
            guard let key = string() else { return false }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            let bit: UInt8
            switch key.count {
            case 2 where equals(key, "id"):
                bit = Self.idBit
                guard let s = string(), Validation.isValidRowID(utf8: s) else { return false }
                id = String(decoding: s, as: UTF8.self)
            case 4 where equals(key, "type"):
                bit = Self.typeBit
                guard let s = string() else { return false }
                let type = String(decoding: s, as: UTF8.self)
                guard Validation.isValidTypeName(type) else { return false }
                config.type = type
            case 4 where equals(key, "size"):
                bit = Self.sizeBit
                guard let size = rowSize() else { return false }
                config.size = size
            case 7 where equals(key, "content"):
                bit = Self.contentBit
                guard let content = size() else { return false }
                config.content = content
            case 4 where equals(key, "grow"):
                bit = Self.growBit
                guard let n = length() else { return false }
                config.grow = n
            case 6 where equals(key, "shrink"):
                bit = Self.shrinkBit
                guard let n = length() else { return false }
                config.shrink = n
            case 6 where equals(key, "hidden"):
                bit = Self.hiddenBit
                guard let b = bool() else { return false }
                config.hidden = b
            case 6 where equals(key, "sticky"):
                bit = Self.stickyBit
                guard let b = bool() else { return false }
                config.sticky = b
            default:
                return false
            }
            guard seen & bit == 0 else { return false }
            seen |= bit
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) && seen & Self.idBit != 0
    }

    /// `"fit"` or `{"fixed": N}`.
    private mutating func rowSize() -> RowSize? {
        if peek(UInt8(ascii: "\"")) {
            guard let s = string(), equals(s, "fit") else { return nil }
            return .fit
        }
        guard take(UInt8(ascii: "{")) else { return nil }
        skipWhitespace()
        guard let key = string(), equals(key, "fixed") else { return nil }
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { return nil }
        skipWhitespace()
        guard let n = length() else { return nil }
        skipWhitespace()
        guard take(UInt8(ascii: "}")) else { return nil }
        return .fixed(n)
    }

    /// `{"width": W, "height": H}`, either member left out (0) or both (`{}`).
    private mutating func size() -> Size? {
        guard take(UInt8(ascii: "{")) else { return nil }
        skipWhitespace()
        var s = Size.zero
        if take(UInt8(ascii: "}")) { return s }
        var seen = (width: false, height: false)
        repeat {
            skipWhitespace()
            guard let key = string() else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            guard let n = length() else { return nil }
            if equals(key, "width"), !seen.width {
                seen.width = true
                s.width = n
            } else if equals(key, "height"), !seen.height {
                seen.height = true
                s.height = n
            } else {
                return nil
            }
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        return s
    }

    /// A plain integer of at most 15 digits within `DocumentLimits.maxLength` (the parser's exact
    /// integer path; the row reader keeps it as it is).
    private mutating func length() -> Double? {
        let start = pos
        var v: Int64 = 0
        while pos < bytes.count, bytes[pos] >= UInt8(ascii: "0"), bytes[pos] <= UInt8(ascii: "9") {
            v = v * 10 + Int64(bytes[pos] - UInt8(ascii: "0"))
            pos += 1
            if pos - start > 15 { return nil }
        }
        let digits = pos - start
        guard digits > 0, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
        if pos < bytes.count {
            // A fraction, an exponent or a leading zero: the parser's to read (or refuse).
            switch bytes[pos] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "0")...UInt8(ascii: "9"): return nil
            default: break
            }
        }
        let n = Double(v)
        return n <= DocumentLimits.maxLength ? n + 0 : nil
    }

    private mutating func bool() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// A string of printable ASCII without escapes: its bytes, the quotes left out.
    private mutating func string() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = pos
        while pos < bytes.count {
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") {
                pos += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<(pos - 1)])
            }
            guard b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\") else { return nil }
            pos += 1
        }
        return nil
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard pos + n <= bytes.count else { return false }
        for i in 0..<n where bytes[pos + i] != word.utf8Start[i] { return false }
        pos += n
        return true
    }

    private func equals(_ s: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        s.count == word.utf8CodeUnitCount && s.elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    private func peek(_ b: UInt8) -> Bool { pos < bytes.count && bytes[pos] == b }

    private mutating func take(_ b: UInt8) -> Bool {
        guard peek(b) else { return false }
        pos += 1
        return true
    }

    private mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }
}
