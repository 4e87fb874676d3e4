import Foundation
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
            // The streamed export is the generic writer's text of the whole value.
            #expect(text == JSONWriter.pretty(doc.jsonValue()) + "\n")
            #expect(doc.exportJSON(pretty: false) == JSONWriter.compact(doc.jsonValue()) + "\n")
        }
    }

    /// How many fuzz inputs each fuzz test feeds: `STACKDOC_JSON_FUZZ` (default 3000; a long
    /// run: `STACKDOC_JSON_FUZZ=1000000 swift test --filter DocumentJSONPropertyTests`).
    static let fuzzCount = Int(ProcessInfo.processInfo.environment["STACKDOC_JSON_FUZZ"] ?? "") ?? 3000
    static let fuzzSeed = UInt64(ProcessInfo.processInfo.environment["STACKDOC_JSON_FUZZ_SEED"] ?? "") ?? 2024

    /// Mutated saved documents (bytes flipped, inserted, deleted, cut) never crash the reader:
    /// each gives a document or at least one message, and a document it gives is valid.
    @Test func mutatedInputsNeverCrash() throws {
        var rng = SeededGenerator(seed: Self.fuzzSeed)
        let base = Array(try richDocument().exportJSON(pretty: false).utf8)
        let interesting: [UInt8] = Array("{}[]\",:-0123456789eE.tfnul\\ \u{7f}".utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0xED, 0xF4]
        var accepted = 0
        for _ in 0..<Self.fuzzCount {
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
        #expect(accepted > 0 && accepted < Self.fuzzCount)
    }

    /// Generated documents: random JSON of the right shape with random (often wrong) field
    /// names, kinds and values. Never a crash; every rejection has a message that names a path
    /// or a position; every accepted document round-trips.
    @Test func generatedDocumentsNeverCrash() throws {
        var rng = SeededGenerator(seed: Self.fuzzSeed &+ 1)
        let rowKeys = ["id", "type", "size", "content", "insets", "margin", "grow", "shrink", "alignSelf", "hidden", "separator", "stack", "rows", "x"]
        let words = ["fit", "view", "auto", "start", "center", "end", "stretch", "vertical", "horizontal", "spaceBetween", "#AABBCC", "#abc", "a", "1a", "", "a'b"]
        func scalar() -> String {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: return "null"
            case 1: return Bool.random(using: &rng) ? "true" : "false"
            case 2: return ["0", "-0", "1", "-1", "1e308", "1e-300", "0.5", "1000000001", "1e999"].randomElement(using: &rng)!
            case 3: return "\"" + words.randomElement(using: &rng)! + "\""
            default: return String(Int.random(in: 0...300, using: &rng))
            }
        }
        func value(_ depth: Int) -> String {
            guard depth < 4, Int.random(in: 0..<3, using: &rng) == 0 else { return scalar() }
            if Bool.random(using: &rng) {
                let keys = ["top", "left", "bottom", "right", "width", "height", "fixed", "hidden", "thickness", "color", "insets"]
                return "{" + (0..<Int.random(in: 0...4, using: &rng)).map { _ in "\"\(keys.randomElement(using: &rng)!)\":\(value(depth + 1))" }.joined(separator: ",") + "}"
            }
            return "[" + (0..<Int.random(in: 0...3, using: &rng)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
        }
        func row(_ depth: Int, _ serial: inout Int) -> String {
            serial += 1
            var fields = ["\"id\":\"r\(serial % 40)\""]
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let key = rowKeys.randomElement(using: &rng)!
                if key == "stack", depth < 35 {
                    let rows = (0..<Int.random(in: 0...2, using: &rng)).map { _ in row(depth + 1, &serial) }
                    fields.append("\"stack\":{\"rows\":[\(rows.joined(separator: ","))]}")
                } else {
                    fields.append("\"\(key)\":\(value(0))")
                }
            }
            return "{" + fields.shuffled(using: &rng).joined(separator: ",") + "}"
        }
        var accepted = 0
        for _ in 0..<Self.fuzzCount {
            var serial = 0
            let rows = (0..<Int.random(in: 0...4, using: &rng)).map { _ in row(1, &serial) }
            let text = "{\"format\":\"stackdoc/1\",\"name\":\"f\",\"rows\":[\(rows.joined(separator: ","))]}"
            let result = Document.importJSON(Array(text.utf8))
            if let doc = result.document {
                accepted += 1
                #expect(try Document(json: doc.exportJSON()) == doc)
            } else {
                #expect(!result.problems.isEmpty)
                #expect(result.problems.allSatisfy { $0.hasPrefix("rows") || $0.hasPrefix("line ") })
            }
        }
        #expect(accepted > 0)
    }
}
