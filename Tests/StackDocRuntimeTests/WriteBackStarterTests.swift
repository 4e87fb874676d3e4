import Foundation
import StackDocRuntime
import StackDocTestSupport
import Testing

/// The writeback thread of a large commit (`WriteBackStarter`) finds the descriptors this
/// process has of a database and its WAL, stops when asked, and changes no byte.
@Suite(.longRunning) struct WriteBackStarterTests {
    #if os(Linux)
    @Test func itFindsTheProcesssOwnDescriptorsOfTheFiles() throws {
        let dir = try Scratch.url("writeback")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "w.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])))
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data([4])))
        let files = [WriteBackStarter.resolved(path), WriteBackStarter.resolved(path) + "-wal"]
        #expect(WriteBackStarter.descriptors(of: files).isEmpty)
        let a = open(path, O_RDONLY), b = open(path + "-wal", O_RDONLY), other = open(dir.path, O_RDONLY)
        #expect(a >= 0 && b >= 0 && other >= 0)
        #expect(Set(WriteBackStarter.descriptors(of: files)) == [a, b])
        close(a)
        #expect(WriteBackStarter.descriptors(of: files) == [b])
        close(b)
        close(other)
        #expect(WriteBackStarter.descriptors(of: files).isEmpty)
    }
    #endif

    @Test func itStopsPromptlyAndChangesNothing() throws {
        let dir = try Scratch.url("writeback")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "w.sqlite").path
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let starter = WriteBackStarter(path: path, interval: 0.001)
        for chunk in stride(from: 0, to: bytes.count, by: 100_000) {
            try handle.write(contentsOf: bytes[chunk..<min(chunk + 100_000, bytes.count)])
        }
        let asked = Date()
        starter.stop()
        #expect(Date().timeIntervalSince(asked) < 1)
        try handle.close()
        #expect(FileManager.default.contents(atPath: path) == Data(bytes))
    }
}
