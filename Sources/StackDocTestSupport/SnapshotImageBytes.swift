import Store

/// Snapshot images rewritten by hand, for tests of the image format and of files holding old
/// images.
public enum SnapshotImageBytes {
    /// `image` claiming `format`, its checksum recomputed.
    public static func reformatted(_ image: [UInt8], as format: UInt16) -> [UInt8] {
        var bytes = Array(image.dropLast(8))
        let at = SnapshotImage.magic.count
        bytes[at] = UInt8(format & 0xFF)
        bytes[at + 1] = UInt8(format >> 8)
        let sum = SnapshotImage.checksum(bytes[...])
        return bytes + withUnsafeBytes(of: sum.littleEndian) { Array($0) }
    }
}
