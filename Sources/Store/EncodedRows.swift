import GRDB
import GRDBSQLite
import Layout

/// Rows of `row` (a document's current rows) as the values a bulk INSERT binds, in flat,
/// reference-free storage: per row its parent, order key, id and config columns
/// (`ColumnCoding.configColumns`, coded by `RowColumn.encode` / `RowField.column`, the one
/// coding of a row's columns), every text in one byte buffer. An import's reading thread encodes
/// each batch as it hands it over, so the writing thread only binds (by pointer, no copy, no
/// Swift allocation or reference counting per row) and steps (`BulkRowInserter.add(_:)`).
struct EncodedRows: Sendable {
    /// One value to bind: NULL, an integer, a real (`bits` is its bit pattern) or the text at
    /// `bits ..< bits + length` of `text`.
    struct Value: Sendable {
        enum Kind: UInt8, Sendable { case null, integer, real, text }
        var kind: Kind
        var length: Int32
        var bits: Int64
    }

    /// Values a row has: parent, order key, id, then the config columns.
    static let valuesPerRow = 3 + configCount
    static let configCount = ColumnCoding.configColumns.count

    private var values: [Value] = []
    private var text: [UInt8] = []

    /// The number of rows.
    var count: Int { values.count / Self.valuesPerRow }

    /// Room for `rows` rows.
    init(capacity rows: Int = 0) {
        values.reserveCapacity(rows * Self.valuesPerRow)
        text.reserveCapacity(rows * 16)
    }

    /// Appends row `id` of stack `parent` (nil: the root) under order key `key`.
    mutating func append(_ id: RowID, parent: RowID?, key: [UInt8], config: RowConfig) {
        appendText(parent ?? "")
        appendBytes(key)
        appendText(id)
        for column in RowColumn.allCases { append(column.encode(config)) }
        for field in RowField.optional { append(field.column(config)) }
    }

    /// Removes every row, keeping the storage.
    mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
    }

    /// The config columns (bit k: `ColumnCoding.configColumns[k]`) that some row of `rows`
    /// has a value for (not NULL); all bits when there are more columns than bits.
    func columnsSet(_ rows: Range<Int>) -> UInt64 {
        guard Self.configCount <= 64 else { return .max }
        var set: UInt64 = 0
        for r in rows {
            let first = r * Self.valuesPerRow + 3
            for k in 0..<Self.configCount where values[first + k].kind != .null { set |= 1 << UInt64(k) }
        }
        return set
    }

    /// Binds rows `rows` to `s` (per row: `docID`, parent, order key, id, then the config
    /// columns `columns`, from parameter 1 on) and runs `step` while the bound text is valid;
    /// the bindings are cleared after it (the text is bound in place, not copied).
    func bind(_ rows: Range<Int>, document docID: Int64, columns: [Int], to s: SQLiteStatement,
              step: () throws -> Void) rethrows {
        try text.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress.map { UnsafeRawPointer($0) } ?? Self.empty
            defer { sqlite3_clear_bindings(s) }
            var i: Int32 = 1
            for r in rows {
                let first = r * Self.valuesPerRow
                sqlite3_bind_int64(s, i, docID)
                for k in 0..<3 { bind(values[first + k], base, s, i + 1 + Int32(k)) }
                i += 4
                for k in columns {
                    bind(values[first + 3 + k], base, s, i)
                    i += 1
                }
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
        }
    }

    private mutating func append(_ value: ColumnValue) {
        switch value {
        case .text(let s?): appendText(s)
        case .real(let d?): values.append(Value(kind: .real, length: 0, bits: Int64(bitPattern: d.bitPattern)))
        case .flag(let b?): values.append(Value(kind: .integer, length: 0, bits: b ? 1 : 0))
        case .text(nil), .real(nil), .flag(nil): values.append(Value(kind: .null, length: 0, bits: 0))
        }
    }

    private mutating func appendText(_ s: String) {
        var s = s
        s.withUTF8 { appendBytes($0) }
    }

    private mutating func appendBytes<C: Collection<UInt8>>(_ bytes: C) {
        values.append(Value(kind: .text, length: Int32(bytes.count), bits: Int64(text.count)))
        text.append(contentsOf: bytes)
    }
}

/// The order keys of rows given in document order (a stack's rows in order): each stack's keys
/// are `OrderKey.sequence`, handed out as its rows come.
struct StackKeys: Sendable {
    private var next: [RowID?: [UInt8]] = [:]
    /// The stack of the last key handed out and the key after it (rows of one stack mostly
    /// come together: no lookup for them).
    private var last: (parent: RowID?, next: [UInt8])?

    /// The key of the next row of stack `parent` (nil: the root).
    mutating func key(in parent: RowID?) -> [UInt8] {
        let key: [UInt8]
        if let last, last.parent == parent {
            key = last.next
        } else {
            if let last { next[last.parent] = last.next }
            key = next[parent] ?? Array(OrderKey.first.utf8)
        }
        last = (parent, OrderKey.next(after: key))
        return key
    }
}
