import Testing
import OrderStatistics
@testable import Layout
import StackDocTestSupport

/// `JSONRowScanner` (top-level rows read straight from the bytes, issue 11 item 3) against the
/// reading it replaced, kept as the reference: on random and mutated documents the import with
/// the scanner and the import that reads every row as a JSON tree give the same document, the
/// same problems in the same order, and hand over the same rows.
@Suite(.offThePool) struct JSONRowScannerTests {
    /// Member texts a random row is made of: what the scanner reads, what it leaves to the tree
    /// reading (other fields, escapes, fractions, negatives, out of range, wrong types,
    /// duplicates), and broken JSON.
    static let members: [String] = [
        #""id":"r1""#, #""id":"r2""#, #""id":"a.b-c_9""#, #""id":"9bad""#, #""id":"""#, #""id":"r\u0031""#, #""id":1"#,
        #""id":"é""#, #""id":"\#(String(repeating: "x", count: 65))""#, #""id" : "r3""#,
        #""type":"card""#, #""type":"view""#, #""type":"bad type""#, #""type":"""#, #""type":null"#, #""type":"t\n""#,
        #""size":{"fixed":40}"#, #""size":{"fixed":0}"#, #""size":{ "fixed" : 7 }"#, #""size":"fit""#, #""size":"fix""#,
        #""size":{"fixed":-1}"#, #""size":{"fixed":1.5}"#, #""size":{"fixed":1e2}"#, #""size":{"fixed":007}"#,
        #""size":{"fixed":1000000000}"#, #""size":{"fixed":1000000001}"#, #""size":{"fixed":1234567890123456}"#,
        #""size":{"fixed":40,"x":1}"#, #""size":{}"#, #""size":{"fixed":"40"}"#, #""size":null"#, #""size":[40]"#,
        #""content":{"width":10,"height":20}"#, #""content":{"height":5}"#, #""content":{}"#, #""content":{"width":-1}"#,
        #""content":{"width":1,"width":2}"#, #""content":{"depth":1}"#, #""content":{"width":0.5}"#,
        #""grow":1"#, #""grow":0"#, #""grow":-0"#, #""grow":2.5"#, #""grow":"1""#, #""shrink":3"#, #""shrink":-2"#,
        #""hidden":true"#, #""hidden":false"#, #""hidden":1"#, #""hidden":tru"#, #""sticky":true"#, #""sticky":null"#,
        #""margin":{"top":1}"#, #""insets":null"#, #""alignSelf":"center""#, #""stack":{"rows":[{"id":"n1"}]}"#,
        #""min":5"#, ##""background":"#ff0000""##, #""nope":1"#, #""id":"r1","id":"r1""#, #""grow":1,"grow":2"#,
    ]

    /// Texts put between members and around them: whitespace of every kind JSON allows, and
    /// some it does not.
    static let gaps: [String] = ["", "", "", " ", "\n", "\t", "\r\n ", "\u{0B}", "\u{A0}"]

