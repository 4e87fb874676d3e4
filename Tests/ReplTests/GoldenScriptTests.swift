import Foundation
import Testing
import Layout
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Runs every `scripts/*.sd` in text and in JSON mode on a fresh in-memory database and
/// compares with `NAME.out` and `NAME.json`; then replays every document's `log export` on an
/// empty database and checks that `export` is identical. `STACKDOC_UPDATE_GOLDEN=1` rewrites
/// the golden files and fails every script it rewrote (`Golden.check`): review them by hand,
/// then run again without it.
///
/// A script may start with `# options: --bail` to run as with `--bail`.
@Suite(.serialized, .offThePool) struct GoldenScriptTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("scripts").path

    static var scripts: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".sd") }.map { String($0.dropLast(3)) }.sorted()
    }

    struct Run {
        var output: String
        var session: Session
    }

    /// Runs `script` as `stackdoc --db :memory: [--json] [--bail] SCRIPT` would, in a scratch
    /// directory; standard output and `error:` lines interleaved, then the exit status.
    static func run(_ script: String, json: Bool, directory: String, backend: TestStores.Backend = .sqlite) throws -> Run {
        let store = try TestStores.store(backend)
        let session = Session(store: store, directory: directory, origin: "golden")
        var lines: [String] = []
        let sink = Sink(out: { lines.append($0) }, err: { lines.append("error: " + $0) })
        let bail = script.hasPrefix("# options: --bail")
        var runner = BatchRunner(session: session, json: json, bail: bail, showFile: false, sink: sink)
        _ = runner.run(text: script, file: nil)
        lines.append("# exit status: \(runner.failed ? 1 : 0)")
        // The database's name where output shows it: the goldens hold the in-memory one's.
        let output = lines.joined(separator: "\n").replacingOccurrences(of: store.path, with: ":memory:")
        return Run(output: output + "\n", session: session)
    }

    /// `timer on` prints wall times, which differ run to run: the goldens hold `N` in their
    /// place (`time: N ms (store and layout N ms)`, `"ms":N`).
    static func normalizingTimes(_ text: String) -> String {
        text.replacing(#/ \d+\.\d\d ms/#, with: " N ms").replacing(#/"ms":\d+\.\d\d/#, with: #""ms":N"#)
    }

    /// Records a failure when `actual` differs from the golden file `name` (or was recorded).
    static func compare(_ actual: String, golden name: String) {
        do {
            try Golden.check(actual, path: directory + "/" + name)
        } catch {
            Issue.record(Comment(rawValue: "\(error)"))
        }
    }

    @Test func thereAreEnoughScripts() {
        #expect(Self.scripts.count >= 25)
    }

    @Test(arguments: scripts) func script(_ name: String) throws {
        try Self.check(name, backend: .sqlite)
    }

    /// The same scripts against a PostgreSQL store (a new schema of `STACKDOC_TEST_POSTGRES`'s
    /// server each), compared with the same goldens byte for byte; the database's name is
    /// printed as `:memory:` (`run`).
    @Test(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)), arguments: scripts)
    func scriptOnPostgreSQL(_ name: String) throws {
        try Self.check(name, backend: .postgresql)
    }

    /// Runs script `name` in text and JSON mode on `backend` and compares with its goldens,
    /// then replays every document's log.
    static func check(_ name: String, backend: TestStores.Backend) throws {
        let text = try String(contentsOfFile: Self.directory + "/\(name).sd", encoding: .utf8)
        let scratch = try Scratch.directory("golden")
        defer { Scratch.remove(scratch) }
        let plain = try Self.run(text, json: false, directory: scratch, backend: backend)
        Self.compare(Self.normalizingTimes(plain.output), golden: "\(name).out")
        let scratchJSON = try Scratch.directory("golden")
        defer { Scratch.remove(scratchJSON) }
        let json = try Self.run(text, json: true, directory: scratchJSON, backend: backend)
        Self.compare(Self.normalizingTimes(json.output), golden: "\(name).json")
        for line in json.output.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("error: ") {
            #expect(line.hasPrefix("{\"ok\":"), "not a JSON envelope: \(line)")
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "\(name).json: not valid JSON: \(line.prefix(300))")
            if let object, object["ok"] as? Bool == true {
                #expect(object["command"] is String && object["events"] is [Any] && object.keys.contains("result"), "\(line.prefix(300))")
            } else if let object {
                #expect(object["error"] is String && object["line"] is Int, "\(line.prefix(300))")
            }
        }
        try Self.checkLogReplay(plain.session, script: name, backend: backend)
    }

    /// Every document's `log export` script rebuilds it on an empty database, with the same
    /// history (steps, marks and their origins) although the replaying session has another origin.
    static func checkLogReplay(_ session: Session, script: String, backend: TestStores.Backend = .sqlite) throws {
        for name in try session.store.documentNames() {
            let doc = try session.store.open(name)
            let lines = try LogScript.lines(doc)
            let replayStore = try TestStores.store(backend)
            let replay = Session(store: replayStore)
            var errors: [String] = []
            var runner = BatchRunner(session: replay, json: false, bail: true, showFile: false,
                                     sink: Sink(out: { _ in }, err: { errors.append($0) }))
            _ = runner.run(lines: lines, file: nil)
            #expect(errors.isEmpty, "\(script): log export of '\(name)' fails to replay: \(errors)\n\(lines.joined(separator: "\n"))")
            let rebuilt = try replayStore.open(name)
            #expect(rebuilt.document == doc.document, "\(script): log export of '\(name)' rebuilds a different document")
            #expect(DocumentFormat.encode(rebuilt.document) == DocumentFormat.encode(doc.document),
                    "\(script): export differs after replaying the log of '\(name)'")
            #expect(try rebuilt.verify().isEmpty)
            #expect(try StaleChecks.historyLines(rebuilt) == (try StaleChecks.historyLines(doc)),
                    "\(script): the history of '\(name)' (origins included) differs after replaying its log")
        }
    }
}
