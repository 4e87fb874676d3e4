import Foundation
import GRDB
import GRDBSQLite
import Layout
import StoreFormat

/// Rows of `row` (a document's current rows) as the values a bulk INSERT binds, in flat,
/// reference-free storage: per row its parent, order key, id and config columns
/// (`ColumnCoding.configColumns`: `size`, and `fields` coded by `RowFields`, the one coding of
/// a row's fields), every text and blob in one byte buffer. An import's reading thread encodes
/// each batch as it hands it over, so the writing thread only binds (by pointer, no copy, no
/// Swift allocation or reference counting per row) and steps (`BulkRowInserter.add(_:)`).
struct EncodedRows: Sendable {
    /// One value to bind: NULL, an integer, a real (`bits` is its bit pattern), or the text or
    /// blob at `bits ..< bits + length` of `text`.
    struct Value: Sendable {
        enum Kind: UInt8, Sendable { case null, integer, real, text, blob }
        var kind: Kind
        var length: Int32
        var bits: Int64
    }

    /// Values a row has: parent, order key, id, then the config columns.
    static let valuesPerRow = 3 + configCount
    static let configCount = ColumnCoding.configColumns.count

    private var values: [Value] = []
    private var text: [UInt8] = []
    /// Per row, the config columns it has a value for (bit k: `ColumnCoding.configColumns[k]`,
    /// not NULL).
    private var setColumns: [UInt64] = []
    /// Per row, the values equal to the previous row's (`sameBits`; 0 for the first row).
    private var sameAsPrevious: [UInt64] = []
    /// The style parts (`RowFields.style`, nil: the default's) of this batch's rows by style
    /// number (`append(_:parent:key:config:style:)`), and the last one used.
    private var styles: [Int: [UInt8]?] = [:]
    private var lastStyle: (number: Int, bytes: [UInt8]?)?
    /// The style part of the last row appended without a style number, and its key.
    private var lastKey: (key: RowStyleKey, bytes: [UInt8]?)?

    /// The number of rows.
    var count: Int { values.count / Self.valuesPerRow }

    /// Room for `rows` rows.
    init(capacity rows: Int = 0) {
        values.reserveCapacity(rows * Self.valuesPerRow)
        text.reserveCapacity(rows * 16)
        setColumns.reserveCapacity(rows)
        sameAsPrevious.reserveCapacity(rows)
    }

    /// Appends row `id` of stack `parent` (nil: the root) under order key `key`.
    mutating func append(_ id: RowID, parent: RowID?, key: some Collection<UInt8>, config: RowConfig) {
        let style: [UInt8]?
        if let last = lastKey, last.key.config.hasSameStyle(as: config) {
            style = last.bytes
        } else {
            style = RowFields.style(config)
            lastKey = (RowStyleKey(config), style)
        }
        append(id, parent: parent, key: key, config: config, styleBytes: style)
    }

    /// Appends row `id` as `append(_:parent:key:config:)` does, given the number of its config's
    /// style (`RowStyleTable.number(of:)`: equal numbers, equal configs but for size, content and
    /// hidden): the style part of `fields` is coded once per style and batch, and copied.
    mutating func append(_ id: RowID, parent: RowID?, key: some Collection<UInt8>, config: RowConfig, style: Int) {
        let bytes: [UInt8]?
        if let last = lastStyle, last.number == style {
            bytes = last.bytes
        } else if let known = styles[style] {
            bytes = known
        } else {
            bytes = RowFields.style(config)
            styles[style] = bytes
        }
        lastStyle = (style, bytes)
        append(id, parent: parent, key: key, config: config, styleBytes: bytes)
    }

    private mutating func append(_ id: RowID, parent: RowID?, key: some Collection<UInt8>, config: RowConfig, styleBytes: [UInt8]?) {
        appendPlace(id, parent: parent, key: key)
        var set: UInt64 = 0
        if let n = ColumnCoding.size(config) {
            values.append(Value(kind: .real, length: 0, bits: Int64(bitPattern: n.bitPattern)))
            set |= 1
        } else {
            values.append(Value(kind: .null, length: 0, bits: 0))
        }
        let start = text.count
        if RowFields.append(hidden: config.hidden, content: config.content, style: styleBytes, to: &text) {
            values.append(Value(kind: .blob, length: Int32(text.count - start), bits: Int64(start)))
            set |= 2
        } else {
            values.append(Value(kind: .null, length: 0, bits: 0))
        }
        setColumns.append(set)
        noteSameAsPrevious()
    }

