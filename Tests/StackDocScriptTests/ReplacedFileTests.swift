import Foundation
@testable import StackDocScript
import Testing
import StackDocTestSupport

/// `ReplacedFile`: only a large regular file with one name is held (so freed on another thread
/// once replaced); a small file, a symbolic link, a hard-linked file, a FIFO (never opened, so
/// nothing blocks) or a missing one is left alone; and `FileIO.write` over a large file leaves
/// the new bytes, with the old file's other name untouched.
@Suite(.offThePool) struct ReplacedFileTests {
    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appending(path: "stackdoc-replaced-\(UUID().uuidString)-\(name)").path
    }

    func makeFile(_ path: String, bytes: Int, fill: UInt8 = 0x61) {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: fill, count: bytes)), "could not create \(path)")
    }

    @Test func onlyALargeRegularFileWithOneNameIsHeld() throws {
        let large = temporaryPath("large"), small = temporaryPath("small"), link = temporaryPath("link")
        let linked = temporaryPath("linked"), other = temporaryPath("other-name"), fifo = temporaryPath("fifo")
        defer { for p in [large, small, link, linked, other, fifo] { unlink(p) } }
        makeFile(large, bytes: ReplacedFile.minimumBytes)
        makeFile(small, bytes: ReplacedFile.minimumBytes - 1)
        makeFile(linked, bytes: ReplacedFile.minimumBytes)
        #expect(symlink(large, link) == 0)
        #expect(hardLink(linked, other) == 0)
        #expect(mkfifo(fifo, 0o600) == 0)
        let held = ReplacedFile(large)
        #expect(held.isHeld)
        held.release()
        for path in [small, link, linked, fifo, temporaryPath("missing")] {
            let replaced = ReplacedFile(path)
            #expect(!replaced.isHeld, "\(path)")
            replaced.release()
        }
    }

    @Test func writingOverALargeFileLeavesTheNewBytesAndItsOtherNames() throws {
        let path = temporaryPath("export.json"), other = temporaryPath("kept.json")
        defer { unlink(path); unlink(other) }
        makeFile(path, bytes: ReplacedFile.minimumBytes + 5)
        try FileIO.write(bytes: Array("new".utf8), to: path)
        #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
        // A second write replaces the small file as any other.
        try FileIO.write(bytes: Array("newer".utf8), to: path)
        #expect(FileManager.default.contents(atPath: path) == Data("newer".utf8))
        // A file with a second name: the other name keeps the old bytes.
        makeFile(path, bytes: ReplacedFile.minimumBytes, fill: 0x62)
        #expect(hardLink(path, other) == 0)
        try FileIO.write(bytes: Array("third".utf8), to: path)
        #expect(FileManager.default.contents(atPath: path) == Data("third".utf8))
        #expect(FileManager.default.contents(atPath: other) == Data(repeating: 0x62, count: ReplacedFile.minimumBytes))
    }
}

/// `link(2)` (a hard link).
private func hardLink(_ from: String, _ to: String) -> Int32 { link(from, to) }
