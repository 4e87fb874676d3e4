import Foundation
import Layout
import OrderStatistics
import Store
import Testing
import StackDocTestSupport
@testable import repl
@testable import StackDocScript

/// Sessions on one database file through separate connections (SQLite treats them as separate
/// processes), and the checks the stale-session tests share.
struct SharedDatabase {
    /// The `--db` value: a file, or a PostgreSQL URI (a new schema of the test server).
    let path: String

    init() {
        path = NSTemporaryDirectory() + "/stackdoc-shared-\(UUID().uuidString).sqlite"
    }

    /// A database of `backend` shared by every session made from it.
    init(_ backend: TestStores.Backend) throws {
        path = backend == .sqlite ? SharedDatabase().path : try TestStores.url(backend)
    }

    func remove() {
        guard !path.hasPrefix("postgres") else { return }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// A new session on its own connection to the database, writing as `origin` (nil: the user name).
    func session(as origin: String? = nil) throws -> Session {
        Session(store: try DocumentStore(url: path), origin: origin)
    }
}

extension Session {
    /// Runs one REPL line (nil for a blank or comment line).
    @discardableResult
    func line(_ text: String) throws -> CommandResult? {
        guard let command = try Parser.parse(text) else { return nil }
        return try run(command)
    }

    /// Runs REPL lines in order (a script of them).
    func lines(_ texts: String...) throws {
        for text in texts { try line(text) }
    }

    /// The text output of one REPL line.
    func text(_ line: String) throws -> String {
        try self.line(line)?.text ?? ""
    }

