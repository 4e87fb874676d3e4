import Foundation
import Layout
import OrderStatistics
import Store
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Fuzzing the `stackdoc/1` importer (issue 6): mutated bytes of real documents, generated
/// documents of the right shape with wrong names, kinds and values, and hostile values spliced
/// into real documents. Asserts: no crash, no input slower than `Fuzz.limit`, a document or at
/// least one message (naming a path or a position), every accepted document round-trips and
/// lays out with finite frames; a share goes through `import` into a database, which a failed
/// import leaves as it was. Settings: `Fuzz` (STACKDOC_FUZZ_COUNT / _SEED / _LIMIT).
@Suite(.longRunning) struct JSONFuzzTests {
    /// Documents to mutate, made with the command language: every field of the format.
    static let bases: [[UInt8]] = {
        let scripts = [
            ["new rich horizontal viewport 320 480", "set stack padding 1 2 3 4.5", "set stack spacing 0.3", "set stack justify spaceAround",
             "set stack align center", "defaults insets 6 6 6 6", "defaults separator thickness 0.5 color #00aa00", "defaults autohide off",
             "add a type label fixed 100 content 10 20 insets 3 3 3 3 margin 1 0 1 0 grow 1 shrink 0.5 align end hidden separator hidden",
             "add s stack horizontal justify center spacing 4", "add b t separator thickness 2 in s", "set t stack vertical",
             "add c content 5 5 in t", "add empty stack vertical", "scroll 10"],
            ["new plain", "add a b c d fixed 50", "add e content 100 30 insets default grow 2", "viewport 100 100", "scroll to d"],
        ]
        return scripts.map { lines in
            let session = Session(store: try! DocumentStore(path: ":memory:"))
            for line in lines { _ = try! session.run(try! Parser.parse(line)!) }
            return Array(DocumentFormat.compact(session.current!.document).utf8)
        }
    }()

    static let interesting: [UInt8] = Array("{}[]\",:-0123456789eE.tfnul\\ \u{7f}".utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0xED, 0xF4]
    static let hostileValues = ["1e308", "-1e308", "1e999", "-0", "1e-300", "5e-324", "NaN", "Infinity", "-1", "1000000001",
                                "\"\"", "\"a'b\"", "\"a;b\"", "\"ünï\"", "\"\(String(repeating: "x", count: 10_000))\"", "null", "[]", "{}",
                                "[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]", "true", "\"\\u0000\"", "\"\\ud800\"", "99999999999999999999"]

    /// Bytes flipped, inserted, deleted, cut.
    static func mutatedBytes(_ g: inout SplitMix64) -> [UInt8] {
        var bytes = g.pick(bases)
        for _ in 0..<g.int(1..<5) {
            let at = g.int(0..<max(1, bytes.count))
            switch g.int(0..<4) {
            case 0 where !bytes.isEmpty: bytes[at] = g.pick(interesting)
            case 1: bytes.insert(g.pick(interesting), at: min(at, bytes.count))
            case 2 where !bytes.isEmpty: bytes.remove(at: at)
            default: bytes = Array(bytes.prefix(at))
            }
        }
        return bytes
    }

    /// A real document with one value (after a `:`) replaced by a hostile one.
    static func splicedValue(_ g: inout SplitMix64) -> [UInt8] {
        var bytes = g.pick(bases)
        let colons = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") }
        guard let colon = colons.isEmpty ? nil : g.pick(colons) else { return bytes }
        // The value ends at the next , } or ] outside strings (good enough for scalar values).
        var end = colon + 1
        var inString = false
        while end < bytes.count {
            let b = bytes[end]
            if b == UInt8(ascii: "\"") { inString.toggle() }
            if !inString, b == UInt8(ascii: ",") || b == UInt8(ascii: "}") || b == UInt8(ascii: "]") { break }
            end += 1
        }
        bytes.replaceSubrange((colon + 1)..<end, with: Array(g.pick(hostileValues).utf8))
        return bytes
    }

