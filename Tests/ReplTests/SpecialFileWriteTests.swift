import Foundation
import Testing
import Layout
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 36 item 1: every path StackDoc writes (`export`, `log export`, `export svg`, `output`,
/// `once`) follows one rule (`WriteTarget`, docs/hardening.md): a FIFO or a character device is
/// written into (a FIFO nobody reads is refused at once), a symbolic link is followed and its
/// target written in the target's directory, and nothing but a regular file or a new name is
/// ever replaced by the rename.
@Suite(.serialized, .longRunning) struct SpecialFileWriteTests {
    /// The commands that write a file, `PATH` standing for the file.
    static let writers = ["export PATH", "log export PATH", "export svg PATH"]

    /// A session in `dir` with a small document open.
    static func session(_ dir: String) throws -> Session {
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        for line in ["new d viewport 300 200", "add a b fixed 40"] { _ = try session.line(line) }
        return session
    }

    /// What `writer` writes to a regular file (the bytes to expect wherever it writes).
    static func regularBytes(_ writer: String, _ session: Session, _ dir: String) throws -> [UInt8] {
        _ = try session.line(writer.replacingOccurrences(of: "PATH", with: "plain.out"))
        return try FileIO.readBytes(dir + "/plain.out")
    }

    /// glibc's `makedev` (a macro Swift does not import).
    static func device(_ major: UInt64, _ minor: UInt64) -> dev_t {
        dev_t((minor & 0xFF) | ((major & 0xFFF) << 8) | ((minor & ~0xFF) << 12) | ((major & ~0xFFF) << 32))
    }

    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    /// Reads a FIFO to its end on another thread: its open waits for the writer (and counts as
    /// a reader while it waits, so the writer's open finds one).
    final class FIFOReader: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private let done = DispatchSemaphore(value: 0)

        init(_ path: String) {
            Thread { [self] in
                let fd = open(path, O_RDONLY)
                var chunk = [UInt8](repeating: 0, count: 65536)
                while fd >= 0 {
                    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if n <= 0 { break }
                    lock.withLock { bytes += chunk[..<n] }
                }
                if fd >= 0 { close(fd) }
                done.signal()
            }.start()
        }

        /// Everything read, once the writer closed its end (nil after 20 s).
        func result() -> [UInt8]? {
            guard done.wait(timeout: .now() + 20) == .success else { return nil }
            return lock.withLock { bytes }
        }
    }

    /// A FIFO a process reads gets exactly what a regular file would, and stays a FIFO.
    @Test(arguments: writers) func aFIFOIsWrittenIntoAndStaysAFIFO(writer: String) throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let session = try Self.session(dir)
        let expected = try Self.regularBytes(writer, session, dir)
        #expect(mkfifo(dir + "/pipe", 0o600) == 0)
        let reader = FIFOReader(dir + "/pipe")
        // The command's open finds the reader once its thread is in `open` (tried for 5 s).
        var written = false
        for _ in 0..<50 where !written {
            written = (try? session.line(writer.replacingOccurrences(of: "PATH", with: "pipe"))) != nil
            if !written { usleep(100_000) }
        }
        #expect(written, "the write into the FIFO failed")
        #expect(reader.result() == expected)
        #expect(Self.kind(dir + "/pipe") == S_IFIFO)
        #expect(!FileManager.default.fileExists(atPath: dir + "/pipe.stackdoc-tmp"))
    }

    /// A FIFO that no process reads is refused at once (never waited on) and stays a FIFO.
    @Test(arguments: writers) func aFIFONobodyReadsIsRefusedAtOnce(writer: String) throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let session = try Self.session(dir)
        #expect(mkfifo(dir + "/pipe", 0o600) == 0)
        #expect(throws: CommandError(.cannotWrite(path: "pipe", problem: "it is a FIFO that no process is reading"))) {
            try session.line(writer.replacingOccurrences(of: "PATH", with: "pipe"))
        }
        #expect(Self.kind(dir + "/pipe") == S_IFIFO)
    }

    /// A link is followed: its target (in another directory) holds the output, the link stays
    /// a link, and the temporary file was made beside the target. A dangling link creates its
    /// target.
    @Test(arguments: writers) func aLinkIsFollowedToItsTarget(writer: String) throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let session = try Self.session(dir)
        let expected = try Self.regularBytes(writer, session, dir)
        try FileManager.default.createDirectory(atPath: dir + "/elsewhere", withIntermediateDirectories: true)
        try "old".write(toFile: dir + "/elsewhere/target", atomically: true, encoding: .utf8)
        #expect(symlink("elsewhere/target", dir + "/link") == 0)
        #expect(symlink("link", dir + "/link2") == 0)  // a chain of two
        #expect(symlink("elsewhere/new", dir + "/dangling") == 0)
        for name in ["link", "link2", "dangling"] {
            _ = try session.line(writer.replacingOccurrences(of: "PATH", with: name))
            #expect(Self.kind(dir + "/" + name) == S_IFLNK, "\(name) is no longer a link")
        }
        #expect(try FileIO.readBytes(dir + "/elsewhere/target") == expected)
        #expect(try FileIO.readBytes(dir + "/elsewhere/new") == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["dangling", "elsewhere", "link", "link2", "plain.out"])
    }

    /// A directory, a socket and a link loop are refused, and nothing is written.
    @Test func whatIsNeitherAFileADeviceNorAFIFOIsRefused() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let session = try Self.session(dir)
        try FileManager.default.createDirectory(atPath: dir + "/folder", withIntermediateDirectories: true)
        #expect(symlink("loop2", dir + "/loop1") == 0 && symlink("loop1", dir + "/loop2") == 0)
        for (name, problem) in [("folder", "it is a directory"), ("loop1", "it is a chain of more than 40 symbolic links (a loop?)")] {
            for writer in Self.writers {
                #expect(throws: CommandError(.cannotWrite(path: name, problem: problem))) {
                    try session.line(writer.replacingOccurrences(of: "PATH", with: name))
                }
            }
        }
        #expect(Self.kind(dir + "/folder") == S_IFDIR && Self.kind(dir + "/loop1") == S_IFLNK)
    }

    /// As root, character devices made in the scratch directory (never the real /dev files):
    /// one like /dev/null takes the write and stays a device; one like /dev/full refuses it
    /// with the device's error, and stays a device.
    @Test(.enabled(if: getuid() == 0, "mknod needs root")) func aCharacterDeviceIsWrittenIntoAndStaysADevice() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let session = try Self.session(dir)
        guard mknod(dir + "/null", S_IFCHR | 0o600, Self.device(1, 3)) == 0, mknod(dir + "/full", S_IFCHR | 0o600, Self.device(1, 7)) == 0 else {
            Issue.record("mknod failed: \(String(cString: strerror(errno)))")
            return
        }
        let probe = open(dir + "/null", O_WRONLY)
        guard probe >= 0 else { return }  // a file system mounted nodev: its devices cannot be opened
        close(probe)
        for writer in Self.writers {
            _ = try session.line(writer.replacingOccurrences(of: "PATH", with: "null"))
            #expect(throws: CommandError(.cannotWrite(path: "full", problem: String(cString: strerror(ENOSPC))))) {
                try session.line(writer.replacingOccurrences(of: "PATH", with: "full"))
            }
        }
        #expect(Self.kind(dir + "/null") == S_IFCHR && Self.kind(dir + "/full") == S_IFCHR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["full", "null"])
    }

    /// `output` and `once` follow the same rule: a FIFO nobody reads is refused at once (it
    /// used to wait forever in `fopen`), a link's target is written and the link stays.
    @Test func outputAndOnceFollowTheSameRule() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let session = try Self.session(dir)
        nonisolated(unsafe) var out: [String] = [], err: [String] = []
        var runner = BatchRunner(session: session, json: false, bail: false, showFile: false,
                                 sink: Sink(out: { out.append($0) }, err: { err.append($0) }))
        #expect(mkfifo(dir + "/pipe", 0o600) == 0)
        try "old".write(toFile: dir + "/target", atomically: true, encoding: .utf8)
        #expect(symlink("target", dir + "/link") == 0)
        _ = runner.run(lines: ["output pipe", "once pipe", "once link", "status", "output link", "rows", "output"], file: nil)
        #expect(err == ["1: cannot write 'pipe': it is a FIFO that no process is reading",
                        "2: cannot write 'pipe': it is a FIFO that no process is reading"])
        #expect(Self.kind(dir + "/pipe") == S_IFIFO && Self.kind(dir + "/link") == S_IFLNK)
        let written = try FileIO.read(dir + "/target")
        #expect(written.hasPrefix("id "), "\(written)")  // the rows table, after `output link`
        #expect(out == ["status: result written to 'link'"])
    }
}
