import Foundation
import Layout
import StackDocScript
import Testing

/// `FileIO.write` of pieces (what `export FILE` streams): the pieces are written on a second
/// thread while the next ones are made; the file must hold them all, in order, or not exist.
@Suite struct FileWriteTests {
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
        #expect(throws: StackDocError.self) {
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
}
