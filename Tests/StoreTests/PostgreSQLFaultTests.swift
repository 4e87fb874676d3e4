import Foundation
import Glibc
import Layout
import StackDocTestSupport
@testable import Store
import Testing

/// Faults of a shared store against a real server (issue 34 item 5), each on a cluster of the
/// test's own (`TestPostgresCluster`: restarting or stopping the shared server of
/// `scripts/with-postgres` would break the tests running beside these): a restart between two
/// commands, a server that is down, a wrong password — and the change signal (`LISTEN`/`NOTIFY`)
/// across a restart.
@Suite(.serialized, .longRunning, .enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)))
struct PostgreSQLFaultTests {
    static func add(_ id: String) -> Edit { .add(ids: [id], spec: [.fixed(10)], position: nil, parent: nil) }

    /// The document `edits` make on a new SQLite document: what the stored one must equal.
    static func replay(_ edits: [Edit]) throws -> Document {
        let doc = try DocumentStore(path: ":memory:").create("d")
        for edit in edits { try doc.perform(edit) }
        return doc.document
    }

    /// A restart between two commands: the next command reconnects once and works; a handle
    /// another session left behind finds itself stale, catches up and plans its edit again; while the
    /// server is down a command fails at once with one line (no password) and changes nothing;
    /// after it is back the same handle goes on. The stored document equals a replay of exactly
    /// the acknowledged commands, and verifies.
    @Test func aRestartBetweenCommandsLosesNothingAcknowledged() throws {
        let cluster = try TestPostgresCluster()
        defer { cluster.stop() }
        let url = cluster.url()
        let doc = try DocumentStore(url: url).create("d")
        var acknowledged: [Edit] = []
        for id in ["a", "b"] {
            try doc.perform(Self.add(id))
            acknowledged.append(Self.add(id))
        }
        let other = try DocumentStore(url: url).open("d")
        let pid = (doc.store.backend as! PostgreSQLBackend).connection.serverPID

        try cluster.restart()
        try doc.perform(Self.add("c"))
        acknowledged.append(Self.add("c"))
        #expect((doc.store.backend as! PostgreSQLBackend).connection.serverPID != pid)
        // The other session reconnects too, its version check says stale, and its edit is
        // planned again on the newest version (SPEC §3: it touches no row `c`'s step changed).
        try other.perform(Self.add("x"))
        acknowledged.append(Self.add("x"))
        #expect(other.document.children(of: nil) == ["a", "b", "c", "x"])

        try cluster.halt()
        let before = doc.document
        let started = Date()
        do {
            try doc.perform(Self.add("lost"))
            Issue.record("a write to a stopped server succeeded")
        } catch {
            let message = "\(error)"
            #expect(!message.contains("\n") && !message.contains(TestPostgresCluster.password), "\(message)")
            #expect(message.contains("cannot open") || message.contains("connect") || message.contains("connection"), "\(message)")
        }
        #expect(Date().timeIntervalSince(started) < 6)
        #expect(doc.document == before)

        try cluster.start()
        try doc.reload()
        try doc.perform(Self.add("d"))
        acknowledged.append(Self.add("d"))
        let stored = try DocumentStore(url: url).open("d")
        #expect(stored.document == (try Self.replay(acknowledged)))
        #expect(stored.document.children(of: nil) == ["a", "b", "c", "x", "d"])
        #expect(try stored.log().count == acknowledged.count + 1)
        #expect(try stored.verify().isEmpty)
    }

    /// The change signal: a waiter wakes within milliseconds of another session's commit (no
    /// poll), sleeps through silence, and after a server restart returns a new token and catches
    /// up from the log with the change whose notification it could not hear (made while it was
    /// disconnected).
    @Test func aWatcherHearsCommitsAndCatchesUpAfterARestart() throws {
        let cluster = try TestPostgresCluster()
        defer { cluster.stop() }
        let url = cluster.url()
        let writer = try DocumentStore(url: url).create("d")
        let watcher = try DocumentStore(url: url).open("d")

        var token = try watcher.changeToken()
        let quiet = Date()
        #expect(try watcher.waitForRemoteChange(after: token, timeout: 0.3) == token)
        #expect(Date().timeIntervalSince(quiet) >= 0.29)

        try writer.perform(Self.add("a"))
        let woke = Date()
        let next = try watcher.waitForRemoteChange(after: token, timeout: 5)
        #expect(next != token)
        #expect(Date().timeIntervalSince(woke) < 0.5)
        #expect(try watcher.catchUp().map(\.entry.seq) == [2])
        token = next

        try cluster.restart()
        try writer.perform(Self.add("b"))  // reconnects; its NOTIFY cannot reach the cut-off watcher
        let again = try watcher.waitForRemoteChange(after: token, timeout: 5)
        #expect(again != token)
        let changes = try watcher.catchUp()
        #expect(changes.map(\.entry.seq) == [3])
        #expect(watcher.document == writer.document)

        // Listening again after the reconnection: the next commit wakes it as before.
        try writer.perform(Self.add("c"))
        #expect(try watcher.waitForRemoteChange(after: again, timeout: 5) != again)
        #expect(try watcher.catchUp().map(\.entry.seq) == [4])
    }

    /// A wrong password (in the URI or `PGPASSWORD`) through the binary: one line naming the
    /// failed authentication, a non-zero exit, quickly; the password never shows. The right one
    /// works.
    @Test(.enabled(if: Binary.hasStackdoc)) func aWrongPasswordIsOneLineAndQuick() async throws {
        let cluster = try TestPostgresCluster()
        defer { cluster.stop() }
        let wrong = "wr0ng-Pass-77"
        let cases: [(url: String, environment: [String: String])] = [
            (cluster.url(password: wrong), [:]),
            (cluster.url(password: nil), ["PGPASSWORD": wrong]),
        ]
        for (url, environment) in cases {
            let result = try await Binary.run(Binary.stackdoc!, ["--db", url, "-c", "docs"], environment: environment, timeout: 20)
            #expect(result.status != 0 && result.status != 9, "status \(result.status)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("password authentication failed"), "\(result.stderr)")
            #expect(!result.stderr.contains(wrong) && !result.stdout.contains(wrong))
            #expect(result.seconds < 6, "took \(result.seconds) s")
        }
        let right = try await Binary.run(Binary.stackdoc!, ["--db", cluster.url(), "-c", "new d"], timeout: 20)
        #expect(right.status == 0, "\(right.stderr)")
        #expect(!right.stderr.contains(TestPostgresCluster.password) && !right.stdout.contains(TestPostgresCluster.password))
    }
}
