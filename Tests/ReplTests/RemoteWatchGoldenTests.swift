import Foundation
import Testing
import StackDocTestSupport

/// A golden of `watch` with another writer, on both backends: the golden scripts run one
/// session, so their `watch.sd` only shows a watch with nothing to report. Here alice's
/// `stackdoc` process (text and `--json`) watches while bob's commits; what it prints is
/// compared with `remote-watch/watch.out` and `watch.json`, the same files for SQLite and for
/// PostgreSQL (`STACKDOC_TEST_POSTGRES`'s server, a new schema). `STACKDOC_UPDATE_GOLDEN=1`
/// rewrites them.
@Suite(.longRunning) struct RemoteWatchGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("remote-watch").path

    @Test func onSQLite() async throws {
        try await Self.check(.sqlite)
    }

    @Test(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)))
    func onPostgreSQL() async throws {
        try await Self.check(.postgresql)
    }

    static func check(_ backend: TestStores.Backend) async throws {
        for json in [false, true] {
            let output = try await Self.run(backend, json: json)
            do {
                try Golden.check(GoldenScriptTests.normalizingTimes(output), path: directory + (json ? "/watch.json" : "/watch.out"))
            } catch {
                Issue.record(Comment(rawValue: "\(backend): \(error)"))
            }
        }
    }

    /// Alice opens the document; bob commits a group and an edit while she is not watching
    /// (`watch 0` catches them up from the log), then an undo of his own while her `watch 60`
    /// waits (the change signal: `PRAGMA data_version` on SQLite, LISTEN/NOTIFY on PostgreSQL);
    /// once it is printed, Ctrl-C ends her watch and her `status` runs.
    /// Alice's standard output and standard error, and her exit status (the database as `$DB`).
    static func run(_ backend: TestStores.Backend, json: Bool) async throws -> String {
        let exe = try #require(Binary.stackdoc, "the stackdoc binary is built with the tests")
        let db = try SharedDatabase(backend)
        defer { db.remove() }
        let setup = try await Binary.run(exe, ["--db", db.path, "--as", "alice"], stdin: "new d viewport 320 300\nadd a b fixed 100\n")
        #expect(setup.status == 0, "\(setup.stderr)")
        let (alice, bobs) = try await TestThread.run { () throws -> (PipedProcess.Outcome, [Binary.Result]) in
            let alice = try PipedProcess(exe, ["--db", db.path, "--as", "alice"] + (json ? ["--json"] : []))
            alice.send("open d\n")
            _ = alice.read(until: json ? #""command":"open d""# : "opened d", timeout: 30)
            let early = try Binary.runBlocking(exe, ["--db", db.path, "--as", "bob"],
                                               stdin: "open d\nbegin \"grow a\"\nset a fixed 150\ncommit\nhide b\n")
            alice.send("watch 0\n")
            _ = alice.read(until: json ? #""command":"watch 0""# : "watched 0 s", timeout: 30)
            alice.send("watch 60\nstatus\n")
            let live = try Binary.runBlocking(exe, ["--db", db.path, "--as", "bob"], stdin: "open d\nundo\n")
            // Heard: Ctrl-C ends the watch (not the process), whatever the machine's load.
            _ = alice.read(until: json ? #""entry":7"# : "entry 7 by bob", timeout: 30)
            alice.interrupt()
            return (alice.finish(timeout: 30), [early, live])
        }
        for bob in bobs { #expect(bob.status == 0, "\(bob.stderr)") }
        let output = alice.stdout + (alice.stderr.isEmpty ? "" : "# standard error:\n" + alice.stderr) + "# exit status: \(alice.status)\n"
        return output.replacingOccurrences(of: db.path, with: "$DB")  // `status` names the database
    }
}
