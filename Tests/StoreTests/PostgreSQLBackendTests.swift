import Foundation
import Glibc
import Layout
import StackDocTestSupport
@testable import Store
import Testing

/// The PostgreSQL backend against a real server (`scripts/with-postgres`): documents and their
/// history as on SQLite, locking by document, the stale check, round trips of a small edit,
/// concurrent migrations, a lost session, and the faults of connecting (through the binary).
@Suite(.longRunning, .enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)))
struct PostgreSQLBackendTests {
    /// A store on a new schema, and the URI that opens it again (another connection).
    static func scratch(busyTimeout: Double = 5) throws -> (store: DocumentStore, url: String) {
        let url = try TestStores.url(.postgresql)
        return (try DocumentStore(url: url, options: StoreOptions(busyTimeout: busyTimeout)), url)
    }

    static func rows(_ doc: StoredDocument) -> [RowID] { doc.document.children(of: nil) }

    @Test func documentsHistoryAndReopenAsOnSQLite() throws {
        let (store, url) = try Self.scratch()
        let doc = try store.create("home", settings: DocumentSettings(axis: .vertical))
        for id in ["a", "b", "c"] { try doc.perform(.add(ids: [id], spec: [.fixed(40)], position: nil, parent: nil)) }
        try doc.perform(.remove(ids: ["b"]))
        _ = try doc.undo()
        _ = try doc.undo()
        _ = try doc.redo()
        #expect(Self.rows(doc) == ["a", "b", "c"])
        let again = try DocumentStore(url: url).open("home")
        #expect(again.document == doc.document)
        #expect(try again.verify().isEmpty)
        #expect(try store.documentNames() == ["home"])
        try store.drop("home")
        #expect(try store.documentNames().isEmpty)
    }

    @Test func importThroughCopyAndReopen() throws {
        let (store, url) = try Self.scratch()
        var source = Document(name: "big", settings: DocumentSettings(axis: .vertical))
        for i in 0..<3000 {
            var config = RowConfig()
            config.size = .fixed(Double(i % 7) + 0.5)
            try source.appendRow("r\(i)", config: config, parent: nil)
        }
        let imported = try store.importDocument(source)
        #expect(imported.document.rowCount == 3000)
        let reopened = try DocumentStore(url: url).open("big")
        #expect(reopened.document == source)
        #expect(try reopened.verify().isEmpty)
        // The rows table holds them too, in order (what `loadRows` reads without a snapshot).
        let rows = try reopened.store.reading { tx in
            try tx.loadRows(reopened.key, name: "big", settings: source.settings, cancellation: .never)
        }
        #expect(rows == source)
    }

    /// A write locks its own document only: while one connection holds a transaction open on
    /// document `a`, another commits an edit of `b`; an edit of `a` waits, then fails busy.
    @Test func writersOfDifferentDocumentsNeverWait() throws {
        let (first, url) = try Self.scratch(busyTimeout: 0.3)
        _ = try first.create("a")
        _ = try first.create("b")
        let second = try DocumentStore(url: url, options: StoreOptions(busyTimeout: 0.3))
        let a = try first.open("a")
        let b = try second.open("b")
        let otherA = try second.open("a")
        try first.writing { tx in
            #expect(try tx.storedVersion(a.key) == 1)  // holds a's record locked until the end
            try b.perform(.add(ids: ["x"], spec: [], position: nil, parent: nil))
            #expect(throws: StoreError.self) { try otherA.perform(.add(ids: ["y"], spec: [], position: nil, parent: nil)) }
        }
        #expect(try DocumentStore(url: url).open("b").document.children(of: nil) == ["x"])
        #expect(try DocumentStore(url: url).open("a").document.rowCount == 0)
    }

    /// A handle that missed another connection's commit is stale: the same refusal as on
    /// SQLite (two handles on one file), and nothing it did not see is overwritten.
    @Test func staleVersionIsCaughtAsOnSQLite() throws {
        func outcome(_ url: String) throws -> (error: String, rows: Int) {
            let mine = try DocumentStore(url: url).create("d")
            try mine.perform(.add(ids: ["a", "b"], spec: [], position: nil, parent: nil))
            let theirs = try DocumentStore(url: url).open("d")
            try theirs.perform(.remove(ids: ["a"]))
            var message = ""
            do { try mine.perform(.move(id: "a", position: .index(1), parent: nil)) } catch { message = "\(error)" }
            return (message, try DocumentStore(url: url).open("d").document.rowCount)
        }
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let onSQLite = try outcome(directory.appendingPathComponent("s.sqlite").path)
        let onPostgreSQL = try outcome(try TestStores.url(.postgresql))
        #expect(!onSQLite.error.isEmpty)
        #expect(onPostgreSQL.error == onSQLite.error)
        #expect(onPostgreSQL.rows == 1 && onSQLite.rows == 1)
    }

