import Foundation
import StackDocTestSupport
@testable import Store
import Testing

/// The libpq client the shared store is built on: URIs and their redaction (no server needed),
/// then a real server from `scripts/with-postgres` — values byte for byte, errors, pipelines,
/// notifications, COPY, a lost connection.
@Suite(.offThePool) struct PostgreSQLURLTests {
    @Test func recognisesBothSchemesOnly() {
        #expect(PostgreSQLURL("postgresql://a@h/db") != nil)
        #expect(PostgreSQLURL("postgres://h") != nil)
        #expect(PostgreSQLURL("stackdoc.sqlite") == nil)
        #expect(PostgreSQLURL("postgresql:/h") == nil)
        #expect(PostgreSQLURL(":memory:") == nil)
    }

    @Test func passwordsAreRedactedWhereverWritten() throws {
        let cases: [(String, String, String?)] = [
            ("postgresql://alice:s3cret@db.example:5432/docs", "postgresql://alice:***@db.example:5432/docs", "s3cret"),
            ("postgres://alice@host/db", "postgres://alice@host/db", nil),
            ("postgresql://host/db?sslmode=disable&password=p%40ss&application_name=x",
             "postgresql://host/db?sslmode=disable&password=***&application_name=x", "p@ss"),
            ("postgresql://u:p%3Aw@[::1]:5/d", "postgresql://u:***@[::1]:5/d", "p:w"),
            ("postgresql://", "postgresql://", nil),
            ("postgresql://a:b@c@h/d", "postgresql://a:***@h/d", "b@c"),
        ]
        for (given, redacted, password) in cases {
            let url = try #require(PostgreSQLURL(given))
            #expect(url.redacted == redacted, "\(given)")
            #expect(url.description == redacted)
            #expect(url.password == password, "\(given)")
            if let password {
                let scrubbed = url.scrub("failed for \(given) with \(password)")
                #expect(!scrubbed.contains(password), "\(scrubbed)")
            }
        }
    }

    @Test func oneLineJoinsLibpqContinuationLines() {
        let message = "connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs the server running on that host?\n"
        #expect(PostgreSQLConnection.oneLine(message)
                == "connection to server at \"127.0.0.1\", port 1 failed: Connection refused Is the server running on that host?")
    }

    @Test func identifiersAreQuoted() {
        #expect(PostgreSQLConnection.identifier("doc") == "\"doc\"")
        #expect(PostgreSQLConnection.identifier("a\"b") == "\"a\"\"b\"")
    }
}

@Suite(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)), .offThePool)
struct PostgreSQLConnectionTests {
    let url = PostgreSQLURL(TestPostgres.url ?? "postgresql://")!

    func connect() throws -> PostgreSQLConnection { try PostgreSQLConnection(url: url) }

    /// The server's URI with another user-info, port or database.
    func variant(password: String? = nil, port: Int? = nil, database: String? = nil) throws -> PostgreSQLURL {
        var parts = try #require(URLComponents(string: url.text))
        if let password { parts.password = password }
        if let port { parts.port = port }
        if let database { parts.path = "/" + database }
        let text = try #require(parts.string)
        return try #require(PostgreSQLURL(text))
    }

    @Test func valuesRoundTripByteForByte() throws {
        let db = try connect()
        let everyByte = (0...255).map(UInt8.init)
        let rows = try db.execute("SELECT $1::int8, $2::int8, $3::text, $4::bytea, $5::bool, $6::text, 7::int4, (-3)::int2",
                                  [.int(.max), .int(.min), .text("straße 🧱 \"q\" '\\"), .bytes(everyByte), .bool(true), nil])
        #expect(rows.count == 1 && rows.columnCount == 8)
        #expect(rows.int(0, 0) == .max)
        #expect(rows.int(0, 1) == .min)
        #expect(rows.string(0, 2) == "straße 🧱 \"q\" '\\")
        #expect(rows.bytes(0, 3) == everyByte)
        #expect(rows.int(0, 4) == 1)
        #expect(rows.isNull(0, 5) && rows.string(0, 5) == nil)
        #expect(rows.int(0, 6) == 7)
        #expect(rows.int(0, 7) == -3)
        #expect(rows.bytes(0, 3)?.count == 256)
        #expect(rows.int(0, 2) == nil, "text is not read as an integer")
    }

    @Test func aFailedStatementNamesItsSQLStateAndKeepsTheSessionUsable() throws {
        let db = try connect()
        let error = try #require(throws: PostgreSQLError.self) { try db.execute("SELECT * FROM no_such_table_here") }
        #expect(error.sqlState == "42P01")
        #expect(error.description.contains("no_such_table_here"))
        #expect(try db.execute("SELECT 1").int(0, 0) == 1)
    }

