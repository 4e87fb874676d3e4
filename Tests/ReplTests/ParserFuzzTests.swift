import Foundation
import Testing
import Layout
import Store
@testable import repl

/// Fuzzing the command language (issue 6): generated and mutated lines, seeded and
/// reproducible. Every line either parses or is refused with a message; none crashes or takes
/// long; executing lines against a database never changes it when the command fails.
///
/// `STACKDOC_FUZZ_COUNT=N` sets the number of parsed lines (default 30,000: the short CI run) and
/// `STACKDOC_FUZZ_SEED=S` the seed; a tenth of the lines (at most 20,000) also run against a
/// document. Long run: `STACKDOC_FUZZ_COUNT=1000000 swift test --filter ParserFuzzTests`.
@Suite struct ParserFuzzTests {
    static var count: Int { Int(ProcessInfo.processInfo.environment["STACKDOC_FUZZ_COUNT"] ?? "") ?? 30_000 }
    static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["STACKDOC_FUZZ_SEED"] ?? "") ?? 0x5EED }

    static let hostileWords = [
        "1e308", "-1e308", "1e309", "-0", "NaN", "nan", "inf", "-inf", "infinity", "1e-300", "5e-324",
        "99999999999999999999999", "-99999999999999999999", "0x1p3", "1_000", "+5", ".5", "5.", ".", "e5", "1e", "--1",
        String(repeating: "x", count: 10_000), "a;b", "a'b", "a\"b", "\"", "'", "\\", "#", "#C6C6C8", "#zzzzzz",
        "ünïcödé", "😀", "\u{0}", "\u{200B}", "\u{FEFF}", "top", "in", "at", "stack", "\"\"", "''", "\"a b\"", "\\u{41}",
        "\"\\u{110000}\"", "\"\\q\"", "0..0", "5..2", "1..", "..2", "--visible", "--range",
    ]

    /// A line from the language's own generator, the golden scripts, or hostile words.
    static func mutate(_ line: String, _ g: inout Generator) -> String {
        var scalars = Array(line.unicodeScalars)
        let alphabet = Array("ab09 .-_#\"'\\\t{}u;😀é\u{0}".unicodeScalars)
        switch Int.random(in: 0..<9, using: &g.rng) {
        case 0 where !scalars.isEmpty:
            scalars.remove(at: Int.random(in: 0..<scalars.count, using: &g.rng))
        case 1:
            scalars.insert(g.pick(alphabet), at: Int.random(in: 0...scalars.count, using: &g.rng))
        case 2 where !scalars.isEmpty:
            scalars.removeSubrange(Int.random(in: 0..<scalars.count, using: &g.rng)...)
        case 3:
            var words = line.split(separator: " ").map(String.init)
            if !words.isEmpty { words[Int.random(in: 0..<words.count, using: &g.rng)] = g.pick(hostileWords) }
            return words.joined(separator: " ")
        case 4:
            var words = line.split(separator: " ").map(String.init)
            if words.count > 1 { words.swapAt(Int.random(in: 0..<words.count, using: &g.rng), Int.random(in: 0..<words.count, using: &g.rng)) }
            return words.joined(separator: " ")
        case 5:
            var words = line.split(separator: " ").map(String.init)
            if !words.isEmpty { words.insert(g.pick(words), at: Int.random(in: 0...words.count, using: &g.rng)) }
            return words.joined(separator: " ")
        case 6:
            return line + " " + g.pick(hostileWords)
        case 7:
            return (0..<Int.random(in: 0...8, using: &g.rng)).map { _ in g.pick(hostileWords + Keywords.all.sorted()) }.joined(separator: " ")
        default:
            return line
        }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return String(s)
    }

    static var corpus: [String] {
        let dir = GoldenScriptTests.directory
        var lines: [String] = []
        for name in GoldenScriptTests.scripts {
            let text = (try? String(contentsOfFile: dir + "/\(name).sd", encoding: .utf8)) ?? ""
            lines += text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        }
        return lines
    }

    @Test func parserNeverCrashesAndExplainsEveryRefusal() throws {
        var g = Generator(rng: SeededRNG(seed: Self.seed))
        let corpus = Self.corpus
        var refused = 0
        var slowest = 0.0
        for i in 0..<Self.count {
            let base = i % 2 == 0 ? g.pick(corpus) : Printer.text(g.command())
            var line = Self.mutate(base, &g)
            if i % 3 == 0 { line = Self.mutate(line, &g) }
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                if let command = try Parser.parse(line) {
                    // A parsed command prints as text that parses to the same command.
                    let again = try Parser.parse(Printer.text(command))
                    #expect(again == command, "seed \(Self.seed) input \(i): \(line)")
                }
            } catch let error as StackDocError {
                refused += 1
                #expect(!error.message.isEmpty, "seed \(Self.seed) input \(i): empty message for \(line)")
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            slowest = max(slowest, seconds)
            #expect(seconds < 1, "seed \(Self.seed) input \(i) took \(seconds) s: \(line.prefix(200))")
        }
        #expect(refused > Self.count / 10, "the mutations should produce many bad lines")
        #expect(slowest < 1)
    }

    @Test func failedCommandsLeaveTheDatabaseAsItWas() throws {
        var g = Generator(rng: SeededRNG(seed: Self.seed &+ 1))
        let corpus = Self.corpus.filter {
            // Stay on one document, with no files.
            !["new", "open", "close", "drop", "import", "export", "log", "quit", "exit"].contains($0.split(separator: " ").first.map(String.init) ?? "")
        }
        let store = try DocumentStore(path: ":memory:")
        let session = Session(store: store, directory: NSTemporaryDirectory())
        _ = try session.run(.new(name: "fuzz", axis: nil, viewport: Size(width: 300, height: 400)))
        for line in ["add a b c d e fixed 50", "add s stack vertical", "add s1 s2 fixed 20 in s", "add a b c fixed 50 in s"] {
            _ = try? session.run(try #require(try Parser.parse(line)))
        }
        let runs = min(20_000, max(1_000, Self.count / 10))
        var failures = 0
        for i in 0..<runs {
            let line = Self.mutate(g.pick(corpus), &g)
            guard let command = try? Parser.parse(line) else { continue }
            if case .quit = command { continue }
            let doc = try #require(session.current)
            let before = doc.document
            let logBefore = try doc.status().logEntries
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                _ = try session.run(command)
            } catch let error as StackDocError {
                failures += 1
                #expect(!error.message.isEmpty)
                #expect(doc.document == before, "seed \(Self.seed) run \(i): '\(line)' failed but changed the document")
                #expect(try doc.status().logEntries == logBefore, "seed \(Self.seed) run \(i): '\(line)' failed but was logged")
                if failures % 200 == 0 { #expect(try doc.verify().isEmpty) }
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            #expect(seconds < 2, "seed \(Self.seed) run \(i) took \(seconds) s: \(line.prefix(200))")
            // Keep the document small and open.
            if doc.document.rowCount > 200 { _ = try? session.run(.edit(.clear(parent: nil))) }
            if session.current == nil { _ = try session.run(.open(name: "fuzz")) }
            if doc.openGroup != nil, i % 7 == 0 { _ = try? session.run(.commit) }
        }
        #expect(failures > 0)
        #expect(try session.current?.verify().isEmpty == true)
    }
}
