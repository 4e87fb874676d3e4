import Foundation
import Layout
import OrderStatistics
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
@Suite(.longRunning) struct CommandFuzzTests {
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

    /// True for a command that stays on the open document, writes no file and does not wait
    /// (decided on the parsed command: a line like "\tclose" or "CLOSE" is `close` too).
    static func staysOnOneDocument(_ command: Command) -> Bool {
        switch command {
        case .new, .open, .close, .drop, .importDocument, .exportSVG, .logExport, .quit: return false
        case .export(let path): return path == nil
        case .watch(let seconds): return seconds == 0  // a watch waits by design: only `watch 0` returns at once
        default: return true
        }
    }

    /// A line of the language, with ids the fuzz document mostly has: an edit of the shared
    /// generator (`RandomEdits` with `.fuzz` values, every `Edit` case) as the REPL prints it,
    /// with hostile words in some of its places, or a history, group or query command.
    static func grammarLine(_ g: inout SplitMix64) -> String {
        var edits = RandomEdits(rng: g, values: .fuzz)
        defer { g = edits.rng }
        func id() -> String { edits.rng.chance(12) ? edits.rng.pick(Hostile.words) : Printer.id(edits.id()) }
        func num() -> String { edits.rng.chance(5) ? edits.rng.pick(Hostile.words) : Printer.num(edits.number()) }
        switch edits.rng.int(0..<24) {
        case 0..<15: return sprinkle(Printer.text(edits.edit()), &edits.rng)
        case 15: return "undo" + (edits.rng.chance(2) ? " \(num())" : "")
        case 16: return "redo" + (edits.rng.chance(2) ? " \(num())" : "")
        case 17: return edits.rng.pick(["begin", "begin \(id())", "commit", "rollback"])
        case 18: return "hit \(num()) \(num())"
        case 19: return "row \(id())"
        case 20: return edits.rng.pick(["layout", "layout --visible", "layout --range 1..3", "visible", "rows", "status", "history", "draw", "verify"])
        case 21: return "find type " + edits.rng.pick(["view", "label", "zz"])
        default: return edits.rng.pick(corpus)
        }
    }

    /// Replaces each word after the command word by a hostile one, one in eight (where the
    /// grammar's places would take an id or a number, they get a word that is neither).
    static func sprinkle(_ line: String, _ g: inout SplitMix64) -> String {
        var words = line.split(separator: " ").map(String.init)
        for i in words.indices.dropFirst() where g.chance(8) { words[i] = g.pick(Hostile.words) }
        return words.joined(separator: " ")
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
        let total = Fuzz.timed {
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
                    } catch let error as any UserFacingError {
                        refused += 1
                        #expect(!error.message.isEmpty && error.message.count < 1000 && !error.message.contains("\n"), Fuzz.here("parser", i, line))
                    } catch {
                        Issue.record(Fuzz.here("parser: not a UserFacingError: \(error)", i, line))
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
                var failure: (any UserFacingError)?
                let seconds = Fuzz.timed {
                    do { _ = try session.run(command) } catch let error as any UserFacingError { failure = error } catch {
                        Issue.record(Fuzz.here("executor: not a UserFacingError: \(error)", i, line))
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
