import Layout

/// Fractional order keys: strings whose byte order is the rows' order within a stack.
///
/// A key is an integer part (a head letter giving its length, then base-62 digits) and an
/// optional fraction. Appending or prepending increments or decrements the integer part, so keys
/// stay O(log n) long; inserting between two neighbours takes the midpoint of their fractions,
/// which always exists (unbounded precision). One insert or move therefore writes exactly one
/// row. This is the "fractional indexing" scheme (as in Figma and rocicorp/fractional-indexing).
/// Midpoints alone grow without bound when inserts keep hitting one gap; `OrderKeySpace` keeps
/// every key within `maxLength` by re-keying a neighbourhood (`spread`).
package enum OrderKey {
    /// The longest key the store writes (bytes).
    package static let maxLength = 16
    /// A string that sorts after every key starting with a given prefix: `prefix + pastDigits`
    /// bounds a prefix range (`z` is the largest digit, `{` follows it in ASCII).
    package static let pastDigits = "{"

    package static let digits: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    private static let zero = digits[0]
    private static let base = digits.count

    private static let digitValue: [Int] = {
        var table = [Int](repeating: -1, count: 256)
        for (i, d) in digits.enumerated() { table[Int(d)] = i }
        return table
    }()

    /// The value of digit `d` (0 ..< 62), -1 for a byte that is not a digit.
    @inline(__always)
    package static func digitIndex(_ d: UInt8) -> Int { digitValue[Int(d)] }

    /// The first key handed out in an empty stack.
    package static let first = "a0"

    /// A key strictly between `a` and `b` (`nil` = unbounded on that side).
    package static func between(_ a: String?, _ b: String?) throws -> String {
        let a = a.map { Array($0.utf8) }
        let b = b.map { Array($0.utf8) }
        if let a, let b, !a.lexicographicallyPrecedes(b) {
            throw FormatInvariant("order keys out of order: \(String(decoding: a, as: UTF8.self)) ≥ \(String(decoding: b, as: UTF8.self))")
        }
        return String(decoding: try keyBetween(a, b), as: UTF8.self)
    }

    /// `count` increasing keys for a stack filled in one go (import, bulk load).
    package static func sequence(_ count: Int) -> [String] {
        var keys: [String] = []
        keys.reserveCapacity(count)
        var key = Array(first.utf8)
        for _ in 0..<count {
            keys.append(String(decoding: key, as: UTF8.self))
            key = next(after: key)
        }
        return keys
    }

    /// The key after `key` in `sequence`: key i + 1 of a stack filled in one go.
    package static func next(after key: [UInt8]) -> [UInt8] {
        (try? increment(key)) ?? key + [digits[base / 2]]
    }

    /// `key = next(after: key)` in place: a last digit that is not the largest is stepped up
    /// without a new array (all but one key in 62 of a stack filled in one go).
    @inline(__always)
    package static func advance(_ key: inout [UInt8]) {
        let last = key.count - 1
        if last >= 1 {
            let d = digitValue[Int(key[last])]
            if d >= 0, d + 1 < base {
                key[last] = digits[d + 1]
                return
            }
        }
        key = next(after: key)
    }

    /// `count` increasing keys strictly between `a` and `b` (nil: unbounded on that side), for
    /// a run of rows inserted side by side in one go (`RowRunWriter`). With nothing after the
    /// run, each key is the one `between(previous, nil)` gives (the next integer: as short as
    /// `sequence`'s); else the run is halved — its middle row takes the midpoint, each half is
    /// keyed the same way — so the keys grow by about log2(count) / 6 characters. nil when a key
    /// would be longer than `maxLength` (the caller then keys the rows one by one through
    /// `OrderKeySpace`, which re-keys a neighbourhood).
    package static func keys(_ count: Int, between a: String?, _ b: String?) throws -> [[UInt8]]? {
        let a = a.map { Array($0.utf8) }, b = b.map { Array($0.utf8) }
        if let a, let b, !a.lexicographicallyPrecedes(b) {
            throw FormatInvariant("order keys out of order: \(String(decoding: a, as: UTF8.self)) ≥ \(String(decoding: b, as: UTF8.self))")
        }
        var keys: [[UInt8]] = []
        keys.reserveCapacity(count)
        guard let b else {
            var previous = a
            for _ in 0..<count {
                let key = try keyBetween(previous, nil)
                guard key.count <= maxLength else { return nil }
                keys.append(key)
                previous = key
            }
            return keys
        }
        keys = Array(repeating: [], count: count)
        // Halving, iteratively: each pending range of the run with the keys that bound it.
        var pending: [(range: Range<Int>, low: [UInt8]?, high: [UInt8])] = [(0..<count, a, b)]
        while let (range, low, high) = pending.popLast() {
            guard !range.isEmpty else { continue }
            let middle = (range.lowerBound + range.upperBound) / 2
            let key = try keyBetween(low, high)
            guard key.count <= maxLength else { return nil }
            keys[middle] = key
            pending.append((range.lowerBound..<middle, low, key))
            pending.append((middle + 1..<range.upperBound, key, high))
        }
        return keys
    }

    /// `count` increasing keys `prefix` + up to `height` digits, evenly spaced, each ending in a
    /// non-zero digit (so a key fits between any two of them later). Uses just enough digits
    /// for the keys plus one spare digit of gap, at most `height`.
    package static func spread(_ count: Int, under prefix: String, height: Int) throws -> [String] {
        var width = 1
        var total: UInt64 = UInt64(base)
        while total < UInt64(count + 1) && width < 10 { width += 1; total *= UInt64(base) }
        if width < min(height, 10) { width += 1; total *= UInt64(base) }
        guard width <= height, total >= UInt64(count + 1) else {
            throw FormatInvariant("\(count) order keys do not fit under '\(prefix)' in \(height) digits")
        }
        let prefixBytes = Array(prefix.utf8)
        return (0..<count).map { i in
            let product = total.multipliedFullWidth(by: UInt64(i + 1))
            var value = UInt64(count + 1).dividingFullWidth(product).quotient
            var digitsOut = [UInt8](repeating: zero, count: width)
            for k in stride(from: width - 1, through: 0, by: -1) {
                digitsOut[k] = digits[Int(value % UInt64(base))]
                value /= UInt64(base)
            }
            while digitsOut.last == zero { digitsOut.removeLast() }
            return String(decoding: prefixBytes + digitsOut, as: UTF8.self)
        }
    }

    /// The length of a key's integer part (head letter and its digits).
    package static func integerLength(of key: [UInt8]) throws -> Int {
        try integerPart(key).count
    }

    // MARK: Algorithm

    private static func integerLength(_ head: UInt8) throws -> Int {
        if head >= UInt8(ascii: "a") && head <= UInt8(ascii: "z") { return Int(head - UInt8(ascii: "a")) + 2 }
        if head >= UInt8(ascii: "A") && head <= UInt8(ascii: "Z") { return Int(UInt8(ascii: "Z") - head) + 2 }
        throw FormatInvariant("invalid order key head \(head)")
    }

    private static func integerPart(_ key: [UInt8]) throws -> [UInt8] {
        guard let head = key.first else { throw FormatInvariant("empty order key") }
        let n = try integerLength(head)
        guard n <= key.count else { throw FormatInvariant("invalid order key \(String(decoding: key, as: UTF8.self))") }
        return Array(key[0..<n])
    }

    private static func keyBetween(_ a: [UInt8]?, _ b: [UInt8]?) throws -> [UInt8] {
        switch (a, b) {
        case (nil, nil):
            return Array(first.utf8)
        case (nil, let b?):
            let ib = try integerPart(b)
            let fb = Array(b[ib.count...])
            if ib == smallestInteger { return ib + (try midpoint([], fb)) }
            if ib.count < b.count { return ib }
            if let d = try decrement(ib) { return d }
            return ib + (try midpoint([], fb))
        case (let a?, nil):
            let ia = try integerPart(a)
            let fa = Array(a[ia.count...])
            if let i = try increment(ia) { return i }
            return ia + (try midpoint(fa, nil))
        case (let a?, let b?):
            let ia = try integerPart(a)
            let fa = Array(a[ia.count...])
            let ib = try integerPart(b)
            let fb = Array(b[ib.count...])
            if ia == ib { return ia + (try midpoint(fa, fb)) }
            if let i = try increment(ia), i.lexicographicallyPrecedes(b) { return i }
            return ia + (try midpoint(fa, nil))
        }
    }

    private static let smallestInteger: [UInt8] = [UInt8(ascii: "A")] + [UInt8](repeating: digits[0], count: 26)

    /// A fraction strictly between `a` and `b` (digits after the point; `nil` b = 1).
    private static func midpoint(_ a: [UInt8], _ b: [UInt8]?) throws -> [UInt8] {
        var prefix: [UInt8] = []
        var a = a[...]
        var b = b.map { $0[...] }
        while true {
            if let bb = b {
                var n = 0
                while n < bb.count, (n < a.count ? a[a.startIndex + n] : zero) == bb[bb.startIndex + n] { n += 1 }
                if n > 0 {
                    prefix += bb.prefix(n)
                    a = a.count > n ? a.dropFirst(n) : []
                    b = bb.dropFirst(n)
                }
            }
            let da = a.isEmpty ? 0 : digitValue[Int(a[a.startIndex])]
            let db = b.map { $0.isEmpty ? base : digitValue[Int($0[$0.startIndex])] } ?? base
            guard da >= 0, db >= 0 else { throw FormatInvariant("invalid order key digit") }
            if db - da > 1 {
                return prefix + [digits[(da + db + 1) / 2]]
            }
            if let bb = b, bb.count > 1 {
                return prefix + [bb[bb.startIndex]]
            }
            prefix.append(digits[da])
            a = a.dropFirst()
            b = nil
        }
    }

    package static func increment(_ x: [UInt8]) throws -> [UInt8]? {
        var head = x[0]
        var digs = Array(x.dropFirst())
        var carry = true
        var i = digs.count - 1
        while carry && i >= 0 {
            let d = digitValue[Int(digs[i])] + 1
            if d == base { digs[i] = zero } else { digs[i] = digits[d]; carry = false }
            i -= 1
        }
        if carry {
            if head == UInt8(ascii: "Z") { return [UInt8(ascii: "a"), zero] }
            if head == UInt8(ascii: "z") { return nil }
            head += 1
            if head > UInt8(ascii: "a") { digs.append(zero) } else { digs.removeLast() }
        }
        return [head] + digs
    }

    private static func decrement(_ x: [UInt8]) throws -> [UInt8]? {
        var head = x[0]
        var digs = Array(x.dropFirst())
        var borrow = true
        var i = digs.count - 1
        while borrow && i >= 0 {
            let d = digitValue[Int(digs[i])] - 1
            if d == -1 { digs[i] = digits[base - 1] } else { digs[i] = digits[d]; borrow = false }
            i -= 1
        }
        if borrow {
            if head == UInt8(ascii: "a") { return [UInt8(ascii: "Z"), digits[base - 1]] }
            if head == UInt8(ascii: "A") { return nil }
            head -= 1
            if head < UInt8(ascii: "Z") { digs.append(digits[base - 1]) } else { digs.removeLast() }
        }
        return [head] + digs
    }
}

/// A broken invariant of the stored bytes (a bug or a damaged database), never bad input; the
/// store reports it as its own invariant error (`StoreError.Kind.storeInvariant`).
package struct FormatInvariant: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
