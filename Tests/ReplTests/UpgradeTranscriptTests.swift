import Foundation
import Testing
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Databases written by earlier binaries (`Tests/StoreTests/Fixtures`, made as its README says)
/// are upgraded by opening them, and then the REPL says what the old binary said about them:
/// `upgrade-capture.sd` (docs, then open, history, export and verify of every document) run on
/// the upgraded copy prints, byte for byte, the transcript the old binary printed
/// (`upgrade-capture.out`; both old binaries printed the same), except for the two columns that
/// `history` gained later (issue 15: `entries` and `origin`), which are taken out before comparing.
@Suite(.offThePool) struct UpgradeTranscriptTests {
    /// `history`'s table as the old binaries printed it: without the `entries` and `origin` columns.
    static func withoutHistoryIIColumns(_ line: String) -> String {
        if line == "step  state    entries  origin  label" { return "step  state    label" }
        guard let m = line.wholeMatch(of: #/(\s*\d+)  (applied|undone)\s+\S+\s+\S+\s+(.*)/#) else { return line }
        return "\(m.1)  \(String(m.2).padding(toLength: 7, withPad: " ", startingAt: 0))  \(m.3)"
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("StoreTests/Fixtures").path

    @Test(arguments: ["schema-0001", "schema-0002"])
    func upgradedDatabaseReadsAsTheOldBinaryShowedIt(_ name: String) throws {
        let script = try String(contentsOfFile: Self.fixtures + "/upgrade-capture.sd", encoding: .utf8)
        let expected = try String(contentsOfFile: Self.fixtures + "/upgrade-capture.out", encoding: .utf8)
        let scratch = try Scratch.directory("upgrade")
        defer { Scratch.remove(scratch) }
        let path = scratch + "/old.sqlite"
        try FileManager.default.copyItem(atPath: Self.fixtures + "/\(name).db", toPath: path)
        let session = Session(store: try DocumentStore(path: path), directory: scratch)
        var lines: [String] = []
        var runner = BatchRunner(session: session, json: false, bail: false, showFile: false,
                                 sink: Sink(out: { lines.append($0) }, err: { lines.append("error: " + $0) }))
        _ = runner.run(text: script, file: nil)
        let actual = lines.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .map { Self.withoutHistoryIIColumns(String($0)) }.joined(separator: "\n") + "\n"
        #expect(actual == expected, "\(LineDiff.unified(expected: expected, actual: actual, name: "upgrade-capture.out (" + name + ")"))")
        #expect(try session.store.schemaVersion() == Schema.currentVersion)
    }
}
