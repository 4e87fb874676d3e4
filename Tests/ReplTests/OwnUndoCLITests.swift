import Foundation
import Layout
import Testing
import StackDocTestSupport
import Store

/// Per-person undo (SPEC §3, "Undo is per person") through the binary: `--as alice` and
/// `--as bob` in separate processes on one database file.
@Suite(.serialized, .longRunning) struct OwnUndoCLITests {
    func stackdoc(_ args: [String], _ stdin: String, in dir: String) async throws -> Binary.Result {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        return try await Binary.run(binary, args, stdin: stdin, directory: dir)
    }

    func alice(_ stdin: String, in dir: String) async throws -> Binary.Result { try await stackdoc(["--as", "alice", "--doc", "d"], stdin, in: dir) }
    func bob(_ stdin: String, in dir: String) async throws -> Binary.Result { try await stackdoc(["--as", "bob", "--doc", "d"], stdin, in: dir) }

    func config(_ id: RowID, in dir: String) throws -> RowConfig? {
        try DocumentStore(path: dir + "/stackdoc.sqlite").open("d").document.config(of: id)
    }

    @Test func undoRevertsYourStepUnderAnotherOnesAndRedoPutsItBack() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try await alice("add a fixed 10\n", in: dir).status == 0)
        #expect(try await bob("add b fixed 20\n", in: dir).status == 0)
        // alice's step 1 lies under bob's step 2: a compensating step removes a, b stays.
        let undo = try await alice("undo\nhistory\nverify\n", in: dir)
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stdout.hasPrefix("undone step 1: add a fixed 10\nas step 3: undo of step 1 by alice (others wrote since)\n"), "\(undo.stdout)")
        let rows = undo.stdout.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("   1  reverted") && $0.hasSuffix("alice   add a fixed 10") }, "\(undo.stdout)")
        #expect(rows.contains { $0.hasPrefix("   3  applied") && $0.hasSuffix("alice   undo of step 1 by alice") }, "\(undo.stdout)")
        #expect(undo.stdout.hasSuffix("ok: the log replays to the stored document\n"), "\(undo.stdout)")
        #expect(try config("a", in: dir) == nil && config("b", in: dir) != nil)
        let redo = try await alice("redo\n", in: dir)
        #expect(redo.status == 0 && redo.stdout.hasPrefix("redone step 1: add a fixed 10\nas step 4: redo of step 1 by alice"), "\(redo.stdout)\(redo.stderr)")
        #expect(try config("a", in: dir) != nil)
        // bob changes the row alice added: her undo would take that back, so it is refused.
        #expect(try await bob("set a grow 2\n", in: dir).status == 0)
        let refused = try await alice("undo\n", in: dir)
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: 1: cannot undo your step 1 (alice): step 5 by 'bob' changed row 'a' field grow since ('undo --all' moves the document's history whoever made the steps)\n",
                "\(refused.stderr)")
        #expect(try config("a", in: dir)?.grow == 2)
        // undo --all is the document-wide cursor walk: it takes bob's step back.
        let all = try await alice("undo --all\nverify\n", in: dir)
        #expect(all.status == 0 && all.stdout.hasPrefix("undone step 5: set a grow 2"), "\(all.stdout)\(all.stderr)")
    }

    @Test func undoSetsBackOnlyTheFieldsYourStepChanged() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try await alice("add a fixed 10\nset a grow 1\n", in: dir).status == 0)
        #expect(try await bob("set a shrink 2\n", in: dir).status == 0)
        let undo = try await alice("undo\nverify\n", in: dir)
        #expect(undo.status == 0, "\(undo.stderr)")
        let a = try #require(try config("a", in: dir))
        #expect(a.grow == 0 && a.shrink == 2, "alice's grow is back, bob's shrink stays")
        // alice's compensating step lies after bob's: his undo compensates too, and keeps her grow.
        let bobUndo = try await bob("undo\nverify\n", in: dir)
        #expect(bobUndo.status == 0 && bobUndo.stdout.contains("undo of step 3 by bob"), "\(bobUndo.stdout)\(bobUndo.stderr)")
        #expect(try config("a", in: dir)?.shrink == 0 && config("a", in: dir)?.grow == 0)
    }

    /// `log export` of a two-person history rebuilds it: the same history and rows.
    @Test func logExportRebuildsATwoPersonHistory() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try await alice("add a fixed 10\nadd c fixed 5\n", in: dir)
        _ = try await bob("add b fixed 20\nundo\n", in: dir)         // bob's own last step: the cursor walk
        _ = try await bob("redo\n", in: dir)
        _ = try await alice("undo\nundo --all\nredo --all\nredo\n", in: dir)
        let original = try await alice("history\nexport\nlog export x.sd\n", in: dir)
        #expect(original.status == 0, "\(original.stderr)")
        let script = try String(contentsOfFile: dir + "/x.sd", encoding: .utf8)
        #expect(script.contains("undo --all 1\n") && script.contains("as alice\nundo 1\n"), "\(script)")
        let rebuilt = try await stackdoc(["--db", ":memory:"], script + "history\nexport\n", in: dir)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let shown = original.stdout.components(separatedBy: "\nwrote ")[0]
        #expect(rebuilt.stdout.hasSuffix(shown + "\n"), "\(rebuilt.stdout)\n---\n\(shown)")
    }
}