    /// A small edit's commit: BEGIN goes with the version check (one round trip), the writes
    /// with COMMIT (one more); an insert reads its neighbour's order key (one more), once for a
    /// whole run of inserts.
    @Test func smallEditRoundTrips() throws {
        let (store, _) = try Self.scratch()
        let doc = try store.create("d")
        try doc.perform(.add(ids: ["a"], spec: [], position: nil, parent: nil))
        let connection = (store.backend as! PostgreSQLBackend).connection
        func trips(_ edit: Edit) throws -> Int {
            let before = connection.roundTrips
            try doc.perform(edit)
            return connection.roundTrips - before
        }
        #expect(try trips(.set(id: "a", spec: [.fixed(10)])) == 2)
        #expect(try trips(.add(ids: ["b"], spec: [], position: nil, parent: nil)) == 3)
        #expect(try trips(.add(ids: (0..<100).map { "r\($0)" }, spec: [], position: nil, parent: nil)) == 3)
        #expect(try trips(.remove(ids: ["b"])) == 2)
    }

    /// A change of thousands of rows goes in pipelines of `pipelineLimit` statements (one whose
    /// results filled the sockets before it was all sent would wait on itself): a clear of 2,500
    /// rows and its undo commit, each in its reads plus one round trip per `pipelineLimit`
    /// statements (not one per row).
    @Test func longChangesGoInBoundedPipelines() throws {
        let (store, url) = try Self.scratch()
        let doc = try store.create("d")
        try doc.perform(.add(ids: (0..<2500).map { "r\($0)" }, spec: [], position: nil, parent: nil))
        let connection = (store.backend as! PostgreSQLBackend).connection
        var before = connection.roundTrips
        try doc.perform(.clear(parent: nil))
        let pipelines = 2500 / PostgreSQLTransaction.pipelineLimit + 1
        #expect(connection.roundTrips - before <= 2 + pipelines)
        before = connection.roundTrips
        _ = try doc.undo()
        #expect(connection.roundTrips - before <= 6 + pipelines)
        let reopened = try DocumentStore(url: url).open("d")
        #expect(reopened.document.rowCount == 2500 && reopened.document == doc.document)
    }

    /// Two processes opening a fresh database at the same moment both succeed: the migrations
    /// run under one advisory lock.
    @Test(.enabled(if: Binary.hasStackdoc)) func twoProcessesMigrateAFreshDatabase() async throws {
        for _ in 0..<3 {
            let url = try TestStores.url(.postgresql)
            async let one = Binary.run(Binary.stackdoc!, ["--db", url, "-c", "new first"], timeout: 30)
            async let two = Binary.run(Binary.stackdoc!, ["--db", url, "-c", "new second"], timeout: 30)
            let results = try await [one, two]
            for result in results { #expect(result.status == 0, "\(result.stderr)") }
            #expect(try DocumentStore(url: url).documentNames() == ["first", "second"])
        }
    }

    /// The server closing the session (as a restart does): the next command reconnects once and
    /// works; the handle re-checks its version as always.
    @Test func reconnectsAfterTheSessionIsTerminated() throws {
        let (store, url) = try Self.scratch()
        let doc = try store.create("d")
        let connection = (store.backend as! PostgreSQLBackend).connection
        let pid = connection.serverPID
        let killer = try DocumentStore(url: url)
        try (killer.backend as! PostgreSQLBackend).connection.execute("SELECT pg_terminate_backend($1::int4)", [.int(Int64(pid))])
        usleep(200_000)
        try doc.perform(.add(ids: ["a"], spec: [], position: nil, parent: nil))
        #expect(connection.serverPID != pid)
        #expect(try DocumentStore(url: url).open("d").document.children(of: nil) == ["a"])
    }

    /// Connect faults through the binary: one clear line, a non-zero exit, within the timeout;
    /// a password in the URI never shows.
    @Test(.enabled(if: Binary.hasStackdoc)) func connectFaultsAreOneLineAndQuick() async throws {
        let server = try #require(TestPostgres.url)
        // A port nothing listens on (bound and closed), a missing database, a server that never answers.
        let closed = try Self.freePort()
        let silent = try SilentListener()
        defer { silent.close() }
        let missing = server.replacingOccurrences(of: "/stackdoc", with: "/no_such_database")
        let cases = [
            ("postgresql://stackdoc:sekrit@127.0.0.1:\(closed)/stackdoc", "Connection refused"),
            (missing, "no_such_database"),
            ("postgresql://stackdoc:sekrit@127.0.0.1:\(silent.port)/stackdoc?connect_timeout=1", "timeout"),
        ]
        for (url, says) in cases {
            let result = try await Binary.run(Binary.stackdoc!, ["--db", url, "-c", "docs"], timeout: 20)
            #expect(result.status != 0 && result.status != 9, "\(url): status \(result.status)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(url): \(result.stderr)")
            #expect(result.stderr.contains(says), "\(url): \(result.stderr)")
            #expect(!result.stderr.contains("sekrit") && !result.stdout.contains("sekrit"))
            #expect(result.seconds < 6, "\(url): took \(result.seconds) s")
        }
    }

    /// A port of 127.0.0.1 that was free a moment ago.
    static func freePort() throws -> Int {
        let listener = try SilentListener()
        defer { listener.close() }
        return listener.port
    }
}

/// A socket of 127.0.0.1 that listens and never accepts: a connection to it completes (the
/// kernel's backlog) and then hears nothing, like a server that hangs.
final class SilentListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 8) == 0 else {
            Glibc.close(fd)
            throw StackDocError("cannot listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(descriptor) }
}
