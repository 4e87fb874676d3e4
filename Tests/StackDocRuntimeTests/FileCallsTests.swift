import Foundation
import StackDocRuntime
import StackDocTestSupport
import Testing

/// `FileCalls` through the C target: a swap exchanges two names in one step, and a failed one
/// changes nothing and says why; reserved space does not change a file's size.
@Suite(.offThePool) struct FileCallsTests {
    #if os(Linux)
    @Test func namesAreSwappedOrLeftAlone() throws {
        let dir = try Scratch.directory("filecalls")
        defer { Scratch.remove(dir) }
        let a = dir + "/a", b = dir + "/b"
        #expect(FileManager.default.createFile(atPath: a, contents: Data("first".utf8)))
        #expect(FileManager.default.createFile(atPath: b, contents: Data("second".utf8)))
        #expect(FileCalls.swapNames(a, b))
        #expect(FileManager.default.contents(atPath: a) == Data("second".utf8))
        #expect(FileManager.default.contents(atPath: b) == Data("first".utf8))
        #expect(!FileCalls.swapNames(a, dir + "/missing"))
        #expect(errno == ENOENT)
        #expect(FileManager.default.contents(atPath: a) == Data("second".utf8))
    }

    @Test func spaceIsReservedKeepingTheSize() throws {
        let dir = try Scratch.directory("filecalls")
        defer { Scratch.remove(dir) }
        let path = dir + "/r"
        let fd = open(path, O_CREAT | O_RDWR, 0o600)
        #expect(fd >= 0)
        defer { close(fd) }
        // (A file system that cannot reserve says so; the size stays either way.)
        let reserved = FileCalls.reserve(fd, offset: 0, count: 1 << 20)
        var info = stat()
        #expect(fstat(fd, &info) == 0)
        #expect(info.st_size == 0)
        if reserved { #expect(Int(info.st_blocks) * 512 >= 1 << 20) }
    }
    #endif
}
