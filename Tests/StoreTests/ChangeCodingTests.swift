import Foundation
import GRDB
import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 15 item 8: the direct writer and reader of a log entry's `[Change]` (`ChangeWriter`,
/// `ChangeReader`) write the bytes of the tree path (`LogFormat.value`, which spells the format)
/// and read what the generic reader reads; entries written before them read the same.
@Suite struct ChangeCodingTests {
    /// The generic reader alone (JSON parse → `LogValue` → `Change`).
    static func generic(_ text: String) throws -> [Change] {
        try LogFormat.decode(text, format: LogFormat.version, column: "forward", LogFormat.changes)
    }

    /// The tree path's text (the format's spelling).
    static func tree(_ changes: [Change]) throws -> String { try LogValue.array(changes.map(LogFormat.value)).text() }

    /// Random changes of every case, with configs using every field and hostile values: strings
    /// needing escapes, doubles of every magnitude, negative zero, 2^53, subnormals.
    struct Generator {
        var rng: SplitMix64
        let alphabet = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + ["é", "😀", "\u{2028}", "\u{7F}", "中"]

        mutating func string() -> String {
            if rng.chance(3) { return String((0..<rng.int(0..<8)).map { _ in rng.pick(alphabet) }) }
            return "r\(rng.int(0..<100_000))"
        }

        mutating func double() -> Double {
            switch rng.int(0..<7) {
            case 0: return Double(rng.int(0..<1000))
            case 1: return Double(rng.int(-1000..<1000)) / 64
            case 2: return Double(bitPattern: UInt64.random(in: 0..<0x7FF0_0000_0000_0000, using: &rng)) * (rng.chance(2) ? 1 : -1)
            case 3: return rng.pick([0, -0.0, 1e-300, Double.leastNonzeroMagnitude, 1e308, 1e16, 1e15, 1e15 - 1, -(1e15 - 1),
                                     9_007_199_254_740_992, 123456789012345680, 0.1 + 0.2, 1e-7, 100, 844, 390])
            case 4: return Double(rng.int(-1_000_000_000_000_000..<1_000_000_000_000_000))
            default: return Double.random(in: -1e6...1e6, using: &rng)
            }
        }

        mutating func edges() -> Edges { Edges(top: double(), left: double(), bottom: double(), right: double()) }

        mutating func config() -> RowConfig {
            var c = RowConfig(type: rng.chance(2) ? "view" : string(), size: rng.chance(3) ? .fit : .fixed(double()),
                              content: Size(width: double(), height: double()), insets: rng.chance(2) ? nil : edges(),
                              margin: edges(), grow: double(), shrink: double(), alignSelf: rng.pick(AlignSelf.allCases),
                              hidden: rng.chance(2),
                              separator: SeparatorOverrides(hidden: rng.chance(2) ? nil : rng.chance(2), insets: rng.chance(2) ? nil : edges(),
                                                            thickness: rng.chance(2) ? nil : double(), color: rng.chance(2) ? nil : string()),
                              stack: rng.chance(3) ? StackSettings(axis: rng.pick(Axis.allCases), justify: rng.pick(Justify.allCases),
                                                                   align: rng.pick(Align.allCases), spacing: double()) : nil,
                              sticky: rng.chance(3))
            for field in RowField.optional where rng.chance(3) {
                switch field.kind {
                case .format1: break
                case .number: field.setNumber(double(), &c)
                case .text:
                    // A valid value (text runs and ratios keep only valid words) or any string.
                    let valid = field == .text ? "12 char 8 line 20" : field == .aspect ? "16 9" : "#A0B1C2"
                    field.setText(rng.chance(2) ? valid : string(), &c)
                }
            }
            return c
        }

        mutating func parent() -> RowID? { rng.chance(2) ? nil : string() }

