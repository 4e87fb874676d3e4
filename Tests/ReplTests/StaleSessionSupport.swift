import Foundation
import Layout
import Store
import Testing
import StackDocTestSupport
@testable import repl
@testable import StackDocScript

/// Sessions on one database file through separate connections (SQLite treats them as separate
/// processes), and the checks the stale-session tests share.
struct SharedDatabase {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "/stackdoc-shared-\(UUID().uuidString).sqlite"
    }

    func remove() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// A new session on its own connection to the file.
    func session() throws -> Session {
        Session(store: try DocumentStore(path: path))
    }
}

extension Session {
    /// Runs one REPL line (nil for a blank or comment line).
    @discardableResult
    func line(_ text: String) throws -> CommandResult? {
        guard let command = try Parser.parse(text) else { return nil }
        return try run(command)
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
            guard let stale = error as? StackDocError, case .recovered(_, .reloaded) = stale.kind else { return Driver.message(error) }
            do { try line(text) } catch { return Driver.message(error) }
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
        let replayStore = try DocumentStore(path: ":memory:")
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
