/// An open-addressing hash set of small integers (row slots or style record numbers) whose keys
/// live elsewhere: the table stores only the `Int32` value, and the caller supplies the hash of
/// the key and how to recognise it. Linear probing, power-of-two capacity, load ≤ 3/4,
/// backward-shift deletion (no tombstones). 4 bytes per bucket: a million ids cost 8 MB here
/// instead of the ≈ 40 MB of a `[RowID: Int32]` dictionary (which stores every key again).
struct DocumentIndexTable: Sendable {
    private(set) var buckets: [Int32] = []
    private(set) var count = 0
    private var mask = -1

    static let empty: Int32 = -1

    init() {}

    /// Grows the table so that `capacity` values fit without rehashing.
    mutating func reserve(_ capacity: Int, hashOf: (Int32) -> Int) {
        var size = 8
        while size * 3 / 4 < capacity { size *= 2 }
        if size > buckets.count { rehash(to: size, hashOf: hashOf) }
    }

    /// The value whose key matches (`isMatch`), given the key's hash; nil when there is none.
    @inline(__always)
    func find(hash: Int, _ isMatch: (Int32) -> Bool) -> Int32? {
        guard count > 0 else { return nil }
        var i = hash & mask
        return buckets.withUnsafeBufferPointer { b in
            while true {
                let v = b[i]
                if v == Self.empty { return nil }
                if isMatch(v) { return v }
                i = (i + 1) & mask
            }
        }
    }

    /// Adds `value` (whose key is not in the table yet) under `hash`.
    mutating func insert(_ value: Int32, hash: Int, hashOf: (Int32) -> Int) {
        if (count + 1) * 4 > buckets.count * 3 { rehash(to: max(8, buckets.count * 2), hashOf: hashOf) }
        var i = hash & mask
        while buckets[i] != Self.empty { i = (i + 1) & mask }
        buckets[i] = value
        count += 1
    }

    /// Removes `value` (stored under `hash`); `hashOf` gives the hash of any other stored value.
    mutating func remove(_ value: Int32, hash: Int, hashOf: (Int32) -> Int) {
        guard count > 0 else { return }
        var i = hash & mask
        while buckets[i] != value {
            if buckets[i] == Self.empty { return }
            i = (i + 1) & mask
        }
        // Backward shift: pull later entries of the probe run into the hole when their home
        // bucket does not lie cyclically in (hole, entry].
        var hole = i
        var j = (i + 1) & mask
        while buckets[j] != Self.empty {
            let home = hashOf(buckets[j]) & mask
            let distanceToEntry = (j - home) & mask
            let distanceToHole = (j - hole) & mask
            if distanceToEntry >= distanceToHole {
                buckets[hole] = buckets[j]
                hole = j
            }
            j = (j + 1) & mask
        }
        buckets[hole] = Self.empty
        count -= 1
    }

    /// Fills an empty table with the values `0..<count` in bulk (a loaded document's slots, a
    /// fresh layout's nodes): every hash is computed once, in order, and the values are placed
    /// grouped by the region of the table their home bucket lies in, so the probes walk the
    /// table region by region instead of jumping at random through it (at a million values the
    /// random inserts were one cache miss each, most of their cost). Returns a value whose key
    /// equals another value's (`isEqual`; the table is then left empty), nil when all are
    /// distinct.
    mutating func build(count n: Int, hashOf: (Int32) -> Int, isEqual: (Int32, Int32) -> Bool) -> Int32? {
        let hashes = [UInt32](unsafeUninitializedCapacity: n) { h, initialized in
            for v in 0..<n { h[v] = UInt32(truncatingIfNeeded: hashOf(Int32(truncatingIfNeeded: v))) }
            initialized = n
        }
        return build(hashes: hashes, isEqual: isEqual)
    }