        mutating func change() -> Change {
            switch rng.int(0..<9) {
            case 0, 1: return .insertRow(id: string(), config: config(), parent: parent(), index: rng.int(0..<100_000))
            case 2, 3: return .removeRow(id: string(), config: config(), parent: parent(), index: rng.int(0..<100_000))
            case 4, 5: return .updateRow(id: string(), old: config(), new: config())
            case 6, 7: return .moveRow(id: string(), fromParent: parent(), fromIndex: rng.int(0..<1000), toParent: parent(), toIndex: rng.int(0..<1000))
            default:
                var settings = DocumentSettings(axis: rng.pick(Axis.allCases), viewport: Size(width: double(), height: double()), offset: double())
                settings.keyboard = rng.chance(2) ? 0 : double()
                return .updateSettings(old: DocumentSettings(), new: settings)
            }
        }
    }

    @Test func writerWritesTheTreeBytesAndReaderReadsWhatTheGenericReaderReads() throws {
        var g = Generator(rng: SplitMix64(seed: 15_0809))
        var direct = 0
        for round in 0..<1500 {
            let changes = (0..<g.rng.int(0..<6)).map { _ in g.change() }
            let text = try LogFormat.encode(changes)
            #expect(text == (try Self.tree(changes)), "round \(round)")
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
        var g = Generator(rng: SplitMix64(seed: 77))
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

    /// A `clear` of many rows logs the tree path's bytes (so every earlier release's reader reads
    /// it), and its undo, redo and a second undo give the same documents as before, verify clean
    /// and reopen equal — also in a database whose `clear` entry was written by the tree path.
    /// (The JSON text is what entries of formats 1 and 2 hold: this test writes format 2.)
    @Test(arguments: [false, true])
    func clearUndoRedoRoundTrip(treeWrittenEntry: Bool) throws {
        try LogFormat.$written.withValue(2) { try clearUndoRedo(treeWrittenEntry: treeWrittenEntry) }
    }

    private func clearUndoRedo(treeWrittenEntry: Bool) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "clear.sqlite").path
        var rng = SplitMix64(seed: 9)
        var document = Document(name: "big")
        for i in 0..<200 {
            var config = RowConfig(size: rng.chance(5) ? .fit : .fixed(Double(rng.int(20..<200)) / 4))
            if i % 7 == 0 {
                config.type = "t\(i % 5)"
                config.insets = Edges(top: 1, left: 2.5, bottom: 0, right: 1e-3)
                config.grow = 1
                config.alignSelf = .center
                config.separator = SeparatorOverrides(hidden: true, thickness: 0.5, color: "#A0B1C2")
                config.minMain = 10
                config.background = "#FFFFFF"
                config.sticky = i % 2 == 0
            }
            if i % 13 == 0 { config.text = TextRun(words: "12 char 8 line 20"); config.size = .fit }
            #expect(Validation.isValid(config))
            try document.apply(.insertRow(id: "r\(i)", config: config, parent: nil, index: i))
        }
        let store = try DocumentStore(path: path)
        let doc = try store.importDocument(document)
        let full = doc.document
        let cleared = try doc.perform(.clear(parent: nil))
        let stored = try #require(try store.read { db in
            try String.fetchOne(db, sql: "SELECT forward FROM log WHERE seq = 2")
        })
        #expect(stored == (try Self.tree(cleared)))
        if treeWrittenEntry {
            // As written by a release whose writer was the tree path, with the format 1 inverse.
            try store.write { db in
                try db.execute(sql: "UPDATE log SET forward = ?, inverse = ?, format = 1 WHERE seq = 2",
                               arguments: [try Self.tree(cleared), try Self.tree(cleared.inverse)])
            }
        }
        for reopen in [false, true] {
            let handle = reopen ? try DocumentStore(path: path).open("big") : doc
            if reopen { #expect(handle.document.rowCount == 0) }
            try handle.undo()
            #expect(handle.document == full)
            try handle.redo()
            #expect(handle.document.rowCount == 0)
            try handle.undo()
            #expect(handle.document == full)
            #expect(try handle.verify(replan: true) == [])
            #expect(try DocumentStore(path: path).open("big").document == full)
            try handle.redo()
        }
        try doc.reload()
        #expect(try doc.verify(replan: true) == [])
        #expect(try doc.log(from: 2, limit: 1).first?.changes == cleared)
    }
}