    /// Removes every row, keeping the storage.
    mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        setColumns.removeAll(keepingCapacity: true)
        sameAsPrevious.removeAll(keepingCapacity: true)
        styles.removeAll()
        lastStyle = nil
    }

    /// The config columns (bit k: `ColumnCoding.configColumns[k]`) that some row of `rows`
    /// has a value for (not NULL).
    func columnsSet(_ rows: Range<Int>) -> UInt64 {
        var set: UInt64 = 0
        for r in rows { set |= setColumns[r] }
        return set
    }

    /// Bit k (< `configCount`): config column k; `parentBit`: the parent. The values that every
    /// row of `rows` has alike (a statement binds them once: `bind`); none for fewer than two
    /// rows.
    func valuesShared(_ rows: Range<Int>) -> UInt64 {
        guard rows.count > 1 else { return 0 }
        var shared = UInt64.max
        for r in rows.dropFirst() { shared &= sameAsPrevious[r] }
        return shared
    }

    /// The parent's bit in `valuesShared` (above every config column's).
    static let parentBit: UInt64 = 1 << 63

    /// Notes which values of the last row equal the previous row's.
    private mutating func noteSameAsPrevious() {
        let r = count - 1
        guard r > 0 else {
            sameAsPrevious.append(0)
            return
        }
        let row = r * Self.valuesPerRow, previous = row - Self.valuesPerRow
        var same: UInt64 = 0
        values.withUnsafeBufferPointer { values in
            text.withUnsafeBufferPointer { text in
                func equal(_ k: Int) -> Bool {
                    let a = values[previous + k], b = values[row + k]
                    guard a.kind == b.kind, a.length == b.length else { return false }
                    guard a.kind == .text || a.kind == .blob, a.bits != b.bits else { return a.bits == b.bits }
                    return a.length == 0 || memcmp(text.baseAddress! + Int(a.bits), text.baseAddress! + Int(b.bits), Int(a.length)) == 0
                }
                if equal(0) { same |= Self.parentBit }
                for k in 0..<Self.configCount where equal(3 + k) { same |= 1 << UInt64(k) }
            }
        }
        sameAsPrevious.append(same)
    }

    /// Which values of a row a statement's parameters take: value i of a row is 0 parent, 1
    /// order key, 2 id, 3 + k config column k.
    struct Binding: Sendable {
        /// The values each row binds, row after row, from parameter 1 on.
        var perRow: [Int]
        /// The values bound once after them, from the first row (every row has them alike),
        /// after the document's id.
        var shared: [Int]
    }

    /// Binds rows `rows` to `s` as `binding` says (each row's `perRow` values in turn, then
    /// `docID` and the first row's `shared` values) and runs `step` while the bound text is
    /// valid; the bindings are cleared after it (the text is bound in place, not copied).
    func bind(_ rows: Range<Int>, document docID: Int64, binding: Binding, to s: SQLiteStatement,
              step: () throws -> Void) rethrows {
        try text.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress.map { UnsafeRawPointer($0) } ?? Self.empty
            defer { sqlite3_clear_bindings(s) }
            var i: Int32 = 1
            for r in rows {
                let first = r * Self.valuesPerRow
                for k in binding.perRow {
                    bind(values[first + k], base, s, i)
                    i += 1
                }
            }
            sqlite3_bind_int64(s, i, docID)
            i += 1
            let first = rows.lowerBound * Self.valuesPerRow
            for k in binding.shared {
                bind(values[first + k], base, s, i)
                i += 1
            }
            try step()
        }
    }

    /// A pointer for empty text (a NULL pointer would bind NULL).
    nonisolated(unsafe) private static let empty = UnsafeRawPointer(("" as StaticString).utf8Start)

    @inline(__always)
    private func bind(_ v: Value, _ base: UnsafeRawPointer, _ s: SQLiteStatement, _ i: Int32) {
        switch v.kind {
        case .null: sqlite3_bind_null(s, i)
        case .integer: sqlite3_bind_int64(s, i, v.bits)
        case .real: sqlite3_bind_double(s, i, Double(bitPattern: UInt64(bitPattern: v.bits)))
        case .text:
            let p = v.length == 0 ? Self.empty : base + Int(v.bits)
            // SQLITE_STATIC (nil): SQLite reads the bytes in place until the bindings change.
            sqlite3_bind_text(s, i, p.assumingMemoryBound(to: CChar.self), v.length, nil)
        case .blob:
            sqlite3_bind_blob(s, i, base + Int(v.bits), v.length, nil)
        }
    }

    /// Row `r`'s values as text, one per value in binding order (parent, order key, id, then
    /// the config columns): `NULL`, `int N`, `real X`, `text 'T'`, `blob` and its bytes in hex
    /// (for tests).
    func describe(row r: Int) -> [String] {
        (0..<Self.valuesPerRow).map { k in
            let v = values[r * Self.valuesPerRow + k]
            switch v.kind {
            case .null: return "NULL"
            case .integer: return "int \(v.bits)"
            case .real: return "real \(Double(bitPattern: UInt64(bitPattern: v.bits)))"
            case .text: return "text '\(String(decoding: text[Int(v.bits)..<(Int(v.bits) + Int(v.length))], as: UTF8.self))'"
            case .blob: return "blob " + text[Int(v.bits)..<(Int(v.bits) + Int(v.length))].map { String($0, radix: 16) }.joined(separator: " ")
            }
        }
    }

    /// The parent, order key and id values of a row.
    private mutating func appendPlace(_ id: RowID, parent: RowID?, key: some Collection<UInt8>) {
        appendText(parent ?? "")
        appendBytes(key)
        appendText(id)
    }

    private mutating func appendText(_ s: String) {
        values.append(textValue(s))
    }

    private mutating func textValue(_ s: String) -> Value {
        var s = s
        return s.withUTF8 { textValue($0) }
    }

    private mutating func appendBytes<C: Collection<UInt8>>(_ bytes: C) {
        values.append(textValue(bytes))
    }

    private mutating func textValue<C: Collection<UInt8>>(_ bytes: C) -> Value {
        let v = Value(kind: .text, length: Int32(bytes.count), bits: Int64(text.count))
        text.append(contentsOf: bytes)
        return v
    }
}

