import Foundation
import Testing
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 36 item 5: a script or standard input that ends inside `import begin` fails (a CI
/// replay of a cut log must not pass): a non-zero exit, and an error naming the open block and
/// the line where it began; nothing of the block is stored.
@Suite(.offThePool) struct OpenImportBlockTests {
    static let message = "the input ended inside the import block of d begun on this line ('import begin' without 'import commit'): nothing of it was imported"

    @Test(.enabled(if: Binary.hasStackdoc), arguments: [false, true]) func standardInputEndingInsideABlockFails(json: Bool) async throws {
        let binary = try #require(Binary.stackdoc)
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try await Binary.run(binary, ["--db", "x.sqlite"] + (json ? ["--json"] : []), stdin: "import begin d\nadd a\n", directory: dir, timeout: 60)
        #expect(result.status == 1)
        #expect(result.stderr == "error: 1: \(Self.message)\n")
        if json { #expect(result.stdout.split(separator: "\n").last?.hasPrefix(#"{"ok":false,"error":"the input ended inside"#) == true, "\(result.stdout)") }
        #expect(try DocumentStore(path: dir + "/x.sqlite").documentNames() == [])
    }

    @Test(.enabled(if: Binary.hasStackdoc)) func aScriptEndingInsideABlockFailsAndTheNextSourceRuns() async throws {
        let binary = try #require(Binary.stackdoc)
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "# cut log\nimport begin d\nadd a\n".write(toFile: dir + "/cut.sd", atomically: true, encoding: .utf8)
        try "new e\n".write(toFile: dir + "/next.sd", atomically: true, encoding: .utf8)
        let result = try await Binary.run(binary, ["--db", "x.sqlite", "cut.sd", "next.sd"], directory: dir, timeout: 60)
        #expect(result.status == 1)
        #expect(result.stderr == "error: cut.sd:2: \(Self.message)\n")
        #expect(try DocumentStore(path: dir + "/x.sqlite").documentNames() == ["e"])
    }

    /// A `read` file that ends inside a block it began fails the same way; a whole block (or
    /// one a file continues from the file that read it) is not affected.
    @Test func aReadFileEndingInsideItsBlockFails() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "import begin d\nadd a\n".write(toFile: dir + "/cut.sd", atomically: true, encoding: .utf8)
        try "add b\n".write(toFile: dir + "/more.sd", atomically: true, encoding: .utf8)
        let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir)
        nonisolated(unsafe) var err: [String] = []
        var runner = BatchRunner(session: session, json: false, bail: false, showFile: false,
                                 sink: Sink(out: { _ in }, err: { err.append($0) }))
        _ = runner.run(lines: ["read cut.sd", "import begin e", "read more.sd", "import commit"], file: nil)
        #expect(err == ["cut.sd:1: \(Self.message)"])
        #expect(try session.store.documentNames() == ["e"])
        #expect(session.current?.document.rowCount == 1)
    }
}
