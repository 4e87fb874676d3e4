import Foundation

/// A PostgreSQL cluster of one test's own (`initdb --no-sync` in a temporary directory, a Unix
/// socket in that directory, no TCP), for the tests that must restart or stop a server, or need
/// password authentication — what the shared server of `scripts/with-postgres` must not do under
/// the other tests running beside them. Made only when `STACKDOC_TEST_POSTGRES` is set (the
/// server binaries are then installed); `stop()` removes it, and so does `deinit`.
public final class TestPostgresCluster: @unchecked Sendable {
    /// The password of user `stackdoc` (scram-sha-256 authentication).
    public static let password = "pw-Zq81-secret"

    let bin: String
    let root: String
    /// The Unix socket's port number (the socket file's name: nothing listens on TCP).
    let port = 5432

    /// The URI of database `stackdoc` as user `stackdoc` with `password` (nil: none in the URI).
    public func url(password: String? = TestPostgresCluster.password, database: String = "stackdoc") -> String {
        let user = password.map { "stackdoc:\($0)" } ?? "stackdoc"
        return "postgresql://\(user)@/\(database)?host=\(root)&port=\(port)"
    }

    /// Makes the cluster (scram-sha-256 for every connection), starts it and creates database
    /// `stackdoc`.
    /// - Throws: `TestPostgresCluster.Failure` with the tool's output when a step fails.
    public init() throws {
        guard let bin = try FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")
            .map({ "/usr/lib/postgresql/\($0)/bin" }).sorted().last(where: { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") })
        else { throw Failure(message: "no PostgreSQL server binaries under /usr/lib/postgresql") }
        self.bin = bin
        root = FileManager.default.temporaryDirectory.appendingPathComponent("stackdoc-own-pg-\(getpid())-\(UInt32.random(in: 0 ... .max))").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.createFile(atPath: "\(root)/pw", contents: Data(Self.password.utf8))
        if getuid() == 0 { try shell("chown -R postgres: '\(root)'") }
        try server("initdb --no-sync -D '\(root)/data' -U stackdoc --auth=scram-sha-256 --pwfile='\(root)/pw' --encoding=UTF8 --locale=C.UTF-8")
        try start()
        try server("createdb -h '\(root)' -p \(port) -U stackdoc stackdoc", environment: "PGPASSWORD='\(Self.password)' ")
    }

    deinit { stop() }

    /// Starts the server (waiting until it accepts connections).
    /// - Throws: `TestPostgresCluster.Failure` with `pg_ctl`'s output when it does not start.
    public func start() throws {
        try server("pg_ctl -D '\(root)/data' -l '\(root)/server.log' -w -t 30 -o \"-c listen_addresses='' -c port=\(port) -c unix_socket_directories='\(root)' -c fsync=off\" start")
    }

    /// Stops the server at once (`-m immediate`: sessions are cut, as in a crash).
    /// - Throws: `TestPostgresCluster.Failure` when `pg_ctl` fails.
    public func halt() throws {
        try server("pg_ctl -D '\(root)/data' -m immediate -w stop")
    }

    /// Restarts the server (`-m fast`: sessions are terminated, as in an administrator's restart).
    /// - Throws: `TestPostgresCluster.Failure` when `pg_ctl` fails.
    public func restart() throws {
        try server("pg_ctl -D '\(root)/data' -l '\(root)/server.log' -m fast -w -t 30 -o \"-c listen_addresses='' -c port=\(port) -c unix_socket_directories='\(root)' -c fsync=off\" restart")
    }

    /// Stops the server (if it runs) and removes the cluster.
    public func stop() {
        _ = try? server("pg_ctl -D '\(root)/data' -m immediate stop")
        try? FileManager.default.removeItem(atPath: root)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Runs server tool `command` (as user postgres when this is root: the server refuses root).
    private func server(_ command: String, environment: String = "") throws {
        let prefix = getuid() == 0 ? "runuser -u postgres -- env \(environment)" : "env \(environment)"
        try shell("\(prefix) \(bin)/\(command)")
    }

    /// Runs `command` through /bin/sh with its output appended to tools.log, and waits for it
    /// (posix_spawn and waitpid: Foundation's `Process` waited forever here once `pg_ctl start`
    /// had left the server running in the background).
    private func shell(_ command: String) throws {
        let args = ["/bin/sh", "-c", command + " </dev/null >>'\(root)/tools.log' 2>&1"]
        var cArgs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &cArgs, environ) == 0 else {
            throw Failure(message: "cannot start /bin/sh for `\(command)`")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if status != 0 {
            let log = (try? String(contentsOfFile: "\(root)/tools.log", encoding: .utf8)) ?? ""
            throw Failure(message: "`\(command)` failed (\(status)): \(log.suffix(2000))")
        }
    }
}
