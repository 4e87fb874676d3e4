/// Bytes of an export written into raw memory: the writer makes room once (`reserve`) for a
/// whole row, then every write is a plain store or copy, without the capacity and uniqueness
/// checks an array append makes per call. Values are written as `JSONWriter` writes them. The
/// bytes written are handed out without a copy (`takePiece()`: the piece takes the memory and
/// the sink starts on new memory). The owner calls `deallocate()` once done.
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

    /// The bytes written as a piece that takes their memory as it is (no copy); the sink goes on,
    /// empty, in new memory of the same capacity.
    mutating func takePiece() -> ExportPiece {
        let piece = ExportPiece(adopting: base, count: count)
        base = .allocate(capacity: capacity)
        count = 0
        return piece
    }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        base[count] = b
        count += 1
    }

    /// The bytes at `range` of `source`.
    @inline(__always)
    mutating func put(_ source: UnsafeMutablePointer<UInt8>, _ range: Range<Int>) {
        Self.copy(UnsafeRawPointer(source + range.lowerBound), to: UnsafeMutableRawPointer(base + count), range.count)
        count += range.count
    }

    @inline(__always)
    mutating func put(_ bytes: UnsafeRawBufferPointer) {
        guard let from = bytes.baseAddress else { return }
        Self.copy(from, to: UnsafeMutableRawPointer(base + count), bytes.count)
        count += bytes.count
    }

    /// Copies `n` bytes (the regions do not overlap). A row's pieces are mostly under 32 bytes
    /// (`"id": `, an indent, `{"fixed": `): those are copied with at most four 8-byte loads
    /// and stores, which may overlap each other inside the `n` bytes, instead of a call to
    /// `memmove` each; longer ones go to `memmove`.
    @inline(__always)
    static func copy(_ from: UnsafeRawPointer, to: UnsafeMutableRawPointer, _ n: Int) {
        switch n {
        case 16...32:
            let a = from.loadUnaligned(as: UInt64.self), b = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let c = from.loadUnaligned(fromByteOffset: n - 16, as: UInt64.self), d = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            to.storeBytes(of: a, as: UInt64.self)
            to.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
            to.storeBytes(of: c, toByteOffset: n - 16, as: UInt64.self)
            to.storeBytes(of: d, toByteOffset: n - 8, as: UInt64.self)
        case 8..<16:
            let a = from.loadUnaligned(as: UInt64.self), b = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            to.storeBytes(of: a, as: UInt64.self)
            to.storeBytes(of: b, toByteOffset: n - 8, as: UInt64.self)
        case 4..<8:
            let a = from.loadUnaligned(as: UInt32.self), b = from.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            to.storeBytes(of: a, as: UInt32.self)
            to.storeBytes(of: b, toByteOffset: n - 4, as: UInt32.self)
        case 0..<4:
            for i in 0..<n { to.storeBytes(of: from.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self) }
        default:
            to.copyMemory(from: from, byteCount: n)
        }
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
        let indent = UnsafeMutableRawPointer(base + count + 1), n = level * 2
        if n >= 8, n <= 64 {
            // Eight spaces a store (the last store may overlap the one before it).
            let spaces: UInt64 = 0x2020_2020_2020_2020
            var at = 0
            while at + 8 <= n {
                indent.storeBytes(of: spaces, toByteOffset: at, as: UInt64.self)
                at += 8
            }
            if at < n { indent.storeBytes(of: spaces, toByteOffset: n - 8, as: UInt64.self) }
        } else {
            indent.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: " "), count: n)
        }
        count += 1 + n
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