    @Test func aMissingDatabaseIsOneClearLineWithThePasswordHidden() throws {
        let bad = try variant(password: "hunter2-secret", database: TestPostgres.uniqueName("nodb"))
        let started = Date()
        let error = try #require(throws: PostgreSQLError.self) { try PostgreSQLConnection(url: bad) }
        guard case .cannotConnect(let server, let detail) = error.kind else {
            Issue.record("expected cannotConnect, got \(error)")
            return
        }
        #expect(!error.description.contains("hunter2-secret"))
        #expect(server.contains(":***@"))
        #expect(detail.contains("does not exist"), "\(detail)")
        #expect(!error.description.contains("\n"))
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aClosedPortFailsAtOnceWithoutHanging() throws {
        // A port nothing listens on: bound, then released.
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        close(socket)
        let started = Date()
        let error = try #require(throws: PostgreSQLError.self) { try PostgreSQLConnection(url: try variant(port: port), connectTimeout: 2) }
        guard case .cannotConnect(_, let detail) = error.kind else {
            Issue.record("expected cannotConnect, got \(error)")
            return
        }
        #expect(detail.contains("refused"), "\(detail)")
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aPipelineCommitsAllOrNothing() throws {
        let db = try connect()
        let table = TestPostgres.uniqueName("pipe")
        try db.execute("CREATE TABLE \(table) (id int8 PRIMARY KEY, note text COLLATE \"C\")")
        defer { _ = try? db.execute("DROP TABLE \(table)") }
        let results = try db.pipeline([
            PostgreSQLStatement("BEGIN"),
            PostgreSQLStatement("INSERT INTO \(table) VALUES ($1, $2)", [.int(1), .text("one")]),
            PostgreSQLStatement("INSERT INTO \(table) VALUES ($1, $2) RETURNING id", [.int(2), .text("two")]),
            PostgreSQLStatement("COMMIT"),
        ])
        #expect(results.count == 4)
        #expect(results[2].int(0, 0) == 2)
        #expect(!db.inTransaction)
        // The duplicate key fails the third statement: the server skips the rest, the block rolls back.
        let error = try #require(throws: PostgreSQLError.self) {
            try db.pipeline([
                PostgreSQLStatement("BEGIN"),
                PostgreSQLStatement("INSERT INTO \(table) VALUES ($1, $2)", [.int(3), .text("three")]),
                PostgreSQLStatement("INSERT INTO \(table) VALUES ($1, $2)", [.int(1), .text("again")]),
                PostgreSQLStatement("INSERT INTO \(table) VALUES ($1, $2)", [.int(4), .text("four")]),
                PostgreSQLStatement("COMMIT"),
            ])
        }
        #expect(error.sqlState == "23505")
        #expect(!db.inTransaction)
        let rows = try db.execute("SELECT id, note FROM \(table) ORDER BY id")
        #expect(rows.count == 2)
        #expect((0..<rows.count).map { rows.string($0, 1) } == ["one", "two"])
    }

    @Test func notificationsArriveOnTheListenersChannelOnly() throws {
        let listener = try connect()
        let sender = try connect()
        let channel = TestPostgres.uniqueName("doc")
        try listener.listen(channel)
        #expect(try listener.nextNotification(timeout: 0.2) == nil)
        try sender.execute("SELECT pg_notify($1, $2)", [.text(channel + "_other"), .text("not for us")])
        try sender.execute("SELECT pg_notify($1, $2)", [.text(channel), .text("uid-1 7")])
        let note = try #require(try listener.nextNotification(timeout: 5))
        #expect(note == PostgreSQLNotification(channel: channel, payload: "uid-1 7", senderPID: sender.serverPID))
        #expect(try listener.nextNotification(timeout: 0.2) == nil)
    }

    @Test func copyStreamsRowsInOneStatement() throws {
        let db = try connect()
        let table = TestPostgres.uniqueName("copy")
        try db.execute("CREATE TABLE \(table) (id int8, body bytea)")
        defer { _ = try? db.execute("DROP TABLE \(table)") }
        let chunks = stride(from: 0, to: 10_000, by: 1_000).map { start in
            Array((start..<start + 1_000).map { "\($0)\t\\\\x\(String($0, radix: 16).count % 2 == 0 ? String($0, radix: 16) : "0" + String($0, radix: 16))\n" }.joined().utf8)
        }
        #expect(try db.copyIn("COPY \(table) (id, body) FROM STDIN", chunks) == 10_000)
        let rows = try db.execute("SELECT count(*), (SELECT body FROM \(table) WHERE id = 4660) FROM \(table)")
        #expect(rows.int(0, 0) == 10_000)
        #expect(rows.bytes(0, 1) == [0x12, 0x34])
        // A malformed line fails the copy, and nothing of it stays.
        #expect(throws: PostgreSQLError.self) { try db.copyIn("COPY \(table) (id, body) FROM STDIN", [Array("x\tnot-hex\n".utf8)]) }
        #expect(try db.execute("SELECT count(*) FROM \(table)").int(0, 0) == 10_000)
    }

    @Test func aTerminatedSessionIsReportedAsLostAndReconnects() throws {
        let db = try connect()
        let admin = try connect()
        let pid = db.serverPID
        try admin.execute("SELECT pg_terminate_backend($1::int4)", [.int(Int64(pid))])
        // The server closes the session; the next statement finds it gone.
        var lost: PostgreSQLError?
        for _ in 0..<50 {
            do { try db.execute("SELECT 1") } catch let error as PostgreSQLError { lost = error; break }
            usleep(20_000)
        }
        let error = try #require(lost)
        guard case .connectionLost = error.kind else {
            Issue.record("expected connectionLost, got \(error)")
            return
        }
        try db.reconnect()
        #expect(db.isOpen && db.serverPID != pid)
        #expect(try db.execute("SELECT 41 + 1").int(0, 0) == 42)
    }
}
