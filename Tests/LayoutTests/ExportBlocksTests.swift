import Testing
import OrderStatistics
#if canImport(Glibc)
import Glibc
#endif
@testable import Layout
import StackDocTestSupport

/// The export's root rows written in blocks by two threads (`RowBlocks`) give exactly the
/// one-thread text: random documents with nested stacks and every row field, every block size
/// from one row up, both forms, several piece sizes; and a sink that fails stops the export
/// cleanly (the helper thread ends, nothing hangs).
@Suite(.offThePool) struct ExportBlocksTests {
    /// A random document of `length` valid random edits (nested stacks, every kind of field).
    static func randomDocument(seed: UInt64, length: Int) throws -> Document {
        var rng = SplitMix64(seed: seed)
        var document = Document(name: "blocks")
        for _ in 0..<length {
            let (_, changes) = RandomOps.edit(for: document, rng: &rng)
            try document.apply(changes)
        }
        return document
    }

    static func text(_ document: Document, pretty: Bool, chunkBytes: Int, blockRows: Int) -> [UInt8] {
        var joined: [UInt8] = []
        document.exportJSONChunks(pretty: pretty, chunkBytes: chunkBytes, blockRows: blockRows) { joined += $0 }
        return joined
    }

    @Test(arguments: [3, 41, 2026] as [UInt64])
    func blocksGiveTheOneThreadText(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for round in 0..<12 {
            let document = try Self.randomDocument(seed: rng.next(), length: 20 + round * 25)
            for pretty in [true, false] {
                let whole = (pretty ? JSONWriter.pretty(document.jsonValue()) : JSONWriter.compact(document.jsonValue())) + "\n"
                let one = Self.text(document, pretty: pretty, chunkBytes: 1 << 20, blockRows: .max)
                #expect(String(decoding: one, as: UTF8.self) == whole, "seed \(seed) round \(round)")
                for blockRows in [1, 2, 3, 7] {
                    for chunkBytes in [1, 100, 1 << 20] {
                        #expect(Self.text(document, pretty: pretty, chunkBytes: chunkBytes, blockRows: blockRows) == one,
                                "seed \(seed) round \(round): blocks of \(blockRows), pieces of \(chunkBytes), pretty \(pretty)")
                    }
                }
            }
        }
    }

    /// Enough root rows for the default blocks (three blocks and a part), some of them stacks
    /// with rows of their own: the public export is the generic writer's text.
    @Test func defaultBlocksGiveTheGenericText() throws {
        var document = Document(name: "many")
        var stack = RowConfig(size: .fit)
        stack.stack = StackSettings()
        let rows = 3 * RowBlocks.defaultRows + 123
        for i in 0..<rows {
            try document.appendRow("r\(i)", config: i % 997 == 0 ? stack : RowConfig(size: .fixed(Double(i % 50)), hidden: i % 3 == 0),
                                   parent: nil)
            if i % 997 == 0 { try document.appendRow("in\(i)", config: RowConfig(size: .fixed(4)), parent: "r\(i)") }
        }
        var joined: [UInt8] = []
        document.exportJSONChunks(pretty: true, chunkBytes: 1 << 16) { joined += $0 }
        #expect(String(decoding: joined, as: UTF8.self) == JSONWriter.pretty(document.jsonValue()) + "\n")
    }

    struct Full: Error {}

    /// A sink that fails after some pieces: the export throws its error and the helper thread
    /// stops (the next export works).
    @Test func aFailingSinkStopsTheExport() throws {
        let document = try Self.randomDocument(seed: 9, length: 200)
        let one = Self.text(document, pretty: true, chunkBytes: 1 << 20, blockRows: .max)
        var total = 0
        document.exportJSONChunks(pretty: true, chunkBytes: 16, blockRows: 2) { _ in total += 1 }
        for failAfter in [0, 1, 2, 5, 20] where failAfter < total {
            var pieces = 0
            #expect(throws: Full.self) {
                try document.exportJSONChunks(pretty: true, chunkBytes: 16, blockRows: 2) { _ in
                    if pieces == failAfter { throw Full() }
                    pieces += 1
                }
            }
            #expect(Self.text(document, pretty: true, chunkBytes: 64, blockRows: 2) == one)
        }
    }

    /// The two threads take blocks from one counter, so which thread writes which block
    /// depends on their speeds: a sink that waits on some pieces (the helper then writes most
    /// blocks, several in a row) and one that never waits (the caller writes many) both give
    /// the one-thread text, for random documents in both forms.
    @Test(arguments: [5, 77] as [UInt64])
    func anySplitOfTheBlocksGivesTheOneThreadText(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for round in 0..<4 {
            let document = try Self.randomDocument(seed: rng.next(), length: 60 + round * 40)
            for pretty in [true, false] {
                let one = Self.text(document, pretty: pretty, chunkBytes: 1 << 20, blockRows: .max)
                for waitEvery in [1, 3, 0] {
                    var joined: [UInt8] = []
                    var pieces = 0
                    document.exportJSONChunks(pretty: pretty, chunkBytes: 32, blockRows: 1) { piece in
                        pieces += 1
                        if waitEvery > 0, pieces % waitEvery == 0 { usleep(200) }
                        joined += piece
                    }
                    #expect(joined == one, "seed \(seed) round \(round): pretty \(pretty), a wait every \(waitEvery) pieces")
                }
            }
        }
    }

    /// The pieces handed over without a copy (`exportJSONPieces`, the sink's memory taken by
    /// each piece) hold, kept until the export ends and joined afterwards, exactly the one-thread
    /// text: no piece's memory is written again or freed while a piece holds it, whichever
    /// thread wrote it.
    @Test(arguments: [8, 2027] as [UInt64])
    func piecesKeptUntilTheEndGiveTheOneThreadText(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for round in 0..<4 {
            let document = try Self.randomDocument(seed: rng.next(), length: 80 + round * 50)
            for pretty in [true, false] {
                let one = Self.text(document, pretty: pretty, chunkBytes: 1 << 20, blockRows: .max)
                for (chunkBytes, blockRows) in [(1, 1), (24, 2), (256, 3), (1 << 20, 1)] {
                    var kept: [ExportPiece] = []
                    document.exportJSONPieces(pretty: pretty, chunkBytes: chunkBytes, blockRows: blockRows) { kept.append($0) }
                    #expect(kept.allSatisfy { $0.count > 0 })
                    var joined: [UInt8] = []
                    for piece in kept { piece.withUnsafeBytes { joined.append(contentsOf: $0) } }
                    #expect(joined == one, "seed \(seed) round \(round): pieces of \(chunkBytes), blocks of \(blockRows), pretty \(pretty)")
                    #expect(kept.flatMap(\.bytes) == one)
                }
            }
        }
    }

    /// A piece made by copying an array holds that array's bytes (empty too).
    @Test func aCopiedPieceHoldsTheBytes() {
        for bytes in [[], [7], Array("{\"id\": \"r1\"}".utf8), [UInt8](repeating: 0xFF, count: 5000)] as [[UInt8]] {
            let piece = ExportPiece(copying: bytes)
            #expect(piece.count == bytes.count)
            #expect(piece.bytes == bytes)
        }
    }
}
