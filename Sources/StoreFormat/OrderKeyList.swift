/// Order keys for a run of rows, in one flat byte buffer (key i is `bytes[ends[i-1] ..< ends[i]]`)
/// instead of an array per key: 100k keys were 100k heap arrays (≈ 0.5 µs a key, most of it
/// `malloc` and the copies of `OrderKey.increment`), on the critical path of an undo of a
/// `clear` (issue 15 item 8).
package struct OrderKeyList: Sendable {
    package private(set) var bytes: [UInt8] = []
    private var ends: [Int32] = []

    /// No keys yet, room for `count` keys of about `length` bytes.
    package init(capacity count: Int, length: Int = 4) {
        bytes.reserveCapacity(count * length)
        ends.reserveCapacity(count)
    }

    /// The number of keys.
    package var count: Int { ends.count }

    /// Key `i`'s bytes.
    package subscript(i: Int) -> ArraySlice<UInt8> {
        bytes[(i == 0 ? 0 : Int(ends[i - 1]))..<Int(ends[i])]
    }

    /// Appends a key.
    package mutating func append<C: Collection<UInt8>>(_ key: C) {
        bytes.append(contentsOf: key)
        ends.append(Int32(bytes.count))
    }

    /// Every key, as arrays (for tests and the rare row-by-row path).
    package var arrays: [[UInt8]] { (0..<count).map { Array(self[$0]) } }
}

extension OrderKey {
    /// The keys `keys(_:between:_:)` gives — byte for byte, nil when it gives nil — in one flat
    /// list. With nothing after the run (the common case: a stack filled or appended to, an
    /// undo of a `clear`), each key is the integer after the previous one, stepped in place (no
    /// array per key: `advance`'s fast path); else the halving of `keys`, flattened.
    package static func keyList(_ count: Int, between a: String?, _ b: String?) throws -> OrderKeyList? {
        guard b == nil else {
            guard let keys = try keys(count, between: a, b) else { return nil }
            var list = OrderKeyList(capacity: count, length: keys.first?.count ?? 0)
            for key in keys { list.append(key) }
            return list
        }
        var list = OrderKeyList(capacity: count)
        guard count > 0 else { return list }
        // The first key: `keys`' first (the integer after `a`'s integer part, or `first`).
        guard var key = try firstKey(after: a) else { return nil }
        list.append(key)
        // `key` is an integer (head and digits, no fraction): `keyBetween(key, nil)` is its
        // increment, which, when the last digit is not the largest, steps that digit alone.
        for _ in 1..<count {
            if let stepped = steppedLastDigit(key) {
                key[key.count - 1] = stepped
            } else {
                // A carry: `keys` would take the increment, or (none: a key of head `z`,
                // longer than `maxLength`) give nil.
                guard let next = try increment(key), next.count <= maxLength else { return nil }
                key = next
            }
            list.append(key)
        }
        return list
    }

    /// The first key of a run after `a` with nothing after it, as `keys` makes it (nil: longer
    /// than `maxLength`).
    private static func firstKey(after a: String?) throws -> [UInt8]? {
        guard a != nil else { return Array(first.utf8) }
        return try keys(1, between: a, nil)?.first
    }

    /// The last digit of integer `key` stepped up by one, nil when it is the largest (a carry).
    @inline(__always)
    private static func steppedLastDigit(_ key: [UInt8]) -> UInt8? {
        guard key.count >= 2 else { return nil }
        let d = digitIndex(key[key.count - 1])
        guard d >= 0, d + 1 < digits.count else { return nil }
        return digits[d + 1]
    }
}
