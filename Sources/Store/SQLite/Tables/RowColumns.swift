import Foundation
import GRDB
import GRDBSQLite
import Layout
import StoreFormat

/// Binding helpers for the raw C API.
enum ColumnValue {
    /// Binds text by pointer and length (no C-string copy, no strlen); SQLite copies it.
    @inline(__always)
    static func bindText(_ s: inout String, to stmt: SQLiteStatement, at index: Int32) {
        s.withUTF8 { utf8 in
            if let base = utf8.baseAddress {
                _ = sqlite3_bind_text(stmt, index, base, Int32(utf8.count), sqliteTransient)
            } else {
                _ = sqlite3_bind_text(stmt, index, "", 0, sqliteTransient)
            }
        }
    }

    /// Binds `bytes` as a BLOB (NULL when nil); SQLite copies them.
    @inline(__always)
    static func bindBlob(_ bytes: [UInt8]?, to stmt: SQLiteStatement, at index: Int32) {
        guard let bytes else {
            sqlite3_bind_null(stmt, index)
            return
        }
        _ = bytes.withUnsafeBytes { raw in
            // A zero-length blob needs a non-NULL pointer (a NULL one binds NULL); `RowFields`
            // never makes one, but bind what is given.
            sqlite3_bind_blob(stmt, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), sqliteTransient)
        }
    }
}

extension ColumnCoding {
    /// The config columns of `row` (migrations/0016), in order: `size` (REAL, NULL = fit, else
    /// the fixed size) and `fields` (BLOB, every other field: `RowFields`, NULL when all are at
    /// their defaults). `values`, `bind`, `readConfig` and the bulk paths (`EncodedRows`) write
    /// and read them, in this order.
    static let configColumns = ["size", "fields"]

    /// The value of column `size` for config `c` (nil: fit).
    @inline(__always)
    static func size(_ c: RowConfig) -> Double? {
        if case .fixed(let n) = c.size { return n }
        return nil
    }

    /// A config as the values of `configColumns`.
    static func values(_ c: RowConfig) -> [(any DatabaseValueConvertible)?] {
        [size(c), RowFields.encode(c).map { Data($0) }]
    }

    /// Binds a config to `configColumns` starting at parameter `first` (raw C API; bulk writes).
    static func bind(_ c: RowConfig, to stmt: SQLiteStatement, at first: Int32) {
        if let n = size(c) { sqlite3_bind_double(stmt, first, n) } else { sqlite3_bind_null(stmt, first) }
        ColumnValue.bindBlob(RowFields.encode(c), to: stmt, at: first + 1)
    }

    /// Reads a config from `configColumns` starting at result column `first` (raw C API: this is
    /// the loop that loads a million rows; the blob is decoded in place).
    /// - Throws: `RowFields.Damage` when the `fields` value is damaged or not a BLOB.
    @inline(__always)
    static func readConfig(_ stmt: SQLiteStatement, at first: Int32) throws -> RowConfig {
        var c: RowConfig
        switch sqlite3_column_type(stmt, first + 1) {
        case SQLITE_NULL:
            c = RowConfig()
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(stmt, first + 1))
            let p = sqlite3_column_blob(stmt, first + 1)
            c = try RowFields.decode(UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n))
        default:
            throw RowFields.Damage(description: "not a BLOB")
        }
        if let n = double(stmt, first) { c.size = .fixed(n) }
        return c
    }

    /// A REAL result column, nil when NULL.
    @inline(__always)
    static func double(_ stmt: SQLiteStatement, _ column: Int32) -> Double? {
        sqlite3_column_type(stmt, column) == SQLITE_NULL ? nil : sqlite3_column_double(stmt, column)
    }

    /// A boolean result column, nil when NULL.
    @inline(__always)
    static func flag(_ stmt: SQLiteStatement, _ column: Int32) -> Bool? {
        sqlite3_column_type(stmt, column) == SQLITE_NULL ? nil : sqlite3_column_int(stmt, column) != 0
    }
}

extension Schema {
    /// Column `row.fields` (`RowFields`) of a row with config `config`, as an SQL literal
    /// (`X'…'`, or `NULL` when every field but the size is at its default): for tools and tests
    /// that write the table by hand.
    public static func rowFieldsLiteral(_ config: RowConfig) -> String {
        guard let bytes = RowFields.encode(config) else { return "NULL" }
        return "X'" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined() + "'"
    }
}
