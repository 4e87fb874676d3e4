import Foundation
import Layout
import StoreFormat

/// Keeps order keys at most `OrderKey.maxLength` bytes: the key of an inserted or moved row, and
/// — when the gap between its neighbours is used up — a re-keyed neighbourhood.
///
/// Repeated inserts at one place halve the same gap each time, so a plain midpoint grows the key
/// by one character every ~6 inserts. Instead, when the midpoint would be longer than the bound,
/// the rows of the smallest enclosing *prefix range* that is sparse enough are given new, evenly
/// spaced keys (list labeling, as in Bender et al., "Two simplified algorithms for maintaining
/// order in a list", on the 62-ary trie of keys):
///
/// - The range of prefix `P` holds every key of the stack that starts with `P`; its height is
///   `h = maxLength − |P|` (how many characters its keys may still add).
/// - It is sparse enough when it holds at most `(62 / 16)^h` rows, the new one included. Climbing
///   from the longest prefix of the midpoint towards its integer part finds the first such range.
/// - Its rows (in key order, the new row in its place) get keys `P` + d digits, evenly spaced,
///   with d just enough for every row plus one spare digit of gap.
///
/// After a re-key every sub-range holds 1/62 of the rows — a sixteenth of its own limit — so a
/// range is re-keyed again only after ~15/16 of its limit of inserts went into one of its
/// sub-ranges: each insert pays O(1) re-keyed rows per level, O(maxLength) in all (amortized),
/// and most inserts touch only their own row. Keys never depend on anything but the rows' order,
/// and the log records indexes, not keys, so re-keying changes nothing that is replayed.
/// The rule is the same for every backend; each reaches its rows through `OrderKeyedRows`.
enum OrderKeySpace {
    /// Density factor: a range of height h holds at most (62 / densityFactor)^h rows.
    static let densityFactor = 16.0

    /// The key for a row placed between the rows keyed `before` and `after` in stack `parent`,
    /// re-keying a neighbourhood first when the gap is used up. `moving` is the id of a row being
    /// moved (still stored under its old key, possibly in the neighbourhood): it is left out of
    /// the re-keying and parked on a temporary key until the caller stores it.
    static func key(between before: String?, _ after: String?, parent: String, moving: RowID?,
                    rows: some OrderKeyedRows) throws -> String {
        let midpoint = try OrderKey.between(before, after)
        let bytes = Array(midpoint.utf8)
        guard bytes.count > OrderKey.maxLength else { return midpoint }
        let integerLength = try OrderKey.integerLength(of: bytes)
        var length = min(bytes.count - 1, OrderKey.maxLength - 1)
        while length >= integerLength {
            let prefix = String(decoding: bytes[..<length], as: UTF8.self)
            let height = OrderKey.maxLength - length
            let limit = pow(62 / densityFactor, Double(height))
            let count = try rows.count(in: parent, from: prefix, below: prefix + OrderKey.pastDigits)
            if Double(count + 1) <= limit {
                return try rekey(prefix: prefix, newKeyAt: midpoint, parent: parent, moving: moving, rows: rows)
            }
            length -= 1
        }
        throw StoreError.internal("the stack '\(parent)' has too many rows to key within \(OrderKey.maxLength) bytes")
    }

    /// Gives the rows of the prefix range (minus `moving`) and the new row evenly spaced keys
    /// under `prefix`, in their order; returns the new row's key.
    private static func rekey(prefix: String, newKeyAt midpoint: String, parent: String, moving: RowID?,
                              rows: some OrderKeyedRows) throws -> String {
        let upper = prefix + OrderKey.pastDigits
        var ids: [String] = []
        var newRowSlot = 0
        let midpointBytes = Array(midpoint.utf8)
        try rows.forEachRow(in: parent, from: prefix, below: upper) { id, key in
            if id == moving { return }
            if key.lexicographicallyPrecedes(midpointBytes) { newRowSlot += 1 }
            ids.append(id)
        }
        let keys = try OrderKey.spread(ids.count + 1, under: prefix, height: OrderKey.maxLength - prefix.utf8.count)
        // Park the range (and the moving row) on temporary keys ('~' sorts after every digit and
        // no real key starts with it), so no new key collides with an old one.
        try rows.park(in: parent, from: prefix, below: upper, moving: moving)
        try rows.setKeys(ids.enumerated().map { i, id in (id, keys[i < newRowSlot ? i : i + 1]) })
        return keys[newRowSlot]
    }
}

/// A document's current rows as `OrderKeySpace` reads and re-keys them (one stack at a time,
/// by order key range `from..<below`, byte order).
protocol OrderKeyedRows {
    /// How many rows of stack `parent` have keys in the range.
    func count(in parent: String, from: String, below: String) throws -> Int
    /// Calls `body` with each row of stack `parent` whose key is in the range, in key order.
    func forEachRow(in parent: String, from: String, below: String, _ body: (String, UnsafeBufferPointer<UInt8>) throws -> Void) throws
    /// Gives every row of the range, and the row `moving`, the temporary key `'~' || id`.
    func park(in parent: String, from: String, below: String, moving: RowID?) throws
    /// Stores each (id, key).
    func setKeys(_ keys: [(id: String, key: String)]) throws
}
