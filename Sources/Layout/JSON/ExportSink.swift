/// Bytes of an export written into raw memory: the writer makes room once (`reserve`) for a
/// whole row, then every write is a plain store or copy, without the capacity and uniqueness
/// checks an array append makes per call. Values are written as `JSONWriter` writes them. The
/// owner calls `deallocate()` once done.
struct ExportSink {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    /// An empty sink with room for `capacity` bytes.
    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    /// Frees the memory (the sink is not used again).
    func deallocate() { base.deallocate() }

    /// Makes room for `extra` more bytes. Every write below needs room made first.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        let bigger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = bigger
    }

    /// Forgets the bytes written (keeps the memory).
    mutating func removeAll() { count = 0 }

    /// A copy of the bytes written.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        base[count] = b
        count += 1
    }

    /// The bytes at `range` of `source`.
    @inline(__always)
    mutating func put(_ source: UnsafeMutablePointer<UInt8>, _ range: Range<Int>) {
        (base + count).update(from: source + range.lowerBound, count: range.count)
        count += range.count
    }

    @inline(__always)
    mutating func put(_ bytes: UnsafeRawBufferPointer) {
        guard let from = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(base + count).copyMemory(from: from, byteCount: bytes.count)
        count += bytes.count
    }

    /// Makes room for `bytes` and appends them.
    mutating func append(_ bytes: [UInt8]) {
        reserve(bytes.count)
        bytes.withUnsafeBytes { put($0) }
    }

    /// A newline and `level` two-space indents (`1 + 2 · level` bytes).
    @inline(__always)
    mutating func newline(_ level: Int) {
        base[count] = 0x0A
        (base + count + 1).initialize(repeating: UInt8(ascii: " "), count: level * 2)
        count += 1 + level * 2
    }

    /// A JSON string of UTF-8 bytes (at most `2 + 6 · count` bytes), escaped as
    /// `JSONWriter.appendString` escapes.
    @inline(__always)
    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
        byte(UInt8(ascii: "\""))
        if utf8.allSatisfy(JSONWriter.isPlainStringByte) {
            put(UnsafeRawBufferPointer(utf8))
        } else {
            var escaped: [UInt8] = []
            JSONWriter.appendString(String(decoding: utf8, as: UTF8.self), to: &escaped)
            escaped.withUnsafeBytes { put(UnsafeRawBufferPointer(rebasing: $0.dropFirst().dropLast())) }
        }
        byte(UInt8(ascii: "\""))
    }

    /// A number as `JSONWriter.appendNumber` writes it (at most 40 bytes).
    @inline(__always)
    mutating func number(_ n: Double) {
        guard var value = JSONWriter.integerForm(n) else {
            var text = JSONNumber.format(n)
            text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
            return
        }
        if value < 0 {
            byte(UInt8(ascii: "-"))
            value = -value
        }
        var digits = 1, scale: Int64 = 10
        while scale <= value {
            digits += 1
            scale &*= 10
        }
        var at = count + digits
        count = at
        repeat {
            at -= 1
            base[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
            value /= 10
        } while value > 0
    }
}
