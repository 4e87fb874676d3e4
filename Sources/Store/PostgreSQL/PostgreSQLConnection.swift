import CPostgreSQL
import Glibc

/// A value bound to a statement's `$n` parameter. Text goes as text (typed `text`); integers,
/// booleans, bytes and doubles go binary (`int8`, `bool`, `bytea` exactly as given, `float8` bit
/// for bit), so that a value is written once, straight into the statement's one parameter buffer.
enum PostgreSQLValue: Hashable, Sendable {
    case text(String)
    case int(Int64)
    case bool(Bool)
    case bytes([UInt8])
    case double(Double)

    /// The parameter's type OID and format (0 text, 1 binary).
    fileprivate var typeAndFormat: (type: Oid, format: Int32) {
        switch self {
        case .text: (25, 0)
        case .int: (20, 1)
        case .bool: (16, 1)
        case .bytes: (17, 1)
        case .double: (701, 1)
        }
    }

    /// Appends the value's wire bytes to `buffer` (a text value NUL-terminated, as libpq reads a
    /// text parameter) and returns their length (the NUL not counted).
    fileprivate func append(to buffer: inout [UInt8]) -> Int32 {
        switch self {
        case .text(let s):
            let start = buffer.count
            buffer.append(contentsOf: s.utf8)
            defer { buffer.append(0) }
            return Int32(buffer.count - start)
        case .int(let i):
            withUnsafeBytes(of: i.bigEndian) { buffer.append(contentsOf: $0) }
            return 8
        case .bool(let b):
            buffer.append(b ? 1 : 0)
            return 1
        case .bytes(let b):
            buffer.append(contentsOf: b)
            return Int32(b.count)
        case .double(let d):
            withUnsafeBytes(of: d.bitPattern.bigEndian) { buffer.append(contentsOf: $0) }
            return 8
        }
    }

    /// An upper bound of the bytes `append(to:)` writes, to size the buffer once.
    fileprivate var wireCapacity: Int {
        switch self {
        case .text(let s): s.utf8.count + 1
        case .bytes(let b): b.count
        case .int, .double: 8
        case .bool: 1
        }
    }
}

/// A statement and its parameters, for `PostgreSQLConnection.pipeline`.
struct PostgreSQLStatement: Sendable {
    var sql: String
    var parameters: [PostgreSQLValue?]

    init(_ sql: String, _ parameters: [PostgreSQLValue?] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}

/// A `NOTIFY` received on a channel this connection `listen`s to.
struct PostgreSQLNotification: Hashable, Sendable {
    var channel: String
    var payload: String
    /// The server process that sent it (`pg_backend_pid()` of the notifying session).
    var senderPID: Int32
}

/// One session with a PostgreSQL server through libpq, synchronous like the rest of the store.
///
/// Every statement runs with binary results (`PostgreSQLRows` reads integers, text and `bytea`
/// exactly); a `pipeline` sends several statements and one sync in one round trip; `listen` and
/// `nextNotification` receive `NOTIFY`s; `copyIn` streams `COPY … FROM STDIN`. Messages never show
/// a password (`PostgreSQLURL.scrub`), and libpq's notices are not printed (the store prints
/// nothing). Not thread-safe: one connection, one thread at a time.
final class PostgreSQLConnection {
    /// The server's URI (`description` is redacted).
    let url: PostgreSQLURL
    private let connection: OpaquePointer
    /// Round trips to the server so far (each `execute`, `pipeline` and `copyIn` is one; a
    /// connection's own setup is not counted): what a test of a commit's cost counts.
    private(set) var roundTrips = 0

