import Foundation
import GRDB
import Layout
import Store
import Testing
import StackDocTestSupport

/// Corrupt and foreign database files through the `stackdoc` binary (issue 6 item 3): exit
/// status 1, exactly one `error:` line on standard error naming the file and the problem, and
/// the file's bytes unchanged. (The store-level tests are Tests/StoreTests/FileErrorTests.swift.)
@Suite(.serialized, .longRunning) struct CorruptFileCLITests {
    /// The built `stackdoc` next to the test bundle.
    static var binary: String? { Binary.stackdoc }

    /// Open to other users (mkdtemp makes it 0700): as root the binary runs as `nobody`.
    let dir: String = {
        let path = try! Scratch.directory("corrupt")
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }()

    /// Runs `stackdoc --db file` on `stdin`; returns status and standard error.
    /// `asOtherUser`: as root, run it as `nobody` (through setpriv), for whom permissions count.
    func stackdoc(_ file: String, stdin: String = "docs\n", asOtherUser: Bool = false) async throws -> (status: Int32, stderr: String) {
        let binary = try #require(Self.binary, "stackdoc is not built")
        let dir = dir
        return try await TestThread.run {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["--db", file]
            if asOtherUser {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
                process.arguments = ["--reuid", "65534", "--regid", "65534", "--clear-groups", binary, "--db", file]
            }
            process.currentDirectoryURL = URL(fileURLWithPath: dir)
            let input = Pipe(), output = Pipe(), error = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = error
            try process.run()
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
            _ = output.fileHandleForReading.readDataToEndOfFile()
            let err = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: err, as: UTF8.self))
        }
    }

    /// A real StackDoc database made by the binary.
    func makeDatabase(_ name: String) async throws -> String {
        let file = dir + "/" + name
        let made = try await stackdoc(file, stdin: "new d\n" + (0..<300).map { "add r\($0) type \(String(repeating: "t", count: 60))\n" }.joined())
        #expect(made.status == 0, "\(made.stderr)")
        return file
    }

    /// `stackdoc --db file` fails with one line `error: …` containing `parts`; the bytes stay.
    func expectRefused(_ file: String, _ parts: String..., asOtherUser: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = FileManager.default.contents(atPath: file)
        let run = try await stackdoc(file, stdin: "docs\nnew e\nadd a\n", asOtherUser: asOtherUser)
        #expect(run.status == 1, sourceLocation: sourceLocation)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty && run.stderr.hasPrefix("error: "), "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.contains("'\(file)'"), "\(run.stderr)", sourceLocation: sourceLocation)
        for part in parts { #expect(run.stderr.contains(part), "\(run.stderr)", sourceLocation: sourceLocation) }
        #expect(FileManager.default.contents(atPath: file) == before, "the file changed", sourceLocation: sourceLocation)
    }

    @Test func truncatedDatabase() async throws {
        let file = try await makeDatabase("trunc.sqlite")
        let data = try #require(FileManager.default.contents(atPath: file))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: file))
        try await expectRefused(file, "is corrupt", "truncated")
    }

    @Test func randomBytes() async throws {
        let file = dir + "/random.sqlite"
        var rng = SystemRandomNumberGenerator()
        let bytes = Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &rng) })
        #expect(FileManager.default.createFile(atPath: file, contents: bytes))
        try await expectRefused(file, "not a StackDoc database", "not an SQLite file")
    }

    @Test func textFile() async throws {
        let file = dir + "/junk.sqlite"
        try "this is not a database, just text that is long enough to look like a file".write(toFile: file, atomically: true, encoding: .utf8)
        try await expectRefused(file, "not a StackDoc database")
    }

    @Test func newerSchemaVersion() async throws {
        let file = try await makeDatabase("newer.sqlite")
        try await DatabaseQueue(path: file).write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('0099_future')") }
        try await expectRefused(file, "schema version 99", "newer")
    }

    @Test func foreignSQLiteDatabase() async throws {
        let file = dir + "/foreign.db"
        try await DatabaseQueue(path: file).write { db in
            try db.execute(sql: "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers VALUES (1, 'x')")
        }
        try await expectRefused(file, "not a StackDoc database")
    }

    /// As root the binary runs as `nobody` through setpriv, so without setpriv it is skipped.
    @Test(.enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "as root this needs /usr/bin/setpriv"))
    func readOnlyFile() async throws {
        let file = try await makeDatabase("ro.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file) }
        // root may write anything: as root, the binary runs as `nobody` (setpriv).
        let asRoot = getuid() == 0
        try await expectRefused(file, "read-only", asOtherUser: asRoot)
    }

    @Test func missingDirectory() async throws {
        let file = dir + "/nope/sub/x.sqlite"
        try await expectRefused(file, "does not exist")
        #expect(!FileManager.default.fileExists(atPath: dir + "/nope"))
    }

    /// A database edited by hand to hold values no command can write (1e308, infinity, a
    /// negative size, an id with a quote): opening the document is refused as corrupt, naming
    /// the file, the row and the value; nothing traps.
    @Test func databaseEditedToHoldHostileValues() async throws {
        let type = String(repeating: "t", count: 60)
        func fields(_ config: RowConfig) -> String { Schema.rowFieldsLiteral(config) }
        for (name, sql) in [("huge", "UPDATE row SET fields = \(fields(RowConfig(type: type, content: Size(width: 0, height: 1e308)))) WHERE id = 'r1'"),
                            ("inf", "UPDATE row SET size = 9e999 WHERE id = 'r2'"),
                            ("negative", "UPDATE row SET fields = \(fields(RowConfig(type: type, grow: -5))) WHERE id = 'r3'"),
                            ("badid", "UPDATE row SET id = 'a''b' WHERE id = 'r4'"),
                            ("offset", "UPDATE document SET offset = 9e999")] {
            let file = try await makeDatabase("edited-\(name).sqlite")
            try await DatabaseQueue(path: file).write { db in try db.execute(sql: sql) }
            let before = FileManager.default.contents(atPath: file)
            let run = try await stackdoc(file, stdin: "open d\nlayout\ndraw\nscroll to r5\n")
            #expect(run.status == 1, "\(name): \(run.stderr)")
            #expect(run.stderr.hasPrefix("error: 1: database '\(file)' is corrupt: "), "\(name): \(run.stderr)")
            #expect(FileManager.default.contents(atPath: file) == before, "\(name)")
        }
    }

    @Test func emptyDatabaseFileNameAndDirectory() async throws {
        try await expectRefused(dir, "is a directory")
    }
}