/// The order keys of rows given in document order (a stack's rows in order): each stack's keys
/// are `OrderKey.sequence`, handed out as its rows come.
struct StackKeys: Sendable {
    private var next: [RowID?: [UInt8]] = [:]
    /// The stack of the last key handed out and the key after it (rows of one stack mostly
    /// come together: no lookup for them, and the key is stepped in place, `OrderKey.advance`).
    private var lastParent: RowID??
    private var lastNext: [UInt8] = []

    /// The key of the next row of stack `parent` (nil: the root).
    mutating func key(in parent: RowID?) -> [UInt8] {
        withKey(in: parent) { $0 }
    }

    /// Calls `body` with the key of the next row of stack `parent` (nil: the root).
    mutating func withKey<R>(in parent: RowID?, _ body: ([UInt8]) throws -> R) rethrows -> R {
        select(parent)
        let result = try body(nextKey)
        advance()
        return result
    }

    /// Makes `nextKey` the key of the next row of stack `parent` (nil: the root); `advance()`
    /// once it is used. (For a caller whose closure would capture, and so copy, a borrowed row.)
    mutating func select(_ parent: RowID?) {
        if lastParent != .some(parent) {
            if let last = lastParent { next[last] = lastNext }
            lastNext = next[parent] ?? Array(OrderKey.first.utf8)
            lastParent = .some(parent)
        }
    }

    /// The key of the next row of the stack `select` chose.
    var nextKey: [UInt8] { lastNext }

    /// Steps past `nextKey` (in place).
    mutating func advance() {
        OrderKey.advance(&lastNext)
    }
}