    /// Connects to `url`. `connectTimeout` (seconds, libpq's `connect_timeout`) applies unless the
    /// URI names its own.
    ///
    /// - Throws: `PostgreSQLError(.cannotConnect)` with libpq's reason on one line: a down or
    ///   unreachable server, a wrong password, a missing database, a timeout.
    init(url: PostgreSQLURL, connectTimeout: Int = 5, applicationName: String = "stackdoc") throws {
        self.url = url
        // Earlier keywords are overridden by what the URI (expanded from `dbname`) says.
        let keywords = ["connect_timeout", "application_name", "dbname"]
        let values = [String(connectTimeout), applicationName, url.text]
        let made: OpaquePointer? = Self.withCStrings(keywords) { k in
            Self.withCStrings(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let made else { throw PostgreSQLError(.cannotConnect(server: url.redacted, detail: "out of memory")) }
        guard PQstatus(made) == CONNECTION_OK else {
            let detail = url.scrub(Self.oneLine(String(cString: PQerrorMessage(made))))
            PQfinish(made)
            throw PostgreSQLError(.cannotConnect(server: url.redacted, detail: detail))
        }
        connection = made
        // libpq prints the server's notices to standard error by default; the store prints nothing.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { PQfinish(connection) }

    /// True while the connection is usable (false after the server went away).
    var isOpen: Bool { PQstatus(connection) == CONNECTION_OK }

    /// Reads what the server sent meanwhile without waiting (no round trip) and says whether the
    /// connection is still usable: false once the server closed it (a restart, a terminated
    /// session).
    func isAlive() -> Bool {
        guard isOpen, !inTransaction else { return isOpen }
        for _ in 0..<2 where PQconsumeInput(connection) != 1 { return false }
        return isOpen
    }

    /// The server process serving this session (`pg_backend_pid()`).
    var serverPID: Int32 { PQbackendPID(connection) }

    /// True inside a transaction block (`BEGIN` not yet ended), also a failed one.
    var inTransaction: Bool {
        let status = PQtransactionStatus(connection)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Reconnects with the same parameters after the connection broke (e.g. the server restarted).
    func reconnect() throws {
        PQreset(connection)
        guard isOpen else {
            throw PostgreSQLError(.cannotConnect(server: url.redacted, detail: url.scrub(Self.oneLine(String(cString: PQerrorMessage(connection))))))
        }
    }

    // MARK: Statements

    /// Runs one statement (its `$1…` bound to `parameters`, nil for SQL NULL) and returns its rows.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgreSQLValue?] = []) throws -> PostgreSQLRows {
        roundTrips += 1
        let result = Self.withParameters(parameters) { types, values, lengths, formats in
            PQexecParams(connection, sql, Int32(parameters.count), types, values, lengths, formats, 1)
        }
        return try rows(of: result)
    }

    /// Runs `sql`, which may hold several statements and no parameters (a migration), through
    /// the simple query protocol; the first failure is thrown.
    func executeScript(_ sql: String) throws {
        roundTrips += 1
        guard PQsendQuery(connection, sql) == 1 else { throw failure("cannot send a script") }
        var firstError: Error?
        while let result = PQgetResult(connection) {
            do { _ = try rows(of: result) } catch { if firstError == nil { firstError = error } }
        }
        if let firstError { throw firstError }
    }

    /// Sends `statements` and one sync point in one round trip (libpq's pipeline mode) and returns
    /// each statement's rows in order. The first statement that fails ends the pipeline: the server
    /// skips the rest, an open transaction block is rolled back, and its error is thrown.
    func pipeline(_ statements: [PostgreSQLStatement]) throws -> [PostgreSQLRows] {
        guard PQenterPipelineMode(connection) == 1 else { throw failure("cannot enter pipeline mode") }
        roundTrips += 1
        var inPipeline = true
        defer { if inPipeline { PQexitPipelineMode(connection) } }
        for statement in statements {
            let sent = Self.withParameters(statement.parameters) { types, values, lengths, formats in
                PQsendQueryParams(connection, statement.sql, Int32(statement.parameters.count), types, values, lengths, formats, 1)
            }
            guard sent == 1 else { throw failure("cannot send a statement") }
        }
        guard PQpipelineSync(connection) == 1 else { throw failure("cannot send the sync point") }
        var results: [PostgreSQLRows] = []
        var firstError: Error?
        for _ in statements {
            // Each statement's results end with a NULL.
            while let result = PQgetResult(connection) {
                if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                    PQclear(result)
                    continue
                }
                do { results.append(try rows(of: result)) } catch { if firstError == nil { firstError = error } }
            }
        }
        // Then the sync point's own result.
        while let result = PQgetResult(connection) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        PQexitPipelineMode(connection)
        inPipeline = false
        if let firstError {
            if isOpen, inTransaction { _ = PQexec(connection, "ROLLBACK").map { PQclear($0) } }
            throw firstError
        }
        return results
    }

    // MARK: Notifications

    /// `LISTEN` on `channel` (any text: quoted as an identifier).
    func listen(_ channel: String) throws {
        try execute("LISTEN \(Self.identifier(channel))")
    }

    /// The next notification for a channel this connection listens to, waiting at most `timeout`
    /// seconds; nil when none came.
    func nextNotification(timeout: Double) throws -> PostgreSQLNotification? {
        if let note = try takeNotification() { return note }
        let deadline = Clock.now + timeout
        while true {
            let left = deadline - Clock.now
            if left <= 0 { return nil }
            try waitForInput(timeout: left)
            if let note = try takeNotification() { return note }
        }
    }

    /// The notifications the server sent so far, oldest first, read without waiting (no round
    /// trip: what arrived on the socket, and what libpq kept while statements ran).
    func takeNotifications() throws -> [PostgreSQLNotification] {
        var notes: [PostgreSQLNotification] = []
        while let note = try takeNotification() { notes.append(note) }
        return notes
    }

    /// Waits until the server sends something (a notification, the connection's end) or
    /// `timeout` seconds pass: poll(2) on the connection's socket. Throws when the connection is
    /// gone.
    func waitForInput(timeout: Double) throws {
        let socket = PQsocket(connection)
        guard socket >= 0 else { throw lost() }
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(min(max(0, timeout) * 1000, 1_000_000)) + 1)
        if ready < 0, errno != EINTR { throw lost() }
    }

    private func takeNotification() throws -> PostgreSQLNotification? {
        guard PQconsumeInput(connection) == 1 else { throw lost() }
        guard let note = PQnotifies(connection) else { return nil }
        defer { PQfreemem(note) }
        return PostgreSQLNotification(channel: String(cString: note.pointee.relname),
                                      payload: String(cString: note.pointee.extra),
                                      senderPID: note.pointee.be_pid)
    }

    // MARK: COPY

    /// Runs `sql` (a `COPY … FROM STDIN`), sends `chunks` as its data and returns the number of rows
    /// the server copied. A failure ends the copy and is thrown (the statement's transaction, if
    /// any, is then failed).
    @discardableResult
    func copyIn(_ sql: String, _ chunks: some Sequence<[UInt8]>) throws -> Int {
        roundTrips += 1
        guard let start = PQexec(connection, sql) else { throw lost() }
        guard PQresultStatus(start) == PGRES_COPY_IN else { _ = try rows(of: start); throw failure("not a COPY FROM STDIN") }
        PQclear(start)
        var sendError: String?
        for chunk in chunks where !chunk.isEmpty {
            let sent = chunk.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(connection, $0.baseAddress, Int32($0.count)) }
            }
            if sent != 1 { sendError = "cannot send COPY data"; break }
        }
        guard PQputCopyEnd(connection, sendError) == 1 else { throw lost() }
        var copied = 0
        var firstError: Error?
        while let result = PQgetResult(connection) {
            do {
                let rows = try rows(of: result)
                copied = rows.affected
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
        return copied
    }

    // MARK: Helpers

    /// The rows of `result`, or its failure thrown (the result is freed either way).
    private func rows(of result: OpaquePointer?) throws -> PostgreSQLRows {
        guard let result else { throw isOpen ? failure("no result") : lost() }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PostgreSQLRows(result)
        default:
            defer { PQclear(result) }
            if !isOpen { throw lost() }
            let code = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "XX000"
            let message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? Self.oneLine(String(cString: PQresultErrorMessage(result)))
            throw PostgreSQLError(.statement(sqlState: code, message: url.scrub(message)))
        }
    }

