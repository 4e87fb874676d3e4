import Foundation
import Layout
import StackDocScript
import Testing
import StackDocTestSupport

/// `FileIO.write` of pieces (what `export FILE` streams): the pieces are written on a second
/// thread while the next ones are made; the file must hold them all, in order, or not exist.
@Suite(.longRunning) struct FileWriteTests {
    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appending(path: "stackdoc-filewrite-\(UUID().uuidString)-\(name)").path
    }

    @Test func manyPiecesArriveWholeAndInOrder() throws {
        let path = temporaryPath("pieces.txt")
        defer { unlink(path) }
        var expected: [UInt8] = []
        try FileIO.write(to: path) { sink in
            for i in 0..<2_000 {
                let piece = Array("piece \(i) ".utf8) + [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: i % 300)
                expected += piece
                try sink(piece)
            }
        }
        #expect(FileManager.default.contents(atPath: path).map(Array.init) == expected)
    }

    @Test func aProducerThatThrowsLeavesNoFile() throws {
        struct Stop: Error {}
        let path = temporaryPath("stopped.txt")
        #expect(throws: Stop.self) {
            try FileIO.write(to: path) { sink in
                for i in 0..<100 { try sink(Array("row \(i)\n".utf8)) }
                throw Stop()
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".stackdoc-tmp"))
    }

    @Test func aFailedWriteIsReportedAndLeavesNoFile() throws {
        // A directory the process cannot create files in: fopen fails before the first piece.
        #expect(throws: CommandError.self) {
            try FileIO.write(to: "/proc/stackdoc-no-such-dir/x.json") { sink in try sink([1, 2, 3]) }
        }
    }

    /// The streamed export, in pieces of any size, is the whole export's bytes.
    @Test func exportInSmallPiecesIsTheWholeExport() throws {
        var doc = Document(name: "pieces")
        for i in 0..<50 { try doc.appendRow(i % 7 == 0 ? "r\"\(i)\\" : "r\(i)", config: RowConfig(size: i % 3 == 0 ? .fit : .fixed(Double(i) + 0.5)), parent: nil) }
        for pretty in [true, false] {
            let whole = doc.exportJSONBytes(pretty: pretty)
            for size in [1, 7, 4096] {
                var joined: [UInt8] = []
                doc.exportJSONChunks(pretty: pretty, chunkBytes: size) { joined += $0 }
                #expect(joined == whole, "pretty \(pretty), pieces of \(size) bytes")
            }
            #expect(whole == Array((pretty ? JSONWriter.pretty(doc.jsonValue()) : JSONWriter.compact(doc.jsonValue())).utf8) + [0x0A])
        }
    }

    /// `writePieces` of pieces of every size around the gathering threshold (small ones are
    /// gathered, large ones go as they are, after the gathered ones): the file holds them all,
    /// in order.
    @Test func exportPiecesOfMixedSizesArriveWholeAndInOrder() throws {
        let path = temporaryPath("export-pieces.txt")
        defer { unlink(path) }
        var expected: [UInt8] = []
        let sizes = [1, 5, 1 << 18, 3, (1 << 18) - 1, 2, 1 << 19, 1 << 19, 7, 0, 100_000, 300_000, 1]
        try FileIO.writePieces(to: path) { sink in
            for (k, size) in sizes.enumerated() {
                let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ k) }
                expected += bytes
                try sink(ExportPiece(copying: bytes))
            }
        }
        #expect(FileManager.default.contents(atPath: path).map(Array.init) == expected)
    }

    /// `export FILE`'s way (`exportJSONPieces` into `writePieces`) writes the whole export's
    /// bytes, for a document large enough for two threads' blocks, in pieces of any size.
    @Test func exportPiecesWrittenToAFileAreTheWholeExport() throws {
        var doc = Document(name: "pieces")
        doc.reserveCapacity(rows: 9_000, rootRows: 9_000)
        for i in 0..<9_000 { try doc.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(20 + i % 50)), hidden: i % 5 == 0), parent: nil) }
        let path = temporaryPath("export.json")
        defer { unlink(path) }
        for pretty in [true, false] {
            let whole = doc.exportJSONBytes(pretty: pretty)
            for size in [64, 100_000, 1 << 20] {
                try FileIO.writePieces(to: path) { sink in try doc.exportJSONPieces(pretty: pretty, chunkBytes: size, sink) }
                #expect(FileManager.default.contents(atPath: path).map(Array.init) == whole, "pretty \(pretty), pieces of \(size) bytes")
            }
        }
    }
}
