import Layout
@testable import StoreFormat
import StackDocTestSupport
import Testing

/// Snapshot images of format 2 (schema 18) write a row's whole-number lengths as varints; every
/// length still comes back bit for bit, and images of format 1 (written up to schema 17, in
/// existing files) are still read.
@Suite(.offThePool) struct SnapshotImageFormatTests {
    /// `image` claiming `format`, its checksum recomputed.
    func reformatted(_ image: [UInt8], as format: UInt16) -> [UInt8] { SnapshotImageBytes.reformatted(image, as: format) }

    /// Rows with every kind of length: whole, fractional, −0, at and past 2⁵³, huge, fit, with
    /// and without content, in a stack.
    func lengthsDocument() throws -> Document {
        var document = Document(name: "d")
        let lengths: [Double] = [0, -0.0, 1, 127, 128, 200, 16383, 16384, 40.5, 0.1, 9_007_199_254_740_991,
                                 9_007_199_254_740_992, 1e300, DocumentLimits.maxLength]
        try document.appendRow("s", config: RowConfig(size: .fixed(40), stack: StackSettings()), parent: nil)
        for (i, n) in lengths.enumerated() where n <= DocumentLimits.maxLength {
            try document.appendRow("f\(i)", config: RowConfig(size: .fixed(n)), parent: i % 2 == 0 ? nil : "s")
            try document.appendRow("c\(i)", config: RowConfig(size: .fit, content: Size(width: n, height: 3)), parent: nil)
            try document.appendRow("m\(i)", config: RowConfig(size: .fixed(7), content: Size(width: 2, height: n), hidden: true), parent: "s")
        }
        try document.appendRow("plain", config: RowConfig(), parent: nil)
        return document
    }

    @Test func everyLengthComesBackBitForBit() throws {
        let document = try lengthsDocument()
        let image = SnapshotImage.encode(document, uid: "u", version: 3, seq: 2)
        #expect(image[SnapshotImage.magic.count] == 3)
        let decoded = try SnapshotImage.decode(image, name: "d").document
        #expect(decoded == document)
        var sizes: [UInt64] = [], decodedSizes: [UInt64] = []
        document.forEachRow { id, _, _, config in
            if case let .fixed(n) = config.size { sizes.append(n.bitPattern) }
            sizes += [config.content.width.bitPattern, config.content.height.bitPattern]
        }
        decoded.forEachRow { id, _, _, config in
            if case let .fixed(n) = config.size { decodedSizes.append(n.bitPattern) }
            decodedSizes += [config.content.width.bitPattern, config.content.height.bitPattern]
        }
        #expect(sizes == decodedSizes)
    }

    @Test func wholeLengthsTakeAVarint() throws {
        #expect(RowStyleTable.wholeLength(0) == 0)
        #expect(RowStyleTable.wholeLength(-0.0) == nil)
        #expect(RowStyleTable.wholeLength(40) == 40)
        #expect(RowStyleTable.wholeLength(40.5) == nil)
        #expect(RowStyleTable.wholeLength(-1) == nil)
        #expect(RowStyleTable.wholeLength(.nan) == nil)
        #expect(RowStyleTable.wholeLength(.infinity) == nil)
        #expect(RowStyleTable.wholeLength(9_007_199_254_740_991) == 9_007_199_254_740_991)
        #expect(RowStyleTable.wholeLength(9_007_199_254_740_992) == nil)
        // A flat document of `fixed` rows: 1 (flags) + 1–2 bytes a size instead of 1 + 8.
        var flat = Document(name: "flat")
        for i in 0..<1000 { try flat.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(20 + i % 181))), parent: nil) }
        var fractional = Document(name: "flat")
        for i in 0..<1000 { try fractional.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(20 + i % 181) + 0.5)), parent: nil) }
        let whole = SnapshotImage.encode(flat, uid: "u", version: 1, seq: 1).count
        let f64 = SnapshotImage.encode(fractional, uid: "u", version: 1, seq: 1).count
        #expect(f64 - whole >= 1000 * 6)
    }

    /// Migration 0020's reader (`decodeAnyFormat`) reads format 1; the running path's decoder
    /// refuses it by its number.
    @Test func formatOneImagesAreReadOnlyByTheUpgrade() throws {
        // A format-1 image is a format-2 image without flag bit 4: lengths that are not whole
        // numbers are f64s in both.
        var document = Document(name: "d")
        try document.appendRow("s", config: RowConfig(stack: StackSettings()), parent: nil)
        for i in 0..<50 {
            try document.appendRow("r\(i)", config: RowConfig(size: i % 3 == 0 ? .fit : .fixed(Double(i) + 0.25),
                                                               content: i % 5 == 0 ? Size(width: 1.5, height: 2.5) : .zero),
                                   parent: i % 2 == 0 ? "s" : nil)
        }
        let formatOne = reformatted(SnapshotImage.encode(document, uid: "u", version: 1, seq: 1, format: 2), as: 1)
        #expect(SnapshotImage.formatNumber(formatOne) == 1)
        #expect(try SnapshotImage.decodeAnyFormat(formatOne, name: "d").document == document)
        #expect { try SnapshotImage.decode(formatOne, name: "d") } throws: { "\($0)" == "image format 1, this StackDoc reads 3" }
        #expect { try SnapshotImage.header(formatOne) } throws: { "\($0)".contains("image format 1") }
        // Bit 4 means nothing in format 1, and format 4 is not known.
        let whole = SnapshotImage.encode(try lengthsDocument(), uid: "u", version: 1, seq: 1, format: 2)
        #expect { try SnapshotImage.decodeAnyFormat(reformatted(whole, as: 1), name: "d") } throws: { "\($0)".contains("unknown flags") }
        #expect { try SnapshotImage.decodeAnyFormat(reformatted(whole, as: 4), name: "d") } throws: { "\($0)".contains("image format 4") }
    }

    @Test func theSafeAreaComesBackAndFormatTwoImagesHaveNone() throws {
        var document = try lengthsDocument()
        document.settings.safeArea = Edges(top: 47, left: 0.5, bottom: 34, right: 1e-300)
        document.settings.viewportInsets = Edges(top: 1, left: 2, bottom: 3, right: 4)
        let image = SnapshotImage.encode(document, uid: "u", version: 1, seq: 1)
        #expect(try SnapshotImage.decode(image, name: "d").document == document)
        let two = SnapshotImage.encode(document, uid: "u", version: 1, seq: 1, format: 2)
        #expect(two.count == image.count - 32)
        var without = document
        without.settings.safeArea = .zero
        #expect(try SnapshotImage.decodeAnyFormat(two, name: "d").document == without)
        #expect { try SnapshotImage.decode(two, name: "d") } throws: { "\($0)".contains("image format 2") }
    }
}
