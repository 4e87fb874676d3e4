import Foundation
@testable import StackDocScript
import Testing
import StackDocTestSupport

/// `FileSwap`: a large new file takes the place of a regular file by a swap of names, anything
/// else by `rename`; either way the path then holds exactly the new bytes, the temporary name is
/// gone, another name of the old file keeps the old bytes, a symbolic link is replaced (its
/// target untouched), and a directory in the way is refused and left as it was.
@Suite(.offThePool) struct FileSwapTests {
    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appending(path: "stackdoc-swap-\(UUID().uuidString)-\(name)").path
    }

    func makeFile(_ path: String, bytes: Int, fill: UInt8) {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: fill, count: bytes)), "could not create \(path)")
    }

    func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    let large = ReplacedFile.minimumBytes

    @Test func aLargeNewFileTakesThePlaceOfLargeAndSmallFiles() {
        for oldBytes in [large + 3, 10] {
            let path = temporaryPath("export.json"), temporary = path + ".tmp"
            defer { unlink(path); unlink(temporary) }
            makeFile(path, bytes: oldBytes, fill: 0x61)
            makeFile(temporary, bytes: large + 1, fill: 0x62)
            let replaced = ReplacedFile(path)
            #expect(FileSwap.install(temporary, at: path) == 0)
            replaced.release()
            #expect(contents(path) == Data(repeating: 0x62, count: large + 1), "old file of \(oldBytes) bytes")
            #expect(access(temporary, F_OK) != 0, "the temporary name is gone")
        }
    }

    @Test func smallNewFilesAndMissingTargetsAreRenamed() {
        let path = temporaryPath("small.json"), temporary = path + ".tmp"
        defer { unlink(path); unlink(temporary) }
        makeFile(temporary, bytes: 5, fill: 0x63)
        #expect(FileSwap.install(temporary, at: path) == 0)
        #expect(contents(path) == Data(repeating: 0x63, count: 5))
        makeFile(temporary, bytes: large, fill: 0x64)
        makeFile(path, bytes: 7, fill: 0x65)
        #expect(FileSwap.install(temporary, at: path) == 0)
        #expect(contents(path) == Data(repeating: 0x64, count: large))
        makeFile(temporary, bytes: 3, fill: 0x66)
        #expect(FileSwap.install(temporary, at: path) == 0)
        #expect(contents(path) == Data(repeating: 0x66, count: 3))
        #expect(access(temporary, F_OK) != 0)
    }

    @Test func theOldFilesOtherNameKeepsItsBytes() {
        let path = temporaryPath("linked.json"), other = temporaryPath("other.json"), temporary = path + ".tmp"
        defer { unlink(path); unlink(other); unlink(temporary) }
        makeFile(path, bytes: large, fill: 0x61)
        #expect(link(path, other) == 0)
        makeFile(temporary, bytes: large + 9, fill: 0x62)
        #expect(FileSwap.install(temporary, at: path) == 0)
        #expect(contents(path) == Data(repeating: 0x62, count: large + 9))
        #expect(contents(other) == Data(repeating: 0x61, count: large))
        #expect(access(temporary, F_OK) != 0)
    }

    @Test func aSymbolicLinkIsReplacedAndItsTargetKept() {
        let path = temporaryPath("link.json"), target = temporaryPath("target.json"), temporary = path + ".tmp"
        defer { unlink(path); unlink(target); unlink(temporary) }
        makeFile(target, bytes: 4, fill: 0x61)
        #expect(symlink(target, path) == 0)
        makeFile(temporary, bytes: large, fill: 0x62)
        #expect(FileSwap.install(temporary, at: path) == 0)
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(contents(path) == Data(repeating: 0x62, count: large))
        #expect(contents(target) == Data(repeating: 0x61, count: 4))
    }

    @Test func aDirectoryInTheWayIsRefusedAndLeftAlone() throws {
        let path = temporaryPath("dir"), temporary = path + ".tmp"
        defer { try? FileManager.default.removeItem(atPath: path); unlink(temporary) }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        makeFile(path + "/inside", bytes: 2, fill: 0x61)
        makeFile(temporary, bytes: large, fill: 0x62)
        #expect(FileSwap.install(temporary, at: path) != 0)
        #expect(contents(path + "/inside") == Data(repeating: 0x61, count: 2))
        #expect(contents(temporary) == Data(repeating: 0x62, count: large))
    }

    /// Through `FileIO.write`: a large export over a large one, twice, leaves exactly the last
    /// bytes and no temporary file.
    @Test func fileIOWritesALargeFileOverALargeOne() throws {
        let path = temporaryPath("export.json")
        defer { unlink(path); unlink(path + ".stackdoc-tmp") }
        for fill: UInt8 in [0x61, 0x62, 0x63] {
            try FileIO.write(bytes: [UInt8](repeating: fill, count: large + Int(fill)), to: path)
            #expect(contents(path) == Data(repeating: fill, count: large + Int(fill)))
            #expect(access(path + ".stackdoc-tmp", F_OK) != 0)
        }
    }
}

/// `ChunkFileWriter`'s space reserved ahead (`fallocate`): a large file written in pieces holds
/// exactly its bytes, and no more than its size in blocks once finished (what was reserved past
/// the end is given back); a small one reserves nothing.
@Suite(.offThePool) struct ReservedSpaceTests {
    @Test func aLargeFileWrittenInPiecesHoldsItsBytesAndNoReservedBlocks() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "stackdoc-reserve-\(UUID().uuidString).json").path
        defer { unlink(path) }
        var expected = Data()
        try FileIO.write(to: path) { sink in
            // 40 pieces of 1 MB + 1 byte each: past `preallocateFrom`, into a second step.
            for k in 0..<40 {
                let piece = [UInt8](repeating: UInt8(0x41 + k % 26), count: (1 << 20) + 1)
                expected.append(contentsOf: piece)
                try sink(piece)
            }
        }
        #expect(FileManager.default.contents(atPath: path) == expected)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(Int(info.st_size) == expected.count)
        #expect(Int(info.st_blocks) * 512 < expected.count + ChunkFileWriter.preallocationStep / 2,
                "\(info.st_blocks) blocks of 512 bytes for \(expected.count) bytes")
    }
}
