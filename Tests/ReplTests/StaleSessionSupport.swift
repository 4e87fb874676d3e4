import Foundation
import Layout
import Store
import Testing
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
            let message = Driver.message(error)
            guard message.hasSuffix("reloaded it: run the command again") else { return message }
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

/// Seeded random REPL lines over a small pool of row ids (integer lengths).
struct RandomLines {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }

    mutating func row() -> String { "r\(int(8))" }

    mutating func next() -> String {
        switch int(20) {
        case 0, 1, 2, 3: return "add \(row()) fixed \(10 + int(20) * 10)"
        case 4: return "add \(row()) \(row()) fixed \(20 + int(5) * 10) at \(int(4))"
        case 5: return "remove \(row())"
        case 6: return "hide \(row())"
        case 7: return "show \(row())"
        case 8: return "set \(row()) fixed \(10 + int(40) * 10)"
        case 9: return "set \(row()) grow \(int(3))"
        case 10: return "move \(row()) to \(int(5))"
        case 11: return "scroll \(int(60) * 10)"
        case 12: return "scroll to \(row()) \(["top", "middle", "bottom", "auto"][int(4)])"
        case 13: return "scroll by \(int(40) * 10 - 200)"
        case 14: return "viewport 320 \(100 + int(6) * 100)"
        case 15: return "undo \(1 + int(2))"
        case 16: return "redo"
        case 17: return int(3) == 0 ? "begin" : "commit"
        case 18: return "clear"
        default: return "set \(row()) hidden"
        }
    }
}
