import Foundation
import Testing
@testable import Layout
import StackDocTestSupport

@Suite("stackdoc/1 random documents and mutated inputs")
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
