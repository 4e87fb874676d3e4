import Foundation
import Testing
import StackDocTestSupport

/// docs/shared-store.md, "Two people, one document", shows a two-person session as it really
/// printed: `scripts/two-person-session` (two interactive REPLs in tmux, `--as alice` and
/// `--as bob`, on one PostgreSQL database). This runs the script again, against
/// `STACKDOC_TEST_POSTGRES`'s server and the `stackdoc` built with the tests, and compares what
/// it prints with the page's block line for line. `STACKDOC_UPDATE_GOLDEN=1` rewrites the block
/// (and fails, as every recording run does): review the page's diff.
@Suite(.longRunning) struct TwoPersonSessionPostgreSQLTests {
    static let page = Binary.packageRoot.appendingPathComponent("docs/shared-store.md").path
    static let script = Binary.packageRoot.appendingPathComponent("scripts/two-person-session").path

    /// The first line of the page's block: alice's window, as the script prints it.
    static let firstLine = "── alice: stackdoc --db \"$URL\" --as alice"

    /// Whether `tmux` is on the PATH.
    static var hasTmux: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/tmux") }
    }

    /// Why the session cannot run here, or nil.
    static var skipReason: String? {
        if !TestPostgres.available { return TestPostgres.skipReason }
        if !hasTmux { return "tmux is not installed (scripts/install-deps installs it): the two-person session is not re-run" }
        return nil
    }

    /// The page's block starting with `firstLine` (without its fences), and the range of its
    /// lines in `lines`.
    static func block(in lines: [String]) -> (text: String, range: Range<Int>)? {
        guard let first = lines.firstIndex(of: firstLine), first > 0, lines[first - 1].hasPrefix("```"),
              let close = lines[first...].firstIndex(where: { $0.hasPrefix("```") }) else { return nil }
        return (lines[first..<close].map { $0 + "\n" }.joined(), first..<close)
    }

    @Test(.enabled(if: skipReason == nil, Comment(rawValue: skipReason ?? "")))
    func theDocumentedSessionPrintsAsShown() async throws {
        let exe = try #require(Binary.stackdoc, "the stackdoc binary is built with the tests")
        let server = try #require(TestPostgres.url)
        let run = try await Binary.run(Self.script, ["--db", server, "--bin", exe], timeout: 120)
        #expect(run.status == 0, "two-person-session failed:\n\(run.stderr)")
        guard run.status == 0 else { return }
        let pageText = try String(contentsOfFile: Self.page, encoding: .utf8)
        var lines = pageText.components(separatedBy: "\n")
        let block = try #require(Self.block(in: lines), "docs/shared-store.md has no block starting '\(Self.firstLine)'")
        if Golden.recording {
            lines.replaceSubrange(block.range, with: run.stdout.components(separatedBy: "\n").dropLast())
            try lines.joined(separator: "\n").write(toFile: Self.page, atomically: true, encoding: .utf8)
            Issue.record("recorded the two-person session into docs/shared-store.md (\(block.text == run.stdout ? "unchanged" : "changed")); recording never passes: review it and run again without STACKDOC_UPDATE_GOLDEN")
            return
        }
        #expect(run.stdout == block.text, """
            docs/shared-store.md's two-person session differs from what scripts/two-person-session printed \
            (STACKDOC_UPDATE_GOLDEN=1 rewrites it):
            \(LineDiff.unified(expected: block.text, actual: run.stdout, name: "shared-store.md"))
            """)
    }

    /// The block is found by its first line, and only in a fence.
    @Test func theBlockIsFoundBetweenItsFences() {
        let lines = ["text", "```", Self.firstLine, "stackdoc> new home", "```", "after"]
        let found = Self.block(in: lines)
        #expect(found?.text == Self.firstLine + "\nstackdoc> new home\n")
        #expect(found?.range == 2..<4)
        #expect(Self.block(in: ["text", Self.firstLine, "```"]) == nil)
        #expect(Self.block(in: ["```", Self.firstLine, "no closing fence"]) == nil)
    }
}
