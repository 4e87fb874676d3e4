import OrderStatistics
import Layout
@testable import StoreFormat
import StackDocTestSupport
import Testing

/// The direct reader of a log entry's JSON `[Change]` (`ChangeReader`, formats 1 and 2) reads
/// what the generic reader reads, from the text the tree path (`LogFormat.value`, which spells
/// the format) writes and from damaged or unusual texts.
@Suite(.longRunning) struct ChangeCodingTests {
    /// The generic reader alone (JSON parse → `LogValue` → `Change`).
    static func generic(_ text: String) throws -> [Change] {
        try LogFormat.decode(text, format: LogFormat.version, column: "forward", LogFormat.changes)
    }

    /// Every text the writer (`LogFormat.encode`, the tree path) writes is read directly, to
    /// what the generic reader reads.
    @Test func readerReadsWhatTheGenericReaderReads() throws {
        var g = RandomChanges(rng: SplitMix64(seed: 15_0809))
        var direct = 0
        for round in 0..<1500 {
            let changes = (0..<g.rng.int(0..<6)).map { _ in g.change() }
            let text = try LogFormat.encode(changes)
            let fast = ChangeReader.decode(text, column: "forward")
            #expect(fast == (try Self.generic(text)), "round \(round): \(text)")
            if fast != nil { direct += 1 }
            #expect(try LogFormat.decodeChanges(text, format: 2, column: "forward") == Self.generic(text))
        }
        #expect(direct == 1500, "every list the writer writes is read directly (an unusual element alone goes the generic way)")
        // Non-finite numbers throw, as the tree writer does.
        var bad = RowConfig()
        bad.grow = .infinity
        #expect(throws: (any Error).self) { try LogFormat.encode([.insertRow(id: "a", config: bad, parent: nil, index: 0)]) }
        bad = RowConfig(stack: StackSettings(axis: .vertical, justify: .start, align: .stretch, spacing: .nan))
        #expect(throws: (any Error).self) { try LogFormat.encode([.removeRow(id: "a", config: bad, parent: nil, index: 0)]) }
    }

    /// Whatever the direct reader accepts of a damaged or unusual text, the generic reader reads
    /// to the same changes; `decodeChanges` answers exactly as the generic reader (its value or
    /// its error message).
    @Test func mutatedTextsReadAsTheGenericReaderReadsThem() throws {
        var g = RandomChanges(rng: SplitMix64(seed: 77))
        let inserts = Array("{}[],\":\\ -+.eE0123456789tfnul_ax".utf8)
        var accepted = 0
        for _ in 0..<4000 {
            var bytes = Array(try LogFormat.encode((0..<g.rng.int(1..<4)).map { _ in g.change() }).utf8)
            for _ in 0..<g.rng.int(1..<4) {
                let at = g.rng.int(0..<bytes.count)
                switch g.rng.int(0..<3) {
                case 0: bytes[at] = g.rng.pick(inserts)
                case 1: bytes.remove(at: at)
                default: bytes.insert(g.rng.pick(inserts), at: at)
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "[")] }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let generic = Result { try Self.generic(text) }
            if let fast = ChangeReader.decode(text, column: "forward") {
                accepted += 1
                #expect(fast == (try? generic.get()), "\(text)")
            }
            switch (generic, Result { try LogFormat.decodeChanges(text, format: 2, column: "forward") }) {
            case let (.success(a), .success(b)): #expect(a == b)
            case let (.failure(a), .failure(b)): #expect("\(a)" == "\(b)")
            default: Issue.record("the readers disagree on \(text)")
            }
        }
        #expect(accepted > 100, "some mutations keep a readable text (a changed digit, a changed id)")
    }

    /// Forms the writers never produce but the generic reader accepts read the same: whitespace,
    /// escapes, numbers written another way, keys out of order, unknown keys.
    @Test(arguments: [
        #"[ {"moveRow":{"fromIndex":1,"id":"a","toIndex":2}}]"#,
        #"[{"moveRow":{"fromIndex":1,"id":"\u0061","toIndex":2}}]"#,
        #"[{"moveRow":{"fromIndex":1e0,"id":"a","toIndex":2.0}}]"#,
        #"[{"moveRow":{"id":"a","fromIndex":1,"toIndex":2}}]"#,
        #"[{"moveRow":{"fromIndex":1,"id":"a","toIndex":2,"zz":1}},{"moveRow":{"fromIndex":3,"id":"b","toIndex":4}}]"#,
        #"[{"moveRow":{"fromIndex":-0,"id":"a","toIndex":2}}]"#,
        #"[{"moveRow":{"fromIndex":12345678901234567,"id":"a","toIndex":2}}]"#,
        #"[{"moveRow":{"fromIndex":1,"id":"a","toIndex":2}}]  "#,
        #"[{"moveRow":{"fromIndex":1,"id":"a","id":"b","toIndex":2}}]"#,
    ])
    func unusualFormsReadAsTheGenericReaderReadsThem(text: String) throws {
        let generic = Result { try Self.generic(text) }
        let decoded = Result { try LogFormat.decodeChanges(text, format: 2, column: "forward") }
        switch (generic, decoded) {
        case let (.success(a), .success(b)): #expect(a == b)
        case let (.failure(a), .failure(b)): #expect("\(a)" == "\(b)")
        default: Issue.record("the readers disagree")
        }
    }
}
