import Testing
@testable import Layout
import StackDocTestSupport

/// `ExportSink`'s own copies (`copy`: words for short runs, `memmove` for long ones), its
/// indents and `takePiece()` give exactly the bytes asked for: every length and offset, no byte
/// written outside the run, pieces that keep their bytes while the sink goes on.
@Suite(.offThePool) struct ExportSinkTests {
    /// Every length from 0 to 100 at every source and target offset 0…8: the target holds the
    /// source's bytes and the bytes around them are untouched.
    @Test func copyWritesExactlyTheRun() {
        let source = (0..<120).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for n in 0...100 {
            for from in 0...8 {
                for to in 0...8 {
                    var target = [UInt8](repeating: 0xEE, count: 120)
                    source.withUnsafeBytes { s in
                        target.withUnsafeMutableBytes { t in ExportSink.copy(s.baseAddress! + from, to: t.baseAddress! + to, n) }
                    }
                    #expect(Array(target[to..<(to + n)]) == Array(source[from..<(from + n)]), "n \(n) from \(from) to \(to)")
                    #expect(target[..<to].allSatisfy { $0 == 0xEE } && target[(to + n)...].allSatisfy { $0 == 0xEE }, "n \(n)")
                }
            }
        }
    }

    /// A newline and `level` indents, for levels 0…40, after other bytes: exactly `"\n"` and
    /// 2 · level spaces.
    @Test func newlineWritesTheIndent() {
        for level in 0...40 {
            var sink = ExportSink(capacity: 8)
            defer { sink.deallocate() }
            sink.append([1, 2, 3])
            sink.reserve(1 + 2 * level)
            sink.newline(level)
            let bytes = sink.takePiece().bytes
            #expect(bytes == [1, 2, 3, 0x0A] + [UInt8](repeating: 0x20, count: 2 * level), "level \(level)")
        }
    }

    /// Pieces taken from a sink keep their bytes while the sink writes on (in new memory),
    /// grows, and is freed.
    @Test func takenPiecesKeepTheirBytes() {
        var sink = ExportSink(capacity: 16)
        var kept: [(ExportPiece, [UInt8])] = []
        for k in 0..<50 {
            let bytes = (0..<(k * 7 % 90)).map { UInt8(truncatingIfNeeded: $0 &+ k) }
            sink.append(bytes)
            if k % 3 == 2 {
                let written = sink.count
                let piece = sink.takePiece()
                #expect(piece.count == written && sink.count == 0)
                kept.append((piece, piece.bytes))
            }
        }
        sink.deallocate()
        for (piece, bytes) in kept { #expect(piece.bytes == bytes) }
    }
}
