import Foundation
import Layout
import OrderStatistics
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Every kind of file and path through the `stackdoc` binary (issue 10 items 1–4): devices,
/// FIFOs, directories, symbolic links, the empty path, and `export` over the open database.
/// Each ends within seconds (a process still running after 10 s is killed and the test fails).
@Suite(.serialized, .offThePool) struct FileKindCLITests {
    let dir: String

    init() throws { dir = try Binary.scratchDirectory() }

    func stackdoc(_ arguments: [String], stdin: String = "") async throws -> Binary.Result {
        let binary = try #require(Binary.stackdoc, "stackdoc is not built")
        let result = try await Binary.run(binary, arguments, stdin: stdin, directory: dir, timeout: 10)
        #expect(result.status != 9, "killed after 10 s: \(arguments)")
        return result
    }

    /// Fails with status 1 and exactly the one line `error: message`.
    func expectRefused(_ arguments: [String], stdin: String = "docs\n", _ message: String,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let run = try await stackdoc(arguments, stdin: stdin)
        #expect(run.status == 1, sourceLocation: sourceLocation)
        #expect(run.stderr == "error: \(message)\n", sourceLocation: sourceLocation)
    }

    @Test func checkAndLayoutOfADeviceEndAtOnce() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for command in ["check", "layout"] {
            let run = try await stackdoc([command, "/dev/zero"])
            #expect(run.status == 1)
            #expect(run.stderr == "error: cannot read '/dev/zero': it is not a regular file or a pipe (a character device)\n")
            #expect(run.seconds < 5, "\(run.seconds) s")
        }
        try await expectRefused(["check", "/dev/null"], stdin: "", "cannot read '/dev/null': it is not a regular file or a pipe (a character device)")
        try await expectRefused(["check", dir], stdin: "", "cannot read '\(dir)': it is a directory")
    }

    @Test func importOfADeviceEndsAtOnce() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try await stackdoc(["--db", ":memory:"], stdin: "import /dev/zero\nimport /dev/urandom\n")
        #expect(run.status == 1)
        #expect(run.stderr == """
            error: 1: cannot read '/dev/zero': it is not a regular file or a pipe (a character device)
            error: 2: cannot read '/dev/urandom': it is not a regular file or a pipe (a character device)

            """)
        #expect(run.seconds < 5, "\(run.seconds) s")
    }

    /// A FIFO no process writes reads as empty (it is not waited on); one with a writer is read.
    @Test func importAndCheckOfAFIFO() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/doc.fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        let empty = try await stackdoc(["check", fifo])
        #expect(empty.status == 1 && empty.stderr == "\(fifo): line 1, column 1: empty input: expected a JSON value\n", "\(empty.stderr)")
        let made = try await stackdoc(["--db", ":memory:"], stdin: "new d\nadd a b\nexport d.json\n")
        #expect(made.status == 0, "\(made.stderr)")
        let document = try #require(FileManager.default.contents(atPath: dir + "/d.json"))
        // A writer that is there before the reader, and closes half a second after.
        let writer = open(fifo, O_RDWR | O_NONBLOCK)
        #expect(writer >= 0)
        #expect(document.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == document.count)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { close(writer) }
        let run = try await stackdoc(["check", fifo])
        #expect(run.status == 0 && run.stdout == "\(fifo): ok (stackdoc/1 document 'd', 2 rows)\n", "\(run.stdout) \(run.stderr)")
    }

    @Test func fifoAsDatabaseIsRefusedWithoutWaiting() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/db.fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        try await expectRefused(["--db", fifo], "cannot open database '\(fifo)': it is not a regular file (a FIFO)")
    }

    @Test func devNullAndTheEmptyPathAreRefused() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try await expectRefused(["--db", "/dev/null"], "cannot open database '/dev/null': it is not a regular file (a character device)")
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
        try await expectRefused(["--db", ""], "the database path is empty: name a file (or ':memory:' for a database that is not saved)")
    }

    @Test func symlinkToADatabaseOpensIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let made = try await stackdoc(["--db", "real.sqlite"], stdin: "new d\n" + (0..<200).map { "add r\($0) type \(String(repeating: "t", count: 60))\n" }.joined())
        #expect(made.status == 0, "\(made.stderr)")
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.sqlite", withDestinationPath: "real.sqlite")
        let run = try await stackdoc(["--db", "link.sqlite"], stdin: "open d\nadd extra\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("opened d: 200 rows"), "\(run.stdout)")
        let again = try await stackdoc(["--db", "real.sqlite"], stdin: "docs\n")
        #expect(again.stdout.contains("201"), "\(again.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/link.sqlite-wal"))
    }

    @Test func danglingSymlinkIsRefused() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/dangling.sqlite", withDestinationPath: "gone.sqlite")
        try await expectRefused(["--db", "dangling.sqlite"], "cannot open database 'dangling.sqlite': it is a symbolic link to 'gone.sqlite', which does not exist")
        #expect(!FileManager.default.fileExists(atPath: dir + "/gone.sqlite"))
    }

    /// `export`, `log export` and `export svg` never replace the open database or its files,
    /// whatever the spelling of the path; the session's operations all stay stored.
    @Test func exportOverTheOpenDatabaseIsRefused() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/alias", withDestinationPath: "self.sqlite")
        let targets = ["export self.sqlite", "export ./self.sqlite", "export sub/../self.sqlite", "export \(dir)/self.sqlite",
                       "export alias", "log export self.sqlite-wal", "export svg self.sqlite-shm", "export self.sqlite-journal"]
        let run = try await stackdoc(["--db", "self.sqlite"], stdin: "new d\nadd a\n" + targets.joined(separator: "\n") + "\nadd b\nexport saved.json\n")
        #expect(run.status == 1)
        let errors = run.stderr.split(separator: "\n")
        #expect(errors.count == targets.count, "\(run.stderr)")
        for (i, target) in targets.enumerated() where i < errors.count {
            let name = target.split(separator: " ").last!
            #expect(errors[i] == "error: \(i + 3): cannot write '\(name)': it is the open database 'self.sqlite' or one of its files")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/alias") == "self.sqlite")
        #expect(!FileManager.default.fileExists(atPath: dir + "/self.sqlite-journal"))
        let again = try await stackdoc(["--db", "self.sqlite"], stdin: "open d\nrows\nverify\n")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("ok: the log replays"), "\(again.stdout)")
        #expect(again.stdout.hasPrefix("opened d: 2 rows"), "\(again.stdout)")
    }
}

/// `FileIO.readBytes` on each kind of file, with a small limit.
@Suite(.offThePool) struct FileIOReadTests {
    /// A pipe with `count` bytes written and its writing end closed, as a path (`/dev/fd/N`).
    func pipe(with count: Int, _ body: (String) throws -> Void) throws {
        var ends: [Int32] = [0, 0]
        #expect(Glibc.pipe(&ends) == 0)
        defer { close(ends[0]) }
        let bytes = [UInt8](repeating: 0x20, count: count)
        #expect(write(ends[1], bytes, count) == count)
        close(ends[1])
        try body("/dev/fd/\(ends[0])")
    }

    @Test func aPipeIsReadUpToTheLimit() throws {
        try pipe(with: 1000) { path in
            let count = try FileIO.readBytes(path, limit: 1000).count
            #expect(count == 1000)
        }
        try pipe(with: 1001) { path in
            #expect(thrownMessage {
                _ = try FileIO.readBytes(path, limit: 1000)
            } == "cannot read '\(path)': it goes on past the limit of 1000 bytes (read from a pipe)")
        }
    }

    @Test func aRegularFileOverTheLimitIsRefusedBeforeReading() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/f"
        try Data(count: 1001).write(to: URL(fileURLWithPath: file))
        #expect(thrownMessage {
            _ = try FileIO.readBytes(file, limit: 1000)
        } == "cannot read '\(file)': the file is 1001 bytes, more than the limit of 1000 bytes")
        #expect(try FileIO.readBytes(file, limit: 1001).count == 1001)
    }

    /// A regular file is read into one array of its size: every byte, in order, for sizes
    /// around the 1 MB chunk of the pipe path, and an empty file.
    @Test func aRegularFileIsReadWhole() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var rng = SplitMix64(seed: 0xF11E)
        for size in [0, 1, 4_095, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3_000_017] {
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let file = dir + "/f\(size)"
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let read = try FileIO.readBytes(file)
            #expect(read.count == size && read == bytes, "size \(size)")
        }
    }

    @Test func devicesAndSocketsAreRefusedUnread() throws {
        for device in ["/dev/zero", "/dev/urandom", "/dev/null"] {
            #expect(thrownMessage {
                _ = try FileIO.readBytes(device)
            } == "cannot read '\(device)': it is not a regular file or a pipe (a character device)")
        }
    }
}
