import Foundation
import Layout
import Store
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Hostile values in `stackdoc/1` documents (issue 6 item 2): one test per case.
@Suite(.offThePool) struct HostileJSONTests {
    /// The problems of a document with `rows` (and extra top-level `settings`).
    func problems(_ rows: String, settings: String = "") -> [String] {
        Document.importJSON(Array(#"{"format":"stackdoc/1","name":"d"\#(settings),"rows":[\#(rows)]}"#.utf8)).problems
    }

    func accepted(_ rows: String, settings: String = "") throws -> Document {
        try Document(json: #"{"format":"stackdoc/1","name":"d"\#(settings),"rows":[\#(rows)]}"#)
    }

    @Test func idsWithQuotesSemicolonsUnicode() {
        #expect(problems(#"{"id":"a'b"}"#).first?.hasPrefix("rows[0].id: invalid row id 'a\\'b'") == true)
        #expect(problems(#"{"id":"a\"; DROP TABLE row; --"}"#).first?.hasPrefix("rows[0].id: invalid row id") == true)
        #expect(problems(#"{"id":"ünï"}"#).first?.hasPrefix("rows[0].id: invalid row id 'ünï'") == true)
        #expect(problems(#"{"id":"a\u0000"}"#).first?.hasPrefix("rows[0].id: invalid row id 'a\\u{0}'") == true)
        #expect(problems(#"{"id":"ok","type":"x;y"}"#).first?.hasPrefix("rows[0].type: invalid type") == true)
    }

    @Test func idOfTenThousandCharacters() throws {
        let message = try #require(problems(#"{"id":"\#(String(repeating: "x", count: 10_000))"}"#).first)
        #expect(message.hasPrefix("rows[0].id: invalid row id 'xxxx"))
        #expect(message.contains("…") && message.count < 300)
        _ = try accepted(#"{"id":"\#(String(repeating: "x", count: 64))"}"#)
    }

    @Test func hugeNumber() throws {
        #expect(problems(#"{"id":"a","grow":1e308}"#) == ["rows[0].grow: must be ≤ 1000000000, got 1e+308"])
        #expect(problems(#"{"id":"a","size":{"fixed":1e308}}"#).first?.hasPrefix("rows[0].size.fixed: must be ≤ 1000000000") == true)
        #expect(problems("", settings: #","spacing":1e308"#).first?.hasPrefix("spacing: must be ≤ 1000000000") == true)
    }

    /// A saved offset may be any finite number ≥ 0 (content can be longer than 1e9): 1e308
    /// reads back as saved, and the layout clamps it to the largest offset; a negative one is
    /// refused.
    @Test func hugeOffsetIsClamped() throws {
        let doc = try accepted(#"{"id":"a","size":{"fixed":2000}}"#, settings: #","offset":1e308"#)
        #expect(doc.settings.offset == 1e308)
        let layout = doc.layout()
        #expect(layout.offset == layout.maxOffset)
        #expect(layout.maxOffset == 2024 - 844)
        #expect(problems("", settings: #","offset":-1"#).first?.hasPrefix("offset: ") == true)
    }

    @Test func negativeZero() throws {
        let doc = try accepted(#"{"id":"a","grow":-0,"size":{"fixed":-0.0},"margin":{"top":-0,"left":0,"bottom":0,"right":0}}"#, settings: #","offset":-0"#)
        #expect(doc.config(of: "a")?.grow.sign == .plus)
        #expect(!doc.exportJSON().contains("-0"))
    }

    @Test func notANumber() {
        #expect(problems(#"{"id":"a","grow":NaN}"#).first?.hasPrefix("line 1") == true)
        #expect(problems(#"{"id":"a","grow":nan}"#).first?.hasPrefix("line 1") == true)
    }

    @Test func infinity() {
        #expect(problems(#"{"id":"a","grow":Infinity}"#).first?.hasPrefix("line 1") == true)
        #expect(problems(#"{"id":"a","grow":-Infinity}"#).first?.hasPrefix("line 1") == true)
        // A literal that overflows a Double is infinite: refused like any non-finite number.
        let overflow = problems(#"{"id":"a","grow":1e999}"#).first ?? ""
        #expect(overflow.contains("1e999") || overflow.contains("finite"), "\(overflow)")
    }

    @Test func tinyNumber() throws {
        let doc = try accepted(#"{"id":"a","grow":1e-300,"content":{"width":5e-324,"height":1e-300}}"#)
        #expect(doc.config(of: "a")?.grow == 1e-300)
        #expect(try Document(json: doc.exportJSON()) == doc)
    }

    @Test func tenThousandDeepArrays() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let message = problems(#"{"id":"a","x":\#(deep)}"#).first ?? ""
        #expect(message.contains("nested deeper than 512"), "\(message)")
    }

    @Test func tenThousandDeepObjects() {
        let deep = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect((problems(#"{"id":"a","x":\#(deep)}"#).first ?? "").contains("nested deeper than 512"))
    }

    @Test func tenThousandDeepStacks() {
        var rows = #"{"id":"leaf"}"#
        for i in 0..<10_000 { rows = #"{"id":"s\#(i)","stack":{"rows":[\#(rows)]}}"# }
        #expect((problems(rows).first ?? "").contains("nested deeper than"))
    }

    @Test func unterminatedDeepNesting() {
        // Cut in the middle: no stack overflow, a position.
        let message = problems(String(repeating: #"{"id":"s","stack":{"rows":["#, count: 5_000)).first ?? ""
        #expect(message.hasPrefix("line 1"), "\(message)")
    }

    /// A scratch directory for big files, removed afterwards.
    func withScratch(_ body: (String) throws -> Void) throws {
        let dir = try Scratch.directory("big")
        defer { Scratch.remove(dir) }
        try body(dir)
    }

    /// A 100 MB file that is a small document padded with whitespace: imported (whitespace is
    /// JSON), in linear time.
    @Test func hundredMegabytesOfWhitespace() throws {
        try withScratch { dir in
            let small = #"{"format":"stackdoc/1","name":"pad","rows":[{"id":"a"},"#
            var bytes = Array(small.utf8)
            bytes += [UInt8](repeating: UInt8(ascii: " "), count: 100_000_000)
            bytes += Array(#"{"id":"b"}]}"#.utf8)
            #expect(FileManager.default.createFile(atPath: dir + "/pad.json", contents: Data(bytes)))
            let h = try HostileSession()
            let start = Date()
            try h.run("import pad.json".replacingOccurrences(of: "pad.json", with: dir + "/pad.json"))
            #expect(h.document.rowCount == 2)
            #expect(Date().timeIntervalSince(start) < 60)
        }
    }

    /// A 100 MB file whose one id is 100 MB long: refused with a short message.
    @Test func hundredMegabyteID() throws {
        var bytes = Array(#"{"format":"stackdoc/1","name":"d","rows":[{"id":""#.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 100_000_000)
        bytes += Array(#""}]}"#.utf8)
        let problems = Document.importJSON(bytes).problems
        #expect(problems.count == 1 && problems[0].hasPrefix("rows[0].id: invalid row id 'xxx") && problems[0].count < 300)
    }

    /// A big document of many rows, imported into a database and laid out. CI: 10 MB
    /// (≈ 90k rows); `STACKDOC_BIG_JSON_MB=100` for the long run's 100 MB (≈ 900k rows).
    @Test func bigDocumentOfManyRows() throws {
        let megabytes = Int(ProcessInfo.processInfo.environment["STACKDOC_BIG_JSON_MB"] ?? "") ?? 10
        try withScratch { dir in
            var text = #"{"format":"stackdoc/1","name":"big","rows":["#
            text.reserveCapacity(megabytes * 1_000_000 + 200)
            var i = 0
            while text.utf8.count < megabytes * 1_000_000 {
                if i > 0 { text += "," }
                text += #"{"id":"r\#(i)","type":"cell_with_a_long_type_name_xxxxxxxxxx","size":{"fixed":10},"content":{"width":1,"height":2}}"#
                i += 1
            }
            text += "]}"
            let path = dir + "/big.json"
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            let h = try HostileSession()
            let start = Date()
            try h.run("import \(path)")
            let seconds = Date().timeIntervalSince(start)
            #expect(h.document.rowCount == i)
            #expect(h.document.layout().contentSize.height == Double(i) * 34)
            print("big document: \(text.utf8.count) bytes, \(i) rows, imported in \(String(format: "%.1f", seconds)) s")
        }
    }
}
