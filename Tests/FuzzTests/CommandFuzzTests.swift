import Foundation
import Layout
import Store
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Fuzzing the command language (issue 6): generated and mutated lines go to the parser and,
/// for a share of them, to the executor against a database. Asserts: no crash, no input slower
/// than `Fuzz.limit`, a message for every refusal, and a failed command changes nothing (the
/// document, its log length and its history status; `verify` clean at checkpoints).
/// Settings: `Fuzz` (STACKDOC_FUZZ_COUNT / STACKDOC_FUZZ_SEED / STACKDOC_FUZZ_LIMIT).
@Suite struct CommandFuzzTests {
    /// The golden scripts' commands: every feature of the language, written by hand.
    static let corpus: [String] = {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("ReplTests/scripts").path
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".sd") }.sorted()
        var lines: [String] = []
        for name in names {
            let text = (try? String(contentsOfFile: dir + "/" + name, encoding: .utf8)) ?? ""
            lines += text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        }
        return lines
    }()

    /// Commands that touch files or other documents: the executor fuzz stays on one document.
    static let outsideOneDocument: Set<String> = ["new", "open", "close", "drop", "import", "export", "log", "quit", "exit"]

    /// True for a command that stays on the open document and writes no file (decided on the
    /// parsed command: a line like "\tclose" or "CLOSE" is `close` too).
    static func staysOnOneDocument(_ command: Command) -> Bool {
        switch command {
        case .new, .open, .close, .drop, .importDocument, .exportSVG, .logExport, .quit: return false
        case .export(let path): return path == nil
        default: return true
        }
    }

    /// A line from a small grammar of the language, with ids the fuzz document mostly has.
    static func grammarLine(_ g: inout SplitMix64) -> String {
        let ids = ["a", "b", "c", "d", "e", "s", "s1", "s2", "t", "x", "zz"]
        func id() -> String { g.chance(12) ? g.pick(Hostile.words) : g.pick(ids) }
        func num() -> String {
            g.chance(5) ? g.pick(Hostile.words) : g.pick(["0", "1", "10", "50", "0.5", "100", "390", "844", "-5", "1e308", "1e-300", "-0", "1e9"])
        }
        func edges() -> String { (0..<4).map { _ in num() }.joined(separator: " ") }
        func spec() -> String {
            switch g.int(0..<16) {
            case 0: return "type " + g.pick(["view", "label", "cell", "x;y"])
            case 1: return "fixed " + num()
            case 2: return "fit"
            case 3: return "content \(num()) \(num())"
            case 4: return "insets " + (g.chance(3) ? "default" : edges())
            case 5: return "margin " + edges()
            case 6: return "grow " + num()
            case 7: return "shrink " + num()
            case 8: return "align " + g.pick(["start", "center", "end", "stretch", "auto"])
            case 9: return "hidden"
            case 10: return "stack " + g.pick(["vertical", "horizontal"])
            case 11: return "justify " + g.pick(["start", "end", "center", "spaceBetween", "spaceAround", "spaceEvenly"])
            case 12: return "spacing " + num()
            default: return "separator " + g.pick(["hidden", "shown", "insets " + edges(), "thickness " + num(), "color #A1B2C3", "default"])
            }
        }
        func specs() -> String { (0..<g.int(0..<4)).map { _ in spec() }.joined(separator: " ") }
        func position() -> String {
            g.pick(["", "at top", "at bottom", "at \(g.int(-2..<8))", "after \(id())", "before \(id())"]) + (g.chance(3) ? " in \(id())" : "")
        }
        switch g.int(0..<24) {
        case 0, 1, 2: return "add \(id()) \(g.chance(2) ? id() : "") \(specs()) \(position())"
        case 3: return "remove \(id()) \(g.chance(3) ? id() : "")"
        case 4: return "clear" + (g.chance(2) ? " in \(id())" : "")
        case 5: return "replace \(id()) with \(id()) \(specs())"
        case 6: return "move \(id()) to " + g.pick(["top", "bottom", "\(g.int(-1..<8))", "after \(id())", "before \(id())"]) + (g.chance(3) ? " in \(id())" : "")
        case 7: return "hide \(id())"
        case 8: return "show \(id())"
        case 9, 10: return "set \(id()) \(spec()) \(specs())"
        case 11: return "set stack " + g.pick(["axis vertical", "axis horizontal", "padding " + edges(), "spacing " + num(), "justify center", "align end"])
        case 12: return "defaults " + g.pick(["insets " + edges(), "separator thickness " + num(), "separator hidden", "autohide off", "autohide on"])
        case 13: return "scroll " + g.pick([num(), "by " + num(), "to \(id()) " + g.pick(["top", "middle", "bottom", "auto", ""])])
        case 14: return "viewport \(num()) \(num())"
        case 15: return "undo" + (g.chance(2) ? " \(num())" : "")
        case 16: return "redo" + (g.chance(2) ? " \(num())" : "")
        case 17: return g.pick(["begin", "begin \(id())", "commit", "rollback"])
        case 18: return "hit \(num()) \(num())"
        case 19: return "row \(id())"
        case 20: return g.pick(["layout", "layout --visible", "layout --range 1..3", "visible", "rows", "status", "history", "draw", "verify"])
        case 21: return "find type " + g.pick(["view", "label", "zz"])
        default: return g.pick(corpus)
        }
    }

    /// One random mutation of `line`: characters or words removed, inserted, swapped, replaced.
    static func mutate(_ line: String, _ g: inout SplitMix64) -> String {
        var scalars = Array(line.unicodeScalars)
        switch g.int(0..<10) {
        case 0 where !scalars.isEmpty:
            scalars.remove(at: g.int(0..<scalars.count))
        case 1:
            scalars.insert(g.pick(Hostile.alphabet), at: g.int(0..<scalars.count + 1))
        case 2 where !scalars.isEmpty:
            scalars.removeSubrange(g.int(0..<scalars.count)...)
        case 3:
            var words = line.split(separator: " ").map(String.init)
            if !words.isEmpty { words[g.int(0..<words.count)] = g.pick(Hostile.words) }
            return words.joined(separator: " ")
        case 4:
            var words = line.split(separator: " ").map(String.init)
            if words.count > 1 { words.swapAt(g.int(0..<words.count), g.int(0..<words.count)) }
            return words.joined(separator: " ")
        case 5:
            var words = line.split(separator: " ").map(String.init)
            if !words.isEmpty { words.insert(g.pick(words), at: g.int(0..<words.count + 1)) }
            return words.joined(separator: " ")
        case 6:
            return line + " " + g.pick(Hostile.words)
        case 7:
            return (0..<g.int(0..<9)).map { _ in g.pick(Hostile.words + Keywords.all.sorted()) }.joined(separator: " ")
        default:
            return line
        }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return String(s)
    }

    /// A fuzz line: from the corpus or the grammar, mutated none, once or twice.
    static func line(_ g: inout SplitMix64, corpus: [String]) -> String {
        var line = g.chance(2) ? g.pick(corpus) : grammarLine(&g)
        for _ in 0..<g.int(0..<3) { line = mutate(line, &g) }
        return line
    }

    @Test func parserNeverCrashesAndExplainsEveryRefusal() throws {
        var g = Fuzz.rng(1)
        let count = Fuzz.share(0.75)
        var refused = 0, parsed = 0, slowest = 0.0, slowestInput = -1
        let watchdog = Watchdog("parser")
        defer { watchdog.stop() }
        let total = try Fuzz.timed {
            for i in 0..<count {
                let line = Self.line(&g, corpus: Self.corpus)
                watchdog.begin(i, line)
                let seconds = Fuzz.timed {
                    do {
                        if let command = try Parser.parse(line) {
                            parsed += 1
                            // A parsed command prints as text that parses to the same command.
                            let again = try? Parser.parse(Printer.text(command))
                            #expect(again == command, Fuzz.here("parser", i, line))
                        }
                    } catch let error as StackDocError {
                        refused += 1
                        #expect(!error.message.isEmpty && error.message.count < 1000 && !error.message.contains("\n"), Fuzz.here("parser", i, line))
                    } catch {
                        Issue.record(Fuzz.here("parser: not a StackDocError: \(error)", i, line))
                    }
                }
                if seconds > slowest { slowest = seconds; slowestInput = i }
                #expect(seconds < Fuzz.limit, Fuzz.here("parser (\(seconds) s)", i, line))
            }
        }
        Fuzz.report("parser", inputs: count, ["parsed": parsed, "refused": refused], slowest: slowest, at: slowestInput, seconds: total)
        #expect(refused > count / 10 && parsed > count / 10, "the mix should give many good and many bad lines")
    }

    @Test func failedCommandsLeaveTheDatabaseAsItWas() throws {
        var g = Fuzz.rng(2)
        let corpus = Self.corpus.filter { !Self.outsideOneDocument.contains($0.split(separator: " ").first.map(String.init) ?? "") }
        let store = try DocumentStore(path: ":memory:")
        let session = Session(store: store, directory: NSTemporaryDirectory())
        let setup = ["new fuzz viewport 300 400", "add a b c d e fixed 50", "add s stack vertical", "add s1 s2 fixed 20 in s"]
        func reset() throws {
            if try store.contains("fuzz") { _ = try session.run(.drop(name: "fuzz")) }
            for line in setup { _ = try session.run(try #require(try Parser.parse(line))) }
        }
        try reset()
        let count = Fuzz.share(0.1)
        var executed = 0, failed = 0, checkpoints = 0, slowest = 0.0, slowestInput = -1
        let watchdog = Watchdog("executor")
        defer { watchdog.stop() }
        let total = try Fuzz.timed {
            for i in 0..<count {
                let line = Self.line(&g, corpus: corpus)
                watchdog.begin(i, line)
                guard let command = try? Parser.parse(line), Self.staysOnOneDocument(command) else { continue }
                let doc = try #require(session.current, Fuzz.here("executor: no open document before", i, line))
                let before = doc.document
                let statusBefore = try doc.status()
                executed += 1
                var failure: StackDocError?
                let seconds = Fuzz.timed {
                    do { _ = try session.run(command) } catch let error as StackDocError { failure = error } catch {
                        Issue.record(Fuzz.here("executor: not a StackDocError: \(error)", i, line))
                    }
                }
                if seconds > slowest { slowest = seconds; slowestInput = i }
                #expect(seconds < Fuzz.limit, Fuzz.here("executor (\(seconds) s)", i, line))
                #expect(session.current === doc, Fuzz.here("executor: the command closed the document", i, line))
                if let failure {
                    failed += 1
                    #expect(!failure.message.isEmpty && failure.message.count < 1000 && !failure.message.contains("\n"), Fuzz.here("executor", i, line))
                    #expect(doc.document == before, Fuzz.here("executor: failed but changed the document", i, line))
                    let status = try doc.status()
                    #expect(status.logEntries == statusBefore.logEntries, Fuzz.here("executor: failed but was logged", i, line))
                    #expect(status == statusBefore, Fuzz.here("executor: failed but changed the history", i, line))
                }
                if i % 1000 == 999 {
                    // Checkpoint: the log replays to the stored state, and the stored state is
                    // what the session holds.
                    checkpoints += 1
                    #expect(try doc.verify().isEmpty, Fuzz.here("executor: verify", i, line))
                    #expect(try store.open("fuzz").document == doc.document, Fuzz.here("executor: stored state", i, line))
                }
                // Keep the document small, open, and sometimes start afresh.
                if doc.document.rowCount > 200 { _ = try? session.run(.edit(.clear(parent: nil))) }
                if doc.openGroup != nil, g.chance(7) { _ = try? session.run(.commit) }
                if g.chance(3000) { try reset() }
            }
        }
        Fuzz.report("executor", inputs: count, ["executed": executed, "failed": failed, "checkpoints": checkpoints], slowest: slowest, at: slowestInput, seconds: total)
        #expect(failed > 0 && executed - failed > 0)
        #expect(try session.current?.verify().isEmpty == true)
    }
}
