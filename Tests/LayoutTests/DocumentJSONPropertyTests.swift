import Testing
@testable import Layout

@Suite("stackdoc/1 random documents and mutated inputs")
struct DocumentJSONPropertyTests {
    /// Random edit sequences: every document reached exports and imports back exactly, in both
    /// forms, and re-exports byte for byte.
    @Test(arguments: [7, 99] as [UInt64])
    func randomDocumentsRoundTrip(seed: UInt64) throws {
        var gen = RandomEdits(rng: SeededGenerator(seed: seed))
        var doc = Document(name: "rand")
        for step in 0..<600 {
            if let changes = try? doc.plan(gen.edit()) { try doc.apply(changes) }
            guard step % 20 == 0 else { continue }
            let text = doc.exportJSON()
            let back = try Document(json: text)
            #expect(back == doc, "seed \(seed) step \(step)")
            #expect(back.exportJSON() == text)
            #expect(try Document(json: doc.exportJSON(pretty: false)) == doc)
        }
    }

    /// Mutated saved documents (bytes flipped, inserted, deleted, cut) never crash the reader:
    /// each gives a document or at least one message, and a document it gives is valid.
    @Test func mutatedInputsNeverCrash() throws {
        var rng = SeededGenerator(seed: 2024)
        let base = Array(try richDocument().exportJSON(pretty: false).utf8)
        let interesting: [UInt8] = Array("{}[]\",:-0123456789eE.tfnul\\ \u{7f}".utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0xED, 0xF4]
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0..<max(1, bytes.count), using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0 where !bytes.isEmpty: bytes[at] = interesting.randomElement(using: &rng)!
                case 1: bytes.insert(interesting.randomElement(using: &rng)!, at: min(at, bytes.count))
                case 2 where !bytes.isEmpty: bytes.remove(at: at)
                default: bytes = Array(bytes.prefix(at))
                }
            }
            let result = Document.importJSON(bytes)
            if let doc = result.document {
                accepted += 1
                #expect(result.problems.isEmpty)
                #expect(try Document(json: doc.exportJSON()) == doc)
            } else {
                #expect(!result.problems.isEmpty)
                #expect(result.problems.allSatisfy { !$0.isEmpty && $0.count < 2000 })
            }
        }
        #expect(accepted > 0 && accepted < 3000)
    }
}