    static func randomRow(_ rng: inout SplitMix64, index: Int) -> String {
        var parts = [#""id":"r\#(index)""#]
        for _ in 0..<rng.int(0..<4) { parts.append(rng.pick(members)) }
        if rng.chance(6) { parts.removeFirst() }
        parts.shuffle(using: &rng)
        let inner = parts.map { rng.pick(gaps) + $0 + rng.pick(gaps) }.joined(separator: ",")
        return rng.pick(gaps) + "{" + inner + "}" + rng.pick(gaps)
    }

    static func randomDocument(_ rng: inout SplitMix64) -> [UInt8] {
        let rows = (0..<rng.int(0..<12)).map { i in
            rng.chance(4) ? #"{"id":"p\#(i)","size":{"fixed":\#(i)}}"# : randomRow(&rng, index: i)
        }
        var text = #"{"format":"stackdoc/1","name":"d","rows":["# + rows.joined(separator: ",") + "]}"
        if rng.chance(3) {
            // A mutation: a byte removed, replaced or put in somewhere.
            var bytes = Array(text.utf8)
            let at = rng.int(0..<bytes.count)
            let junk: [UInt8] = Array(#"{}[]",:0159-.etfnu\ "#.utf8) + [0x00, 0x7F, 0xC3, 0xFF]
            switch rng.int(0..<3) {
            case 0: bytes.remove(at: at)
            case 1: bytes[at] = rng.pick(junk)
            default: bytes.insert(rng.pick(junk), at: at)
            }
            return bytes
        }
        if rng.chance(8) { text = text.replacingOccurrences(of: #""rows":["#, with: #""defaults":{"insets":{"top":3,"left":0,"bottom":0,"right":0}},"rows":["#) }
        return Array(text.utf8)
    }

    /// The import of `bytes` with or without the scanner: the document, the problems, whether
    /// the rows were handed over, and those rows.
    static func read(_ bytes: [UInt8], scanning: Bool) -> (document: Document?, problems: [String], handedOver: Bool, rows: [String]) {
        var rows: [String] = []
        let result = Document.importJSON(bytes, scanningRows: scanning) { batch in
            rows += batch.map { "\($0.id) \($0.parent ?? "-") \($0.config)" }
            return true
        }
        return (result.document, result.problems, result.rowsHandedOver, rows)
    }

    @Test func theScannerReadsWhatTheTreeReadingReads() {
        var rng = SplitMix64(seed: 0x5CA7_0011)
        var withProblems = 0, scannedRows = 0
        for _ in 0..<6_000 {
            let bytes = Self.randomDocument(&rng)
            let new = Self.read(bytes, scanning: true)
            let old = Self.read(bytes, scanning: false)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(new.document == old.document, "\(text)")
            #expect(new.problems == old.problems, "\(text)")
            #expect(new.handedOver == old.handedOver, "\(text)")
            #expect(new.rows == old.rows, "\(text)")
            if !new.problems.isEmpty { withProblems += 1 }
            // How many rows the scanner read itself (so that the comparison is not vacuous).
            bytes.withUnsafeBufferPointer { buffer in
                for (i, b) in buffer.enumerated() where b == UInt8(ascii: "{") && i > 0 {
                    if JSONRowScanner.scan(buffer, at: i) != nil { scannedRows += 1 }
                }
            }
        }
        #expect(withProblems > 1_000)
        #expect(scannedRows > 5_000)
    }

    @Test func theScannerReadsTheCommonRowsAndLeavesTheRest() {
        func scan(_ text: String) -> JSONRowScanner.Row? {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { JSONRowScanner.scan($0, at: 0) }
        }
        let text = #"{ "id" : "r7", "size": {"fixed": 48}, "content": {"height": 3, "width": 2}, "type": "card", "hidden": true, "grow": 2, "shrink": 0, "sticky": false }"#
        let row = scan(text + ", ")
        #expect(row?.id == "r7")
        #expect(row?.config == RowConfig(type: "card", size: .fixed(48), content: Size(width: 2, height: 3), grow: 2, hidden: true))
        #expect(row?.end == text.utf8.count)
        #expect(scan(#"{"id":"r","size":"fit"}"#)?.config.size == .fit)
        // Left to the tree reading: each would be read differently or refused there.
        for text in [#"{"id":"r","size":{"fixed":1.5}}"#, #"{"id":"r","grow":-1}"#, #"{"id":"r\u0031"}"#, #"{"id":"r","margin":{}}"#,
                     #"{"size":"fit"}"#, #"{"id":"r","id":"s"}"#, #"{"id":"r",}"#, #"{"id":"9"}"#, #"{"id":"r","size":{"fixed":01}}"#,
                     #"{"id":"r","stack":null}"#, #"{}"#, #"[]"#, #"{"id":"r""#] {
            #expect(scan(text) == nil, "\(text)")
        }
    }

    @Test func aLargeFlatFileIsReadTheSameWithAndWithoutTheScanner() {
        var rng = SplitMix64(seed: 42)
        let rows = (0..<20_000).map { #"{"id":"r\#($0)","size":{"fixed":\#(rng.int(20..<201))}}"# }
        let bytes = Array((#"{"format":"stackdoc/1","name":"big","viewport":{"width":390,"height":844},"rows":["# + rows.joined(separator: ",") + "]}").utf8)
        let new = Self.read(bytes, scanning: true)
        let old = Self.read(bytes, scanning: false)
        #expect(new.problems == [])
        #expect(new.document == old.document)
        #expect(new.rows == old.rows)
        #expect(new.rows.count == 20_000)
    }
}
