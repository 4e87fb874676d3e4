import Foundation
import Testing
import StackDocTestSupport
import Store

/// Issue 15, who did what: `--as NAME` through the binary, two processes on one database.
@Suite(.serialized, .offThePool) struct OriginCLITests {
    func stackdoc(_ args: [String], stdin: String, in dir: String) async throws -> Binary.Result {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        return try await Binary.run(binary, args, stdin: stdin, directory: dir)
    }

    @Test func undoMineNeverTakesBackAnotherOriginsLaterWork() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ann = try await stackdoc(["--as", "ann", "--doc", "d"], stdin: "add a fixed 10\nadd b fixed 10\n", in: dir)
        #expect(ann.status == 0, "\(ann.stderr)")
        let bob = try await stackdoc(["--as", "bob", "--doc", "d"], stdin: "add c fixed 10\nhistory\n", in: dir)
        #expect(bob.status == 0, "\(bob.stderr)")
        #expect(bob.stdout.split(separator: "\n").contains { $0.hasPrefix("   3  applied  4") && $0.contains(" bob ") }, "\(bob.stdout)")
        // ann's last step lies under bob's: refused, naming the step, nothing changes.
        let blocked = try await stackdoc(["--as", "ann", "--doc", "d"], stdin: "undo --mine\nrows\n", in: dir)
        #expect(blocked.status == 1)
        #expect(blocked.stderr == "error: 1: cannot undo your last step (ann): step 3 by 'bob' came after it and would be undone too\n")
        #expect(blocked.stdout.contains("c "))
        // bob's own step can go; then ann's.
        let mine = try await stackdoc(["--as", "bob", "--doc", "d"], stdin: "undo --mine\n", in: dir)
        #expect(mine.status == 0 && mine.stdout.hasPrefix("undone step 3: add c fixed 10"), "\(mine.stdout)\(mine.stderr)")
        let annAgain = try await stackdoc(["--as", "ann", "--doc", "d"], stdin: "undo --mine 2\nverify\n", in: dir)
        #expect(annAgain.status == 0, "\(annAgain.stderr)")
        #expect(annAgain.stdout.contains("undone step 2: add b fixed 10") && annAgain.stdout.contains("undone step 1: add a fixed 10"))
        // Without --as the origin is the user name, the same in every process (no process id).
        let plain = try await stackdoc(["--doc", "d"], stdin: "add z fixed 1\nhistory\n", in: dir)
        let line = plain.stdout.split(separator: "\n").first { $0.hasSuffix("add z fixed 1") && $0.hasPrefix("   1") }
        let origin = line?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first ?? ""
        #expect(origin == Substring(StoredDocument.defaultOrigin) && !origin.contains(":"), "\(plain.stdout)")
    }

    /// The same session run twice, in two processes without `--as`, exports the same log byte
    /// for byte (the default origin holds no process id).
    @Test func theSameSessionExportsTheSameLogTwice() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var logs: [String] = []
        for run in ["one", "two"] {
            let script = "new d\nadd a b fixed 10\nmark v1\nset a grow 1\nundo\nlog export \(run).sd\n"
            _ = try await stackdoc(["--db", ":memory:"], stdin: script, in: dir)
            logs.append(try String(contentsOfFile: dir + "/\(run).sd", encoding: .utf8))
        }
        #expect(logs[0] == logs[1])
        #expect(logs[0].contains("as \(StoredDocument.defaultOrigin)\n"), "\(logs[0])")
    }

    @Test func aBadOriginIsRefusedBeforeAnythingRuns() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bad = try await stackdoc(["--as", "a b\u{1B}", "--doc", "d"], stdin: "add a\n", in: dir)
        #expect(bad.status == 1)
        #expect(bad.stderr == "error: invalid origin for --as: use 1 to 64 characters of A-Z a-z 0-9 _ . - : @\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/stackdoc.sqlite"))
    }
}
