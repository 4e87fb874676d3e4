import CPostgreSQL

/// The rows of one statement's result, in binary format, read in place (the result is freed with
/// this object). Columns are read by index; each accessor decodes the column's own type: `int8`,
/// `int4`, `int2` and `bool` as integers, `text`/`varchar`/`name` as text, `bytea` as bytes, byte
/// for byte.
final class PostgreSQLRows {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }

    deinit { PQclear(result) }

    /// How many rows the result has.
    var count: Int { Int(PQntuples(result)) }

    /// How many columns each row has.
    var columnCount: Int { Int(PQnfields(result)) }

    /// The rows an `INSERT`, `UPDATE`, `DELETE` or `COPY` touched (`PQcmdTuples`), 0 for others.
    var affected: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    /// The name of column `column`.
    func name(_ column: Int) -> String { String(cString: PQfname(result, Int32(column))) }

    /// True when the value at (`row`, `column`) is SQL NULL.
    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    /// The raw binary value at (`row`, `column`), nil for NULL (valid while `self` lives).
    func withBytes<R>(_ row: Int, _ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        if isNull(row, column) { return nil }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        guard let base = PQgetvalue(result, Int32(row), Int32(column)) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: base, count: length))
    }

    /// The value at (`row`, `column`) as bytes (any type's binary form; `bytea` exactly as stored).
    func bytes(_ row: Int, _ column: Int) -> [UInt8]? {
        withBytes(row, column) { Array($0) }
    }

    /// The value at (`row`, `column`) as text (`text`, `varchar`, `name`, or any type's binary
    /// bytes read as UTF-8).
    func string(_ row: Int, _ column: Int) -> String? {
        withBytes(row, column) { String(decoding: $0, as: UTF8.self) }
    }

    /// The value at (`row`, `column`) as an integer: `int8`, `int4`, `int2` (big-endian on the
    /// wire) or `bool` (0 or 1); nil for NULL or another type.
    func int(_ row: Int, _ column: Int) -> Int64? {
        let type = PQftype(result, Int32(column))
        return withBytes(row, column) { raw -> Int64? in
            func bigEndian(_ n: Int) -> Int64? {
                guard raw.count == n else { return nil }
                var value: UInt64 = 0
                for byte in raw { value = value << 8 | UInt64(byte) }
                // Sign-extend from n bytes.
                let shift = UInt64(64 - 8 * n)
                return Int64(bitPattern: value << shift) >> Int64(shift)
            }
            switch type {
            case 20: return bigEndian(8)
            case 23: return bigEndian(4)
            case 21: return bigEndian(2)
            case 16: return raw.count == 1 ? Int64(raw[0]) : nil
            default: return nil
            }
        } ?? nil
    }

    /// The value at (`row`, `column`) as a double: `float8` (bit for bit) or an integer type;
    /// nil for NULL or another type.
    func double(_ row: Int, _ column: Int) -> Double? {
        guard PQftype(result, Int32(column)) == 701 else { return int(row, column).map(Double.init) }
        return withBytes(row, column) { raw -> Double? in
            guard raw.count == 8 else { return nil }
            var bits: UInt64 = 0
            for byte in raw { bits = bits << 8 | UInt64(byte) }
            return Double(bitPattern: bits)
        } ?? nil
    }
}
