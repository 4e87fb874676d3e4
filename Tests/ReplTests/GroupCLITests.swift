import Foundation
import Layout
import Testing
import StackDocTestSupport
import Store

/// Groups belong to the session (SPEC §3) through the binary: `--as alice` and `--as bob` in
/// separate processes on one database file, groups interleaved with the other's edits, and the
/// `log export` of that history rebuilding it.
@Suite(.serialized, .longRunning) struct GroupCLITests {
    func stackdoc(_ args: [String], _ stdin: String, in dir: String) async throws -> Binary.Result {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        return try await Binary.run(binary, args, stdin: stdin, directory: dir)
    }

    func alice(_ stdin: String, in dir: String) async throws -> Binary.Result { try await stackdoc(["--as", "alice", "--doc", "d"], stdin, in: dir) }
    func bob(_ stdin: String, in dir: String) async throws -> Binary.Result { try await stackdoc(["--as", "bob", "--doc", "d"], stdin, in: dir) }

    @Test func interleavedGroupsAcrossTwoProcessesAndTheirLogExport() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try await alice("add a fixed 10\nbegin g\nadd x fixed 100\n", in: dir).status == 0)
        #expect(try await bob("set x fixed 200\nadd b fixed 20\n", in: dir).status == 0)
        // bob changed the row alice's group added: her rollback is refused; she commits.
        let refused = try await alice("rollback\n", in: dir)
        #expect(refused.status != 0 && refused.stderr.contains("log entry 5 by 'bob' changed row 'x'"), "\(refused.stderr)")
        let walk = try await alice("commit\nundo --all 1\n", in: dir)
        #expect(walk.stderr.contains("cannot undo 1 step: step 3 by 'bob' has an operation logged after one of theirs"), "\(walk.stderr)")
        #expect(try await alice("undo --all 4\nredo --all 4\nbegin h\nset a fixed 11\n", in: dir).status == 0)
        #expect(try await bob("set b fixed 21\n", in: dir).status == 0)
        // bob wrote during alice's group h, on other rows: her rollback is compensation.
        let rolled = try await alice("rollback\nverify\n", in: dir)
        #expect(rolled.status == 0 && rolled.stdout.hasSuffix("ok: the log replays to the stored document\n"), "\(rolled.stdout)\(rolled.stderr)")
        let original = try await alice("history\nexport\nlog export x.sd\n", in: dir)
        #expect(original.status == 0, "\(original.stderr)")
        let script = try String(contentsOfFile: dir + "/x.sd", encoding: .utf8)
        #expect(script.contains("begin h\nset a fixed 11\nas bob\nset b fixed 21\nas alice\nrollback\n"), "\(script)")
        let rebuilt = try await stackdoc(["--db", ":memory:"], script + "history\nexport\n", in: dir)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let shown = original.stdout.components(separatedBy: "\nwrote ")[0]
        #expect(rebuilt.stdout.hasSuffix(shown + "\n"), "\(rebuilt.stdout)\n---\n\(shown)")
        let x = try DocumentStore(path: dir + "/stackdoc.sqlite").open("d").document.config(of: "x")
        #expect(x?.size == .fixed(200))
    }
}
