import Foundation
import Layout
import Store
import Testing
@testable import StackDocScript
import StackDocTestSupport

/// Issue 35 items 3 and 8: queries beside a writer in another process answer, every time, from
/// one state the writer committed — never "changed by another process …: run the command
/// again", which only an edit planned on a stale state may get.
@Suite(.longRunning) struct ConcurrentReadersTests {
    /// A query whose reads straddle another process's commit (here `log export` of an imported
    /// document: the log, then the import's rows; the other connection commits in between)
    /// answers from the state it started from, without an error.
    @Test func aQueryAnswersFromTheStateItStartedFrom() throws {
        let db = SharedDatabase()
        defer { db.remove() }
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var saved = Document(name: "d")
        try EveryRowField.appendRows(to: &saved)
        try (DocumentFormat.encode(saved) + "\n").write(toFile: dir + "/d.json", atomically: true, encoding: .utf8)
        let writer = Session(store: try DocumentStore(path: db.path), directory: dir)
        try writer.line("import d.json")
        let reader = try db.session()
        try reader.line("open d")
        func logExport() throws -> String {
            try reader.line("log export \(dir)/log.sd")
            return try String(contentsOfFile: dir + "/log.sd", encoding: .utf8)
        }
        let before = try logExport()
        // The first time the query asks whether to stop, the other connection commits an edit.
        let writes = WriteOnce { try writer.line("add late fixed 5") }
        reader.store.cancellation = Cancellation { writes.run() }
        let answer = try logExport()
        #expect(writes.ran && writes.failure == nil, "\(writes.failure ?? "")")
        #expect(answer == before, "the answer comes from the state before the other commit")
        // The next query catches up.
        reader.store.cancellation = .never
        #expect(try logExport().contains("add late fixed 5"))
    }

    /// Readers — `stackdoc --json` processes, one of them `--readonly` — run queries (`export`,
    /// `rows`, `history`, `status`, `layout`, `verify`) while this process writes the document
    /// in a loop. No query is refused, and every answer is exactly what the writer saw at the
    /// log count the answer belongs to.
    @Test(.enabled(if: Binary.hasStackdoc, "the stackdoc binary is built with the tests"))
    func readersBesideAWriterAnswerEveryQueryFromAWrittenState() throws {
        let exe = try #require(Binary.stackdoc)
        let db = SharedDatabase()
        defer { db.remove() }
        let writer = try db.session()
        try writer.line("new d viewport 320 200")
        try writer.line("add r0 fixed 10")
        var states = WrittenStates()
        try states.record(writer)

        let queries = ["export", "rows", "history", "status", "layout", "verify"]
        let script = (["open d"] + (0..<40).flatMap { _ in queries }).joined(separator: "\n") + "\n"
        let readers: [[String]] = [["--json"], ["--json"], ["--json", "--readonly"]]
        let results = ReaderResults(count: readers.count)
        let group = DispatchGroup()
        for (index, flags) in readers.enumerated() {
            DispatchQueue.global().async(group: group) {
                results.set(index, Result { try Binary.runBlocking(exe, ["--db", db.path, "--no-init"] + flags, stdin: script, timeout: 300) })
            }
        }
        // Write until every reader is done (a bound keeps a stuck reader from looping forever).
        var k = 1
        while group.wait(timeout: .now()) == .timedOut, k < 5_000 {
            try writer.line(k % 4 == 0 ? "add r\(k) fixed \(k)" : "set r0 fixed \(k)")
            try states.record(writer)
            k += 1
        }
        group.wait()

        var answers = 0, checked = 0
        var refused: [String] = []
        for index in readers.indices {
            let run = try results.get(index)
            #expect(run.status == 0, "reader \(index): \(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 1 + 40 * queries.count, "reader \(index): \(lines.count) replies")
            for line in lines.dropFirst() {
                answers += 1
                guard line.hasPrefix(#"{"ok":true"#) else { refused.append(line); continue }
                if let known = states.isKnown(line) {
                    #expect(known, "reader \(index): an answer no written state gives: \(line.prefix(300))")
                    checked += 1
                }
            }
        }
        #expect(refused.isEmpty, "\(refused.count) of \(answers) queries refused: \(refused.prefix(3))")
        #expect(answers == readers.count * 40 * queries.count)
        #expect(checked >= answers / 2, "\(checked) answers compared")
        #expect(k > 10, "the writer wrote while the readers read (\(k) writes)")
    }
}

/// What the writer saw after each of its commits: the JSON replies of `export`, `rows` and
/// `history` (as `stackdoc --json` prints them) and the row count at each log count.
private struct WrittenStates {
    var replies: [String: Set<String>] = [:]
    var rowsAt: [Int: Int] = [:]

    mutating func record(_ session: Session) throws {
        for command in ["export", "rows", "history"] {
            let result = try #require(try session.line(command))
            replies[command, default: []].insert(Envelope.success(command: command, result: result))
        }
        let status = try #require(try session.current?.status())
        rowsAt[status.logEntries] = status.rowCount
    }

    /// Whether the reply `line` is one the writer saw; nil for a reply of a command whose
    /// answers are not recorded. `status` is checked by its log count and row count.
    func isKnown(_ line: String) -> Bool? {
        for (command, seen) in replies where line.hasPrefix(#"{"ok":true,"command":"\#(command)""#) {
            return seen.contains(line)
        }
        guard line.hasPrefix(#"{"ok":true,"command":"status""#),
              let entries = Self.number(after: #""log":"#, in: line), let rows = Self.number(after: #""rows":"#, in: line) else { return nil }
        return rowsAt[entries] == rows
    }

    private static func number(after key: String, in line: String) -> Int? {
        guard let range = line.range(of: key) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}

/// The readers' results, handed over between threads under a lock.
private final class ReaderResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Binary.Result, any Error>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<Binary.Result, any Error>) { lock.withLock { results[index] = result } }

    func get(_ index: Int) throws -> Binary.Result {
        guard let result = lock.withLock({ results[index] }) else { throw StackDocError("reader \(index) did not finish") }
        return try result.get()
    }
}

/// A write run once, from a `Cancellation` (called on the reading thread, inside the query).
private final class WriteOnce: @unchecked Sendable {
    private let body: () throws -> Void
    private(set) var ran = false
    private(set) var failure: String?

    init(_ body: @escaping () throws -> Void) { self.body = body }

    /// Runs the write the first time; never asks to stop.
    func run() -> Bool {
        if !ran {
            ran = true
            do { try body() } catch { failure = "\(error)" }
        }
        return false
    }
}
