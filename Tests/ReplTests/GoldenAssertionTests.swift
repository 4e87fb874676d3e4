import Foundation
import Testing
import StackDocTestSupport

/// The shared golden assertion (`Golden.check`): equal text passes, different text fails with a
/// diff, and a recording run writes the file and still fails.
@Suite(.offThePool) struct GoldenAssertionTests {
    @Test func equalTextPassesAndDifferentTextFailsWithADiff() throws {
        let dir = try Scratch.directory("golden-check")
        defer { Scratch.remove(dir) }
        let path = dir + "/g.out"
        try "a\nb\n".write(toFile: path, atomically: true, encoding: .utf8)
        try Golden.check("a\nb\n", path: path, recording: false)
        let error = #expect(throws: Golden.Mismatch.self) { try Golden.check("a\nc\n", path: path, recording: false) }
        #expect(error?.description.contains("-b") == true && error?.description.contains("+c") == true, "\(String(describing: error))")
        #expect(throws: Golden.Mismatch.self) { try Golden.check("x", path: dir + "/missing.out", recording: false) }
    }

    @Test func recordingWritesTheFileAndFails() throws {
        let dir = try Scratch.directory("golden-record")
        defer { Scratch.remove(dir) }
        let path = dir + "/g.out"
        let changed = #expect(throws: Golden.Recorded.self) { try Golden.check("new\n", path: path, recording: true) }
        #expect(changed?.changed == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        // Even when the text did not change, a recording run fails.
        let unchanged = #expect(throws: Golden.Recorded.self) { try Golden.check("new\n", path: path, recording: true) }
        #expect(unchanged?.changed == false)
    }

    @Test func scratchDirectoriesAreFreshAndEmpty() throws {
        let a = try Scratch.directory("t"), b = try Scratch.directory("t")
        defer { Scratch.remove(a); Scratch.remove(b) }
        #expect(a != b)
        #expect(try FileManager.default.contentsOfDirectory(atPath: a).isEmpty)
    }
}
