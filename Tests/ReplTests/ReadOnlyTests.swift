import Foundation
import Testing
import StackDocTestSupport

/// `stackdoc --readonly` (issue 13 item 25): an existing database opened for queries and
/// `export` only; every change is refused with one clear error and the file keeps its bytes,
/// also when the file and its directory are read-only.
@Suite(.serialized, .enabled(if: Binary.hasStackdoc, "needs the built stackdoc executable"), .offThePool)
struct ReadOnlyTests {
    static let refused = "is read-only: it was opened for reading only: queries and export work, changes are refused"

    /// Runs `stackdoc ARGS` in `dir`; as `nobody` (setpriv) when `asOtherUser`.
    func stackdoc(_ args: [String], in dir: String, asOtherUser: Bool = false) async throws -> Binary.Result {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        if asOtherUser {
            return try await Binary.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + args, directory: dir)
        }
        return try await Binary.run(binary, args, directory: dir)
    }

    /// A database `x.sqlite` in a fresh directory, with document `d` (rows a, b) and one undo step.
    func makeDatabase() async throws -> String {
        let dir = try Binary.scratchDirectory()
        let made = try await stackdoc(["--db", "x.sqlite", "-c", "new d viewport 100 50", "-c", "add a b fixed 40 insets 0 0 0 0"], in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        return dir
    }

    @Test func queriesAndExportWorkEditsAreRefusedAndTheFileIsUnchanged() async throws {
        let dir = try await makeDatabase()
        defer { Scratch.remove(dir) }
        let before = FileManager.default.contents(atPath: dir + "/x.sqlite")
        // `new e` last: a failed `new` closes the open document (issue 32).
        let run = try await stackdoc(["--readonly", "--db", "x.sqlite", "-c", "open d", "-c", "add c", "-c", "scroll 10", "-c", "undo",
                                "-c", "layout", "-c", "history", "-c", "export out.json", "-c", "docs", "-c", "new e"], in: dir)
        #expect(run.status == 1)
        let message = "database 'x.sqlite' \(Self.refused)"
        #expect(run.stderr == [2, 3, 4, 9].map { "error: \($0): \(message)\n" }.joined(), "\(run.stderr)")
        #expect(run.stdout.contains("0  a   view  0,0 100x40   entire 100%"), "\(run.stdout)")
        #expect(run.stdout.contains("offset 0"), "the refused scroll moved nothing: \(run.stdout)")
        #expect(run.stdout.contains("   1  applied  "), "\(run.stdout)")
        #expect(run.stdout.contains("d        2      1       0"), "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: dir + "/out.json"))
        #expect(FileManager.default.contents(atPath: dir + "/x.sqlite") == before)
        // Opened again for writing: the refused edits left nothing behind.
        let after = try await stackdoc(["--db", "x.sqlite", "-c", "open d", "-c", "rows", "-c", "docs"], in: dir)
        #expect(!after.stdout.contains("c   -"), "\(after.stdout)")
        #expect(after.stdout.hasSuffix("d        2      1       0\n"), "\(after.stdout)")
    }

    @Test func aMissingDatabaseIsNotCreatedAndMemoryIsRefused() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        let missing = try await stackdoc(["--readonly", "--db", "none.sqlite", "-c", "docs"], in: dir)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: cannot open database 'none.sqlite': no such file (a read-only database is never created)\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/none.sqlite"))
        let memory = try await stackdoc(["--readonly", "--db", ":memory:", "-c", "docs"], in: dir)
        #expect(memory.stderr == "error: cannot open database ':memory:': an in-memory database cannot be opened read-only\n")
    }

    /// root may write anything: as root, the binary runs as `nobody` (setpriv).
    @Test(.enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "as root this needs /usr/bin/setpriv"))
    func aReadOnlyFileInAReadOnlyDirectory() async throws {
        let dir = try await makeDatabase()
        defer {
            chmod(dir, 0o755)
            Scratch.remove(dir)
        }
        let db = dir + "/x.sqlite"
        #expect(chmod(db, 0o444) == 0 && chmod(dir, 0o555) == 0)
        let before = FileManager.default.contents(atPath: db)
        let out = try Binary.scratchDirectory()
        defer { Scratch.remove(out) }
        #expect(chmod(out, 0o777) == 0)
        let asOther = getuid() == 0
        let plain = try await stackdoc(["--db", db, "-c", "docs"], in: "/", asOtherUser: asOther)
        #expect(plain.status == 1 && plain.stderr.contains("the file is read-only"), "\(plain.stderr)")
        let run = try await stackdoc(["--readonly", "--db", db, "-c", "open d", "-c", "layout", "-c", "add c", "-c", "export \(out)/d.json"],
                               in: "/", asOtherUser: asOther)
        #expect(run.status == 1)
        #expect(run.stderr == "error: 3: database '\(db)' \(Self.refused)\n", "\(run.stderr)")
        #expect(run.stdout.contains("1  b   view  0,40 100x40  partial 25%"), "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: out + "/d.json"))
        #expect(FileManager.default.contents(atPath: db) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == ["x.sqlite"], "no -wal or -shm made: \(left)")
    }
}