    /// Random JSON of the right shape with random (often wrong) field names, kinds and values.
    static func generated(_ g: inout SplitMix64) -> [UInt8] {
        let rowKeys = ["id", "type", "size", "content", "insets", "margin", "grow", "shrink", "alignSelf", "hidden", "separator", "stack", "rows", "x"]
        let words = ["fit", "view", "auto", "start", "center", "end", "stretch", "vertical", "horizontal", "spaceBetween", "#AABBCC", "#abc", "a", "1a", "", "a'b"]
        func scalar() -> String {
            switch g.int(0..<8) {
            case 0: return "null"
            case 1: return g.chance(2) ? "true" : "false"
            case 2: return g.pick(["0", "-0", "1", "-1", "1e308", "1e-300", "0.5", "1000000001", "1e999"])
            case 3: return "\"" + g.pick(words) + "\""
            default: return String(g.int(0..<301))
            }
        }
        func value(_ depth: Int) -> String {
            guard depth < 4, g.chance(3) else { return scalar() }
            if g.chance(2) {
                let keys = ["top", "left", "bottom", "right", "width", "height", "fixed", "hidden", "thickness", "color", "insets"]
                return "{" + (0..<g.int(0..<5)).map { _ in "\"\(g.pick(keys))\":\(value(depth + 1))" }.joined(separator: ",") + "}"
            }
            return "[" + (0..<g.int(0..<4)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
        }
        func row(_ depth: Int, _ serial: inout Int) -> String {
            serial += 1
            var fields = ["\"id\":\"r\(serial % 40)\""]
            for _ in 0..<g.int(0..<6) {
                let key = g.pick(rowKeys)
                if key == "stack", depth < 35 {
                    let rows = (0..<g.int(0..<3)).map { _ in row(depth + 1, &serial) }
                    fields.append("\"stack\":{\"rows\":[\(rows.joined(separator: ","))]}")
                } else {
                    fields.append("\"\(key)\":\(value(0))")
                }
            }
            for i in fields.indices.reversed() where i > 0 { fields.swapAt(i, g.int(0..<(i + 1))) }
            return "{" + fields.joined(separator: ",") + "}"
        }
        var serial = 0
        let rows = (0..<g.int(0..<5)).map { _ in row(1, &serial) }
        return Array("{\"format\":\"stackdoc/1\",\"name\":\"f\",\"rows\":[\(rows.joined(separator: ","))]}".utf8)
    }

    /// Every frame of the layout is finite (the limits keep every sum far below 1e308).
    static func finiteLayout(_ doc: Document) -> Bool {
        let layout = doc.layout()
        func ok(_ r: Rect?) -> Bool { r.map { $0.x.isFinite && $0.y.isFinite && $0.width.isFinite && $0.height.isFinite } ?? true }
        return layout.contentSize.width.isFinite && layout.contentSize.height.isFinite
            && layout.rows.allSatisfy { ok($0.frame) && ok($0.content) && ok($0.separator) && $0.percent.isFinite }
    }

    @Test func importerNeverCrashesAndExplainsEveryRefusal() throws {
        var g = Fuzz.rng(3)
        let count = Fuzz.share(0.15)
        let dir = try Scratch.directory("jsonfuzz")
        defer { Scratch.remove(dir) }
        let store = try DocumentStore(path: ":memory:")
        let session = Session(store: store, directory: dir)
        var accepted = 0, refused = 0, imported = 0, slowest = 0.0, slowestInput = -1
        let watchdog = Watchdog("json")
        defer { watchdog.stop() }
        let total = try Fuzz.timed {
            for i in 0..<count {
                let kind = i % 3
                let bytes = kind == 0 ? Self.mutatedBytes(&g) : kind == 1 ? Self.generated(&g) : Self.splicedValue(&g)
                let shown = String(decoding: bytes, as: UTF8.self)
                watchdog.begin(i, shown)
                var result: (document: Document?, problems: [String]) = (nil, [])
                let seconds = Fuzz.timed { result = Document.importJSON(bytes) }
                if seconds > slowest { slowest = seconds; slowestInput = i }
                #expect(seconds < Fuzz.limit, Fuzz.here("json (\(seconds) s)", i, shown))
                if let doc = result.document {
                    accepted += 1
                    #expect(result.problems.isEmpty, Fuzz.here("json", i, shown))
                    #expect((try? Document(json: doc.exportJSON())) == doc, Fuzz.here("json: round trip", i, shown))
                    #expect(Self.finiteLayout(doc), Fuzz.here("json: non-finite layout", i, shown))
                } else {
                    refused += 1
                    #expect(!result.problems.isEmpty, Fuzz.here("json: refused without a message", i, shown))
                    #expect(result.problems.allSatisfy { !$0.isEmpty && $0.count < 2000 && !$0.contains("\n") }, Fuzz.here("json", i, shown))
                    if kind == 1 {
                        #expect(result.problems.allSatisfy { $0.hasPrefix("rows") || $0.hasPrefix("line ") }, Fuzz.here("json: no path", i, shown))
                    }
                }
                // One in 20 goes through `import` into the database.
                guard i % 20 == 0 else { continue }
                #expect(FileManager.default.createFile(atPath: dir + "/in.json", contents: Data(bytes)))
                let namesBefore = try store.documentNames()
                let name = "i\(i)"
                do {
                    _ = try session.run(.importDocument(path: "in.json", name: name))
                    imported += 1
                    #expect(result.document != nil, Fuzz.here("import accepted what the importer refused", i, shown))
                    #expect(try session.current?.verify().isEmpty == true, Fuzz.here("import: verify", i, shown))
                    _ = try session.run(.drop(name: name))
                } catch let error as any UserFacingError {
                    #expect(error.message.hasPrefix("'in.json': ") || error.message.hasPrefix("cannot read 'in.json': "), Fuzz.here("import: message \(error.message)", i, shown))
                    #expect(try store.documentNames() == namesBefore, Fuzz.here("import failed but changed the database", i, shown))
                }
            }
        }
        Fuzz.report("json", inputs: count, ["accepted": accepted, "refused": refused, "imported": imported], slowest: slowest, at: slowestInput, seconds: total)
        #expect(accepted > 0 && refused > 0)
    }
}
