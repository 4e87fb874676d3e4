import Foundation
import Layout
import Testing
import StackDocTestSupport
@testable import Store
@testable import repl
@testable import StackDocScript

/// Live updates (issue 34 item 4): `watch [SECONDS]` prints the changes other sessions commit
/// to the open document, caught up from the log; the prompt announces them in one line.
@Suite(.longRunning) struct WatchTests {
    /// Two processes through the binary: alice watches with --json while bob edits; alice's
    /// watch prints exactly bob's changes, in log order, with origin and label — the one bob
    /// committed before the watch began too — and never alice's own edit.
    @Test func watchPrintsExactlyAnotherProcessesChanges() async throws {
        let exe = try #require(Binary.stackdoc, "the stackdoc binary is built with the tests")
        let db = SharedDatabase()
        defer { db.remove() }
        let setup = try await Binary.run(exe, ["--db", db.path, "--as", "alice"], stdin: "new d viewport 320 300\nadd a fixed 100\n")
        #expect(setup.status == 0, "\(setup.stderr)")
        let (watcher, bobs) = try await TestThread.run { () throws -> (PipedProcess.Outcome, [Binary.Result]) in
            let alice = try PipedProcess(exe, ["--db", db.path, "--as", "alice", "--json"])
            alice.send("open d\nadd mine fixed 10\n")
            _ = alice.read(until: #""command":"add mine fixed 10""#, timeout: 30)
            // Committed while alice is not watching: her watch catches it up from the log.
            let early = try Binary.runBlocking(exe, ["--db", db.path, "--as", "bob"], stdin: "open d\nadd b1 fixed 20\n")
            alice.send("watch 5\n")
            _ = alice.read(until: #""change""#, timeout: 30)
            let live = try Binary.runBlocking(exe, ["--db", db.path, "--as", "bob"],
                                              stdin: "open d\nbegin rename\nset b1 fixed 30\nremove a\ncommit\nviewport 320 250\n")
            alice.send("add z fixed 5\n")
            return (alice.finish(timeout: 30), [early, live])
        }
        for bob in bobs { #expect(bob.status == 0, "\(bob.stderr)") }
        let changes = watcher.stdout.split(separator: "\n").compactMap { line -> [String: Any]? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["change"] as? [String: Any]
        }
        let seen = changes.map { "\($0["origin"] ?? "?") \($0["entry"] ?? "?") \($0["command"] ?? "?") step=\($0["step"] ?? "?") label=\($0["label"] ?? "?")" }
        #expect(seen == ["bob 4 add b1 fixed 20 step=3 label=<null>",
                         "bob 5 begin rename step=<null> label=rename",
                         "bob 6 set b1 fixed 30 step=<null> label=<null>",
                         "bob 7 remove a step=<null> label=<null>",
                         "bob 8 commit step=4 label=rename",
                         "bob 9 viewport 320 250 step=<null> label=<null>"], "\(watcher.stdout)\n\(watcher.stderr)")
        #expect(changes.map { $0["rows"] as? Int } == [1, 0, 1, 1, 2, 0])
        #expect(changes.map { $0["settingsChanged"] as? Bool } == [false, false, false, false, false, true])
        let reply = watcher.stdout.split(separator: "\n").first { $0.contains(#""command":"watch 5""#) }
        #expect(reply?.contains(#""result":{"changes":6,"seconds":5,"interrupted":false}"#) == true, "\(watcher.stdout)")
        // The watcher caught up: its next edit is planned on bob's state and is not stale.
        #expect(watcher.stdout.contains(#""command":"add z fixed 5""#), "\(watcher.stdout)\n\(watcher.stderr)")
        #expect(watcher.status == 0 && watcher.stderr.isEmpty, "\(watcher.stderr)")
    }

    /// Ctrl-C (SIGINT) in batch mode ends the watch, not stackdoc: the script goes on.
    @Test func interruptEndsTheWatchAndTheScriptGoesOn() async throws {
        let exe = try #require(Binary.stackdoc, "the stackdoc binary is built with the tests")
        let db = SharedDatabase()
        defer { db.remove() }
        let outcome = try await TestThread.run { () throws -> PipedProcess.Outcome in
            let alice = try PipedProcess(exe, ["--db", db.path])
            alice.send("new d\nwatch\n")
            _ = alice.read(until: "created d", timeout: 30)
            Thread.sleep(forTimeInterval: 0.5)
            alice.interrupt()
            alice.send("echo after the watch\n")
            return alice.finish(timeout: 30)
        }
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasSuffix("watched until Ctrl-C: no changes\nafter the watch\n"), "\(outcome.stdout)\n\(outcome.stderr)")
    }

    /// A watch with nothing happening ends once its seconds are over, having seen nothing.
    @Test func quietWatchEndsAfterItsSeconds() throws {
        let db = SharedDatabase()
        defer { db.remove() }
        let alice = try db.session()
        try alice.line("new d")
        let start = Date()
        let result = try alice.line("watch 0.3")
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 0.3 && waited < 5, "\(waited) s")
        guard case .watched(let watch)? = result else { Issue.record("\(String(describing: result))"); return }
        #expect(watch.count == 0 && watch.changes.isEmpty && !watch.interrupted)
        #expect(result?.text == "watched 0.3 s: no changes")
    }

    /// `watch -1`, `watch x`, `watch 1 2`: a clear error, nothing runs; `watch` with no document open.
    @Test func badArgumentsAreClearErrors() throws {
        func message(_ line: String) -> String {
            do { _ = try Parser.parse(line); return "parsed" } catch { return ErrorReport.message(error) }
        }
        #expect(message("watch -1") == "expected a number of seconds ≥ 0 after 'watch', got '-1'")
        #expect(message("watch x") == "expected a number of seconds ≥ 0 after 'watch', got 'x'")
        #expect(message("watch 1e12") == "expected a number of seconds ≥ 0 after 'watch', got '1e12'")
        #expect(message("watch 1 2").hasPrefix("unexpected '2' after '1'"), "\(message("watch 1 2"))")
        let session = Session(store: try DocumentStore(path: ":memory:"))
        #expect(throws: (any Error).self) { try session.line("watch 0") }
        #expect(Printer.text(.watch(seconds: 2.5)) == "watch 2.5" && Printer.text(.watch(seconds: nil)) == "watch")
    }

    /// `watch 0` through the session API keeps the changes in its result; the text renderer
    /// prints each with its entry, origin, step, label, command, rows and layout report.
    @Test func watchTextNamesEntryOriginStepAndLabel() throws {
        let db = SharedDatabase()
        defer { db.remove() }
        let alice = try db.session(as: "alice")
        try alice.line("new d viewport 320 300")
        try alice.line("add a fixed 100")
        let bob = try db.session(as: "bob")
        try bob.lines("open d", "begin \"grow a\"", "set a fixed 150", "commit")
        let text = try alice.text("watch 0")
        #expect(text == """
            entry 3 by bob: begin "grow a"
            entry 4 by bob: set a fixed 150 (1 row changed)
              frames: a
                a: 0,0 320x124 -> 0,0 320x174
            entry 5 by bob: step 2 "grow a": commit (1 row changed)
            watched 0 s: 3 changes
            """, "\(text)")
        #expect(try alice.text("watch 0") == "watched 0 s: no changes", "each change is reported once")
    }

    /// The change signal costs an edit nothing: 200 edits (and a query) never read `PRAGMA
    /// data_version`; a watch does, and the prompt's check reads only the stored version.
    @Test func editsNeverPollTheChangeSignal() throws {
        let db = SharedDatabase()
        defer { db.remove() }
        let alice = try db.session(as: "alice")
        try alice.line("new d")
        for i in 0..<200 { try alice.line("add r\(i) fixed 10") }
        _ = try alice.text("layout")
        _ = alice.remoteChangesSinceLastCommand()
        let backend = try #require(alice.store.backend as? SQLiteBackend)
        #expect(backend.changeSignalReads == 0)
        try alice.line("watch 0.2")
        #expect(backend.changeSignalReads >= 2 && backend.changeSignalReads <= 10, "every 50 ms while waiting: \(backend.changeSignalReads)")
    }

    /// The session API of the prompt's announcement: another session's changes since the last
    /// command, once, in one line; this session's own never; the document is caught up entry by
    /// entry and equals a fresh open of the stored one (rows, settings, layout).
    @Test func announcementNamesOtherSessionsChangesOnce() throws {
        let db = SharedDatabase()
        defer { db.remove() }
        let alice = try db.session(as: "alice")
        try alice.line("new d viewport 320 300")
        try alice.line("add a b c fixed 100")
        _ = try alice.text("layout")
        let bob = try db.session(as: "bob")
        try bob.lines("open d", "begin rename", "set a fixed 30", "remove b", "commit", "undo", "redo", "viewport 320 150")
        let changes = alice.remoteChangesSinceLastCommand()
        #expect(changes.map(\.entry.origin) == Array(repeating: "bob", count: 7))
        #expect(changes.map { $0.layout != nil } == [false, true, true, false, true, true, true], "caught up entry by entry")
        #expect(RemoteChange.announcement(changes) == #"(bob changed 2 rows: step 2 "rename"; bob: undo 1; bob: redo 1; +1 more)"#)
        // A group is named once, by its commit; one still open, by its entries.
        #expect(RemoteChange.announcement(Array(changes[2...3])) == #"(bob changed 2 rows: step 2 "rename")"#)
        #expect(RemoteChange.announcement(Array(changes[0...2])) == "(bob: begin rename; bob: set a fixed 30; bob: remove b)")
        #expect(changes[4].rows == 2 && changes[5].rows == 2, "an undo and a redo touch the rows of the step they move")
        #expect(alice.remoteChangesSinceLastCommand().isEmpty, "announced once")
        let fresh = try DocumentStore(path: db.path).open("d")
        let doc = try alice.open()
        #expect(fresh.version == 9, "bob's seven commands after alice's two")
        #expect(doc.document == fresh.document && doc.version == fresh.version && doc.cursor == fresh.cursor)
        #expect(doc.liveLayout().layout() == fresh.document.layout())
        try alice.line("add z fixed 1")  // planned on bob's state: not stale
        #expect(alice.remoteChangesSinceLastCommand().isEmpty, "its own edit is never announced")
        #expect(bob.lineRetryingStale("add y fixed 2") == nil, "bob is stale after alice's edit, and retries")
        #expect(RemoteChange.announcement(alice.remoteChangesSinceLastCommand()) == "(bob changed 1 row: step 4)")
        // A query catches up by itself; what it caught up with is still announced, once.
        try bob.line("add x fixed 3")
        _ = try alice.text("status")
        #expect(RemoteChange.announcement(alice.remoteChangesSinceLastCommand()) == "(bob changed 1 row: step 5)")
        #expect(alice.remoteChangesSinceLastCommand().isEmpty)
        // And by the next watch.
        try bob.line("add w fixed 3")
        _ = try alice.text("rows")
        #expect(try alice.text("watch 0") == "entry 13 by bob: step 6: add w fixed 3 (1 row changed)\nwatched 0 s: 1 change")
    }

    /// At the interactive prompt (a pseudo-terminal): bob's commit between two of alice's
    /// commands is announced in one line before her next prompt.
    @Test func promptAnnouncesRemoteChanges() async throws {
        let exe = try #require(Binary.stackdoc, "the stackdoc binary is built with the tests")
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/shared.sqlite"
        let setup = try await Binary.run(exe, ["--db", path, "--as", "alice"], stdin: "new d\nadd a fixed 10\n")
        #expect(setup.status == 0, "\(setup.stderr)")
        let out = try await InteractiveTests.drive([
            ("stackdoc> ", "open d\r", 0.2),
            ("stackdoc(d)> ", "status\r", 0.2),
            ("stackdoc(d)> ", "\r", 0.2),
            ("stackdoc(d)> ", "quit\r", 0.2),
        ], history: dir + "/history", arguments: ["--db", path, "--as", "alice"],
           running: [2: (exe, ["--db", path, "--as", "bob"], "open d\nbegin grow\nset a fixed 20\ncommit\n")])
        #expect(out.contains("(bob changed 1 row: step 2 \"grow\")\r\nstackdoc(d)> "), "\(out)")
        #expect(out.components(separatedBy: "bob changed").count == 2, "announced once: \(out)")
        #expect(out.hasSuffix("EXIT 0\n"), "\(out)")
    }
}

extension WatchTests {
    /// At the prompt, Ctrl-C ends a watch and the prompt comes back on the same document.
    @Test func ctrlCEndsTheWatchAtThePrompt() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = try await InteractiveTests.drive([
            ("stackdoc> ", "new d\r", 0.2),
            ("stackdoc(d)> ", "watch\r", 1.0),
            ("", "\u{3}", 0.5),
            ("stackdoc(d)> ", "quit\r", 0.2),
        ], history: dir + "/history", arguments: ["--db", dir + "/db.sqlite"])
        #expect(out.contains("watched until Ctrl-C: no changes\r\nstackdoc(d)> "), "\(out)")
        #expect(out.hasSuffix("EXIT 0\n"), "\(out)")
    }
}

/// A `stackdoc` process with its standard input kept open: lines are sent as the test goes,
/// and its standard output is read as it comes.
final class PipedProcess {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private let process = Process()
    private let input = Pipe(), output = Pipe(), error = Pipe()
    private var seen = Data()

    init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
    }

    func send(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    /// SIGINT, as Ctrl-C sends it.
    func interrupt() { kill(process.processIdentifier, SIGINT) }

    /// Reads standard output until it holds `marker` or `timeout` seconds pass; returns what it read so far.
    func read(until marker: String, timeout: Double) -> String {
        let fd = output.fileHandleForReading.fileDescriptor
        let end = Date().addingTimeInterval(timeout)
        while !String(decoding: seen, as: UTF8.self).contains(marker), Date() < end {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = Foundation.read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            seen.append(contentsOf: buffer[..<n])
        }
        return String(decoding: seen, as: UTF8.self)
    }

    /// Closes standard input and waits for the process to end (killed after `timeout` seconds).
    func finish(timeout: Double) -> Outcome {
        try? input.fileHandleForWriting.close()
        let pid = process.processIdentifier
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        seen.append(output.fileHandleForReading.readDataToEndOfFile())
        let errors = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: seen, as: UTF8.self),
                       stderr: String(decoding: errors, as: UTF8.self))
    }
}
