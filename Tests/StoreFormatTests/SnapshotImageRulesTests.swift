import Layout
@testable import StoreFormat
import Testing
import StackDocTestSupport

/// An image whose checksum is sound but whose rows break a document rule (a duplicate id, a
/// length out of range) is refused by the bulk decoding path as it was by the row-by-row one.
@Suite(.offThePool) struct SnapshotImageRulesTests {
    /// `image` with the first occurrence of `from` replaced by `to` (same length) and its
    /// checksum recomputed, so only the rules can refuse it.
    func patched(_ image: [UInt8], _ from: [UInt8], _ to: [UInt8]) throws -> [UInt8] {
        var bytes = Array(image.dropLast(8))
        let at = try #require((0...(bytes.count - from.count)).first { Array(bytes[$0..<($0 + from.count)]) == from })
        bytes.replaceSubrange(at..<(at + from.count), with: to)
        let sum = SnapshotImage.checksum(bytes[...])
        return bytes + withUnsafeBytes(of: sum.littleEndian) { Array($0) }
    }

    @Test func soundImagesBreakingTheRulesAreRefused() throws {
        var document = Document(name: "d")
        try document.appendRow("s", config: RowConfig(stack: StackSettings()), parent: nil)
        try document.appendRow("qa", config: RowConfig(size: .fixed(7)), parent: "s")
        try document.appendRow("qb", config: RowConfig(size: .fixed(1234.5)), parent: nil)
        let image = SnapshotImage.encode(document, uid: "u", version: 1, seq: 1)
        #expect(try SnapshotImage.decode(image, name: "d").document == document)

        let duplicate = try patched(image, Array("qb".utf8), Array("qa".utf8))
        #expect { try SnapshotImage.decode(duplicate, name: "d") } throws: { "\($0)".contains("row 'qa'") && "\($0)".contains("already exists") }
        let negative = try patched(image, withUnsafeBytes(of: (1234.5).bitPattern.littleEndian) { Array($0) },
                                   withUnsafeBytes(of: (-1.0).bitPattern.littleEndian) { Array($0) })
        #expect { try SnapshotImage.decode(negative, name: "d") } throws: { "\($0)".contains("row 'qb' holds a value outside the document rules") }
        let badID = try patched(image, Array("qb".utf8), Array("q!".utf8))
        #expect { try SnapshotImage.decode(badID, name: "d") } throws: { "\($0)".contains("outside the document rules") }
    }
}
