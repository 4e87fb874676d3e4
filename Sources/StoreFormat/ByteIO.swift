import Layout

/// Appends little-endian values to a byte array.
package struct ByteWriter {
    package private(set) var buffer: [UInt8] = []

    package init(capacity: Int) { buffer.reserveCapacity(capacity) }

    @inline(__always) package mutating func u8(_ v: UInt8) { buffer.append(v) }
    @inline(__always) package mutating func u16(_ v: UInt16) { buffer.append(UInt8(v & 0xFF)); buffer.append(UInt8(v >> 8)) }
    @inline(__always) package mutating func u64(_ v: UInt64) { Self.append(u64: v, to: &buffer) }
    @inline(__always) package mutating func f64(_ v: Double) { u64(v.bitPattern) }
    /// Appends what `u64` writes (little-endian) to a byte array of the caller's.
    @inline(__always) package static func append(u64 v: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }
    /// Appends what `f64` writes (the IEEE bit pattern, as `u64`) to a byte array of the
    /// caller's (`RowFields`).
    @inline(__always) package static func append(f64 v: Double, to bytes: inout [UInt8]) { append(u64: v.bitPattern, to: &bytes) }
    @inline(__always) package mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            buffer.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        buffer.append(UInt8(v))
    }
    package mutating func bytes(_ b: [UInt8]) { buffer.append(contentsOf: b) }
    package mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            buffer.append(contentsOf: utf8)
        }
    }
    package mutating func edges(_ e: Edges) { f64(e.top); f64(e.left); f64(e.bottom); f64(e.right) }
}

/// Reads what `ByteWriter` wrote from bytes in memory (valid while it reads); every read checks
/// the bounds (`SnapshotImage.Damage`).
package struct ByteReader {
    package let bytes: UnsafeRawBufferPointer
    package var position = 0

    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    package var remaining: Int { bytes.count - position }

    private func short() -> SnapshotImage.Damage { SnapshotImage.Damage(description: "the image ends early (at byte \(position))") }

    @inline(__always) package mutating func u8() throws -> UInt8 {
        guard position < bytes.count else { throw short() }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func u16() throws -> UInt16 {
        let lo = try u8(), hi = try u8()
        return UInt16(lo) | UInt16(hi) << 8
    }

    @inline(__always) package mutating func f64() throws -> Double {
        guard remaining >= 8 else { throw short() }
        let v = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        position += 8
        return Double(bitPattern: UInt64(littleEndian: v))
    }

    @inline(__always) package mutating func varint() throws -> UInt64 {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try u8()
            guard shift < 64 else { throw SnapshotImage.Damage(description: "a number is too long (at byte \(position))") }
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
    }

    /// A length of a row record (`RowStyleTable.writeRecord`): a varint below 2⁵³ when
    /// `whole`, else an f64.
    @inline(__always) package mutating func length(whole: Bool) throws -> Double {
        whole ? Double(try count(limit: (1 << 53) - 1)) : try f64()
    }

    /// A varint that must be at most `limit`.
    @inline(__always) package mutating func count(limit: Int) throws -> Int {
        let v = try varint()
        guard v <= UInt64(max(limit, 0)) else { throw SnapshotImage.Damage(description: "value \(v) out of range 0...\(limit) (at byte \(position))") }
        return Int(v)
    }

    @inline(__always) package mutating func string() throws -> String {
        // The limit is what is left after the length itself (`remaining` read before it would
        // let a length that counts its own bytes past the end).
        let length = try varint()
        guard length <= UInt64(remaining) else { throw short() }
        let n = Int(length)
        defer { position += n }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + n)]), as: UTF8.self)
    }

    package mutating func flag() throws -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let b: throw SnapshotImage.Damage(description: "flag \(b) is neither 0 nor 1")
        }
    }

    package mutating func edges() throws -> Edges {
        Edges(top: try f64(), left: try f64(), bottom: try f64(), right: try f64())
    }

    package mutating func value<E: RawRepresentable>(_ type: E.Type) throws -> E where E.RawValue == String {
        let text = try string()
        guard let v = E(rawValue: text) else { throw SnapshotImage.Damage(description: "unknown \(E.self) '\(text)'") }
        return v
    }
}