    /// Runs `line`, retrying once when it fails because another process wrote the document
    /// (the session reloads and says "run the command again"). Other failures are returned.
    @discardableResult
    func lineRetryingStale(_ text: String) -> String? {
        do {
            try line(text)
            return nil
        } catch {
            guard let stale = error as? CommandError, case .recovered(_, .reloaded) = stale.kind else { return ErrorReport.message(error) }
            do { try line(text) } catch { return ErrorReport.message(error) }
            return nil
        }
    }
}

enum StaleChecks {
    /// `export` of the document equals the `export` of its `log export` script replayed on an
    /// empty database, byte for byte; the document verifies with re-planning.
    static func replaysByteForByte(_ store: DocumentStore, _ name: String, _ context: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let doc = try store.open(name)
        let lines = try LogScript.lines(doc)
        // On the same backend as the store replayed.
        let replayStore = try TestStores.store(store.path.hasPrefix("postgres") ? .postgresql : .sqlite)
        var errors: [String] = []
        var runner = BatchRunner(session: Session(store: replayStore), json: false, bail: true, showFile: false,
                                 sink: Sink(out: { _ in }, err: { errors.append($0) }))
        _ = runner.run(lines: lines, file: nil)
        #expect(errors.isEmpty, "\(context): the log export does not replay: \(errors)\n\(lines.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        guard errors.isEmpty else { return }
        let rebuilt = try replayStore.open(name)
        #expect(DocumentFormat.encode(rebuilt.document) == DocumentFormat.encode(doc.document),
                "\(context): export differs after replaying the log\n\(lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(try doc.verify(replan: true) == [], "\(context)", sourceLocation: sourceLocation)
        #expect(try rebuilt.verify(replan: true) == [], "\(context): the rebuilt document", sourceLocation: sourceLocation)
        // The same history: undo steps (what they hold, which entries, applied or undone, their
        // origins), marks (with their origins), and — unless the history was compacted (the
        // rebuilt one starts at entry 1) — the same log, entry for entry, origins included (its
        // own `log export` is the same script). The script's `as` lines, not the rebuilding
        // session's origin, say who made each entry.
        let (history, rebuiltHistory) = (try historyLines(doc), try historyLines(rebuilt))
        #expect(rebuiltHistory == history, "\(context): the history differs after replaying the log: \(LineDiff.unified(expected: history.joined(separator: "\n"), actual: rebuiltHistory.joined(separator: "\n"), name: "history"))",
                sourceLocation: sourceLocation)
        if doc.historyBase == 0 {
            // What `history` shows, text and JSON, byte for byte (labels included: a restore by
            // mark or by `now~N` keeps its label).
            for json in [false, true] {
                let (shown, rebuiltShown) = (try historyOutput(store, name, json: json), try historyOutput(replayStore, name, json: json))
                #expect(rebuiltShown == shown, "\(context): `history` differs after replaying the log: \(LineDiff.unified(expected: shown, actual: rebuiltShown, name: "history"))",
                        sourceLocation: sourceLocation)
            }
            #expect(try LogScript.lines(rebuilt) == lines, "\(context): the rebuilt log differs", sourceLocation: sourceLocation)
            #expect(try rebuilt.log().map(\.origin) == (try doc.log().map(\.origin)), "\(context): the rebuilt log's origins differ",
                    sourceLocation: sourceLocation)
        }
        guard doc.openGroup == nil else { return }
        try undoMineAnswersAlike(doc, rebuilt, context, sourceLocation: sourceLocation)
        guard doc.historyBase == 0 else { return }
        // Undo and redo behave alike: undoing every step, then redoing them, on both.
        let applied = try doc.history().filter(\.applied).count
        guard applied > 0 else { return }
        for d in [doc, rebuilt] {
            _ = try d.undo(applied)
            #expect(try historyLines(d).filter { !$0.hasPrefix("mark") }.allSatisfy { $0.contains(" false ") }, "\(context): all undone",
                    sourceLocation: sourceLocation)
            _ = try d.redo(applied)
        }
        #expect(DocumentFormat.encode(rebuilt.document) == DocumentFormat.encode(doc.document), "\(context): after undo and redo",
                sourceLocation: sourceLocation)
    }

    /// The output of `history` on document `name` of `store`, as a session shows it.
    static func historyOutput(_ store: DocumentStore, _ name: String, json: Bool) throws -> String {
        let session = Session(store: store)
        try session.line("open \(Printer.id(name))")
        let result = try #require(try session.line("history"))
        return json ? JSONWriter.compact(result.jsonValue) : result.text
    }

    /// `undo --mine N` (N = 1, 2, 3) as each origin of the history and as none gives the same
    /// answer on `doc` and on `rebuilt`: the same steps undone (each then redone on both, so the
    /// next question starts from the same state) or the same error.
    static func undoMineAnswersAlike(_ doc: StoredDocument, _ rebuilt: StoredDocument, _ context: String,
                                     sourceLocation: SourceLocation) throws {
        let origins: [String?] = Array(Set(try doc.history().map(\.origin))) + [nil]
        for origin in origins.sorted(by: { ($0 ?? "") < ($1 ?? "") }) {
            for n in 1...3 {
                var answers: [String] = []
                for d in [doc, rebuilt] {
                    d.origin = origin
                    do {
                        let move = try d.undo(mine: n)
                        answers.append("undone \(move.steps.map(\.number))")
                        _ = try d.redo(move.steps.count)
                    } catch {
                        answers.append("\(error)")
                    }
                }
                #expect(answers[0] == answers[1], "\(context): undo --mine \(n) as \(origin ?? "none") answers differently after a rebuild",
                        sourceLocation: sourceLocation)
            }
        }
        #expect(DocumentFormat.encode(rebuilt.document) == DocumentFormat.encode(doc.document), "\(context): after undo --mine",
                sourceLocation: sourceLocation)
    }

    /// The history of `doc` as lines, without times: its undo steps, then its marks, with origins.
    /// A compacted history's entries are numbered as its `log export` numbers them (the base is
    /// entry 1), and so is a restore's target; its label is the one the step has, with the
    /// entry number renumbered so when it named one (or a mark that compaction dropped, docs/store.md).
    static func historyLines(_ doc: StoredDocument) throws -> [String] {
        let shift = doc.historyBase == 0 ? 0 : 1 - doc.historyBase
        let steps = try doc.history().map { step in
            var label = step.label ?? "-"
            if shift != 0, let target = step.restoredFrom, label.hasPrefix("restore "), let ref = HistoryRef(String(label.dropFirst(8))) {
                switch ref {
                case .entry: label = "restore \(target + shift)"
                case .mark where target <= doc.historyBase: label = "restore \(target + shift)"
                default: break
                }
            }
            let target = step.restoredFrom.map { " target \($0 + shift)" } ?? ""
            return "\(step.number) \(label)\(target) \(step.applied) \(step.firstSeq + shift)...\(step.lastSeq + shift) \(step.origin ?? "-") \(step.edits.map(Printer.text))"
        }
        let marks = try doc.marks().map { "mark \($0.name) \($0.seq + shift) \($0.cursor) \($0.reachable) \($0.origin ?? "-")" }
        return steps + marks
    }
}

/// Seeded random REPL lines over a small pool of row ids (whole lengths): the edits of the shared
/// generator (`RandomEdits` with `.lines` values, every `Edit` case) as the REPL prints them, and
/// history and group commands.
struct RandomLines {
    var edits: RandomEdits

    init(seed: UInt64) { edits = RandomEdits(rng: SplitMix64(seed: seed), values: .lines) }

    mutating func int(_ n: Int) -> Int { edits.rng.int(0..<n) }

    mutating func next() -> String {
        switch int(20) {
        case 0: return "undo \(1 + int(2))"
        case 1: return "redo"
        case 2: return int(3) == 0 ? "begin" : "commit"
        default: return Printer.text(edits.edit())
        }
    }
}
