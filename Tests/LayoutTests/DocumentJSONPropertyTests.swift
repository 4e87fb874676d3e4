import Foundation
import OrderStatistics
import Testing
@testable import Layout
import StackDocTestSupport

@Suite("stackdoc/1 random documents and mutated inputs", .offThePool)
struct DocumentJSONPropertyTests {
    /// Random edit sequences: every document reached exports and imports back exactly, in both
    /// forms, and re-exports byte for byte.
    @Test(arguments: [7, 99] as [UInt64])
    func randomDocumentsRoundTrip(seed: UInt64) throws {
        var gen = RandomEdits(rng: SplitMix64(seed: seed))
        var doc = Document(name: "rand")
        for step in 0..<600 {
            if let changes = try? doc.plan(gen.edit()) { try doc.apply(changes) }
            guard step % 20 == 0 else { continue }
            let text = doc.exportJSON()
            let back = try Document(json: text)
            #expect(back == doc, "seed \(seed) step \(step)")
            #expect(back.exportJSON() == text)
            #expect(try Document(json: doc.exportJSON(pretty: false)) == doc)
            // The streamed export is the generic writer's text of the whole value.
            #expect(text == JSONWriter.pretty(doc.jsonValue()) + "\n")
            #expect(doc.exportJSON(pretty: false) == JSONWriter.compact(doc.jsonValue()) + "\n")
        }
    }

    // The fuzzing of the importer (mutated and generated inputs) is in Tests/FuzzTests/JSONFuzzTests.swift.
}

extension DocumentJSONPropertyTests {
    /// The streamed export writes every kind of number (integers of every length and sign,
    /// fractions, tiny and huge values, -0) and nested stacks exactly as the generic writer does,
    /// in both forms, at every chunk size.
    @Test func streamedNumbersAndNestingAreTheGenericWritersText() throws {
        let numbers: [Double] = [0, -0.0, 1, 9, 10, 99, 100, 12345, 999_999_999_999_999, 1e15, 1e16, 0.5, 3.25,
                                 1e-7, 123.456, 2.5e300, 1 / 3, 7_000_000]
        var doc = Document(name: "numbers")
        var stack = RowConfig(size: .fit)
        stack.stack = StackSettings()
        try doc.appendRow("outer", config: stack, parent: nil)
        try doc.appendRow("inner.s-1", config: stack, parent: "outer")
        for (k, n) in numbers.enumerated() {
            var c = RowConfig(size: k % 3 == 0 ? .fit : .fixed(abs(n)))
            c.content = Size(width: abs(n), height: numbers[(k + 5) % numbers.count].magnitude)
            c.hidden = k % 2 == 0
            c.grow = n.magnitude
            try doc.appendRow("r\(k)", config: c, parent: k % 3 == 0 ? nil : (k % 3 == 1 ? "outer" : "inner.s-1"))
        }
        try doc.appendRow("emptyStack", config: stack, parent: "outer")
        for pretty in [true, false] {
            let whole = (pretty ? JSONWriter.pretty(doc.jsonValue()) : JSONWriter.compact(doc.jsonValue())) + "\n"
            #expect(String(decoding: doc.exportJSONBytes(pretty: pretty), as: UTF8.self) == whole)
            for chunk in [1, 7, 4096] {
                var pieces: [UInt8] = []
                doc.exportJSONChunks(pretty: pretty, chunkBytes: chunk) { pieces += $0 }
                #expect(String(decoding: pieces, as: UTF8.self) == whole, "chunks of \(chunk)")
            }
        }
    }
}