    /// `build(count:hashOf:isEqual:)` given the 32 low bits of the hash of every value
    /// `0..<hashes.count` (all a table of at most 2³² buckets reads of a hash: its bucket is
    /// `hash & mask`).
    ///
    /// Every pass reads and writes memory in order or within one region: the values are
    /// sorted by region with their hashes beside them (no lookup of a hash by value, which at
    /// a million values was a cache miss per value), and the probes compare the hashes kept
    /// beside the buckets (`tags`, filled as the buckets are) before the keys. 32-bit hashes
    /// and values keep the temporary columns at 4 + 8 bytes per value and 4 per bucket (16 + 16
    /// and 4 with whole `Int` hashes): at a million ids, 20 MB fewer fresh pages to fault in.
    mutating func build(hashes: [UInt32], isEqual: (Int32, Int32) -> Bool) -> Int32? {
        precondition(count == 0, "build fills an empty table")
        let n = hashes.count
        var size = 8
        while size * 3 / 4 < n { size *= 2 }
        precondition(size <= 1 << 32, "build: the 32 low bits of a hash hold its bucket")
        buckets = [Int32](repeating: Self.empty, count: size)
        mask = size - 1
        guard n > 0 else { return nil }
        // Regions of 512 buckets (2 KB): a counting sort of the values by region.
        let shift = max(0, size.trailingZeroBitCount - 9)
        let regions = (size >> shift) + 1
        let m = mask
        var start = [Int32](repeating: 0, count: regions + 1)
        for h in hashes { start[((Int(h) & m) >> shift) + 1] += 1 }
        for r in 0..<regions { start[r + 1] += start[r] }
        var grouped = [(hash: UInt32, value: Int32)](unsafeUninitializedCapacity: n) { grouped, initialized in
            start.withUnsafeMutableBufferPointer { start in
                hashes.withUnsafeBufferPointer { hashes in
                    for v in 0..<n {
                        let h = hashes[v]
                        let r = (Int(h) & m) >> shift
                        grouped.initializeElement(at: Int(start[r]), to: (h, Int32(truncatingIfNeeded: v)))
                        start[r] += 1
                    }
                }
            }
            initialized = n
        }
        start = []
        var tags = [UInt32](repeating: 0, count: size)
        let duplicate: Int32? = buckets.withUnsafeMutableBufferPointer { b in
            tags.withUnsafeMutableBufferPointer { tags in
                for (tag, v) in grouped {
                    var i = Int(tag) & m
                    while b[i] != Self.empty {
                        if tags[i] == tag && isEqual(b[i], v) { return v }
                        i = (i + 1) & m
                    }
                    b[i] = v
                    tags[i] = tag
                }
                return nil
            }
        }
        grouped = []
        if duplicate != nil {
            buckets = []
            mask = -1
        } else {
            count = n
        }
        return duplicate
    }

    private mutating func rehash(to size: Int, hashOf: (Int32) -> Int) {
        let old = buckets
        buckets = [Int32](repeating: Self.empty, count: size)
        mask = size - 1
        for v in old where v != Self.empty {
            var i = hashOf(v) & mask
            while buckets[i] != Self.empty { i = (i + 1) & mask }
            buckets[i] = v
        }
    }
}

extension DocumentIndexTable {
    /// A fast, fixed hash of a row id: for an ASCII id (every id that passes validation) a hash
    /// of its bytes, 8 at a time, then an avalanche — several times cheaper than
    /// `String.hashValue` (SipHash); other ids use `hashValue`, which respects Unicode canonical
    /// equivalence among them. (An ASCII id and a non-ASCII id that `==` calls equal, such as
    /// "K" and KELVIN SIGN, are not recognised as the same id; validated ids are ASCII.)
    @inline(__always)
    static func hash(_ id: RowID) -> Int {
        var copy = id
        return copy.withUTF8(hash(ascii:)) ?? id.hashValue
    }

    /// `hash(_:)` of the UTF-8 bytes of an ASCII id; nil when a byte is not ASCII.
    @inline(__always)
    static func hash(ascii bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(n)
        guard let base = bytes.baseAddress else { return Int(truncatingIfNeeded: h) }
        let raw = UnsafeRawPointer(base)
        var high: UInt64 = 0
        var i = 0
        while i + 8 <= n {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            high |= w
            h = (h ^ w) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(bytes[i]) << shift
                shift += 8
                i += 1
            }
            high |= tail
            h = (h ^ tail) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
        }
        guard high & 0x8080_8080_8080_8080 == 0 else { return nil }
        h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return Int(truncatingIfNeeded: h)
    }
}