    private func lost() -> PostgreSQLError {
        PostgreSQLError(.connectionLost(server: url.redacted, detail: url.scrub(Self.oneLine(String(cString: PQerrorMessage(connection))))))
    }

    private func failure(_ what: String) -> PostgreSQLError {
        if !isOpen { return lost() }
        let detail = Self.oneLine(String(cString: PQerrorMessage(connection)))
        return PostgreSQLError(.unexpected(detail.isEmpty ? what : "\(what): \(url.scrub(detail))"))
    }

    /// libpq's message (lines ending in `\n`, continuation lines indented) as one line.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline)
            .map { $0.trimmingPrefix(while: \.isWhitespace) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    /// `name` as a quoted SQL identifier (`"a""b"` for `a"b`).
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }

    /// Calls `body` with libpq's parameter arrays for `parameters` (valid only during the call):
    /// every value written once into one buffer, and the types, lengths and formats beside it.
    private static func withParameters<R>(
        _ parameters: [PostgreSQLValue?],
        _ body: (UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        let count = parameters.count
        var types: [Oid] = [], lengths: [Int32] = [], formats: [Int32] = [], offsets: [Int] = []
        types.reserveCapacity(count)
        lengths.reserveCapacity(count)
        formats.reserveCapacity(count)
        offsets.reserveCapacity(count)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(parameters.reduce(1) { $0 + ($1?.wireCapacity ?? 0) })
        for parameter in parameters {
            guard let parameter else {
                types.append(0); lengths.append(0); formats.append(0); offsets.append(-1)
                continue
            }
            let (type, format) = parameter.typeAndFormat
            types.append(type)
            formats.append(format)
            offsets.append(buffer.count)
            lengths.append(parameter.append(to: &buffer))
        }
        buffer.append(0)  // never empty, so it has an address (a lone empty `bytea` points at it)
        return buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { storage in
                let base = storage.baseAddress!
                let values: [UnsafePointer<CChar>?] = offsets.map { $0 < 0 ? nil : base + $0 }
                return values.withUnsafeBufferPointer { v in
                    types.withUnsafeBufferPointer { t in
                        lengths.withUnsafeBufferPointer { l in
                            formats.withUnsafeBufferPointer { f in
                                body(t.baseAddress, v.baseAddress, l.baseAddress, f.baseAddress)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { body($0) }
        }
    }
}

/// Monotonic seconds, for timeouts.
private enum Clock {
    static var now: Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
