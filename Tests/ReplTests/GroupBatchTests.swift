import Foundation
import Testing
import Layout
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 15 item 8: consecutive `add`s inside an open group run as one store transaction
/// (`BatchRunner.groupsAdds`). The output, the errors and their line numbers, the log, the
/// history, the version and the document are exactly those of running each line alone.
@Suite(.longRunning) struct GroupBatchTests {
    struct Outcome: Equatable {
        var out: [String] = []
        var err: [String] = []
        var log: [String] = []
        var status: String = ""
        var export: String = ""
        /// What `verify` (with replanning) finds wrong with the document; checked to be nothing.
        var problems: [String] = []
    }

    /// No document is open after the script.
    struct NoDocument: Error {}

    /// Runs `script` on a fresh in-memory store, on the calling thread (the test awaits it on a
    /// thread of its own: the 4200-line script is long).
    static func run(_ script: String, batched: Bool, json: Bool) throws -> Outcome {
        let session = Session(store: try DocumentStore(path: ":memory:"))
        nonisolated(unsafe) var outcome = Outcome()
        var runner = BatchRunner(session: session, json: json, bail: false, showFile: false,
                                 sink: Sink(out: { outcome.out.append($0) }, err: { outcome.err.append($0) }))
        runner.groupsAdds = batched
        _ = runner.run(text: script, file: nil)
        guard let doc = session.current else { throw NoDocument() }
        outcome.problems = try doc.verify(replan: true)
        outcome.log = try LogScript.lines(doc)
        outcome.status = "\(try doc.status())"
        outcome.export = doc.document.exportJSON()
        return outcome
    }

    static let scripts = [
        // Adds in a group with failures in the middle (a duplicate id, a bad spec, a missing
        // parent), a comment, a blank line and a non-add command breaking the run.
        """
        new d viewport 300 200
        add s stack horizontal
        begin rows
        add a fixed 10
        add b c fixed 20 type cell
        add a fixed 30
        # a comment
        add x1 x2 in s

        add d wobble 3
        add e fixed 5 in nowhere
        add f fixed 6 at 0
        set a grow 1
        add g fixed 7 after f
        add h fixed 8
        commit
        add after fixed 9
        begin
        add a
        add i fixed 1
        commit
        undo
        redo
        """,
        // A run longer than one batch, started and ended by failing lines.
        "new big\nbegin import big\nadd r0 r0\n"
            + (1...4200).map { "add r\($0) fixed \($0 % 50 + 10)" }.joined(separator: "\n")
            + "\nadd r7\ncommit\nscroll 300\nstatus\n",
    ]

    @Test(arguments: [false, true])
    func batchedAddsGiveWhatEachLineGivesAlone(json: Bool) async throws {
        for script in Self.scripts {
            let alone = try await TestThread.run { try Self.run(script, batched: false, json: json) }
            let batched = try await TestThread.run { try Self.run(script, batched: true, json: json) }
            #expect(alone.problems == [])
            #expect(batched.problems == [])
            #expect(batched.err == alone.err)
            #expect(batched.out == alone.out)
            #expect(batched.log == alone.log)
            #expect(batched.status == alone.status)
            #expect(batched.export == alone.export)
            #expect(!alone.err.isEmpty)
        }
    }
}
