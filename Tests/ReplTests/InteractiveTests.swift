import Foundation
import Testing
import StackDocTestSupport

/// The interactive REPL on a pseudo-terminal (python3's pty module drives the built binary):
/// the prompt names the open document, Ctrl-C drops the line being typed without quitting,
/// the up arrow recalls history, history persists in $STACKDOC_HISTORY, Ctrl-D leaves.
@Suite(.serialized, .offThePool) struct InteractiveTests {
    /// Sends each step's keys after the prompt it waits for; prints everything the terminal saw.
    static let driver = #"""
    import os, pty, sys, time, select, json, subprocess
    binary, history, steps = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    options = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["STACKDOC_HISTORY"] = history
        os.environ.pop("STACKDOC_INIT", None)
        for k, v in options.get("env", {}).items():
            os.environ[k] = v
        if options.get("cwd"):
            os.chdir(options["cwd"])
        if options.get("stdout"):
            out_fd = os.open(options["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out_fd, 1)
        os.execv(binary, [binary] + options.get("args", ["--db", ":memory:"]))
    out = b""
    def read_until(marker, timeout=options.get("timeout", 10)):
        global out
        end = time.time() + timeout
        # Output already waiting is read before the marker is looked for: the echo of the
        # keys sent last must not leave an earlier prompt at the end of `out`.
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    return False
                if not data:
                    return False
                out += data
                continue
            if marker and out.endswith(marker.encode()):
                return True
        return marker == ""
    for index, step in enumerate(steps):
        wait, keys = step[0], step[1]
        if wait and not read_until(wait):  # an empty text: send at once
            sys.stdout.write(out.decode(errors="replace"))
            print("\nTIMEOUT waiting for %r" % wait)
            os.kill(pid, 9)
            sys.exit(3)
        # Another process to run to its end before this step's keys: [argv, standard input].
        other = options.get("run", {}).get(str(index))
        if other:
            subprocess.run(other[0], input=other[1].encode(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.write(fd, keys.encode())
        time.sleep(step[2] if len(step) > 2 else 0.2)
    read_until("", 2)
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(out.decode(errors="replace"))
    print("\nEXIT %d" % os.waitstatus_to_exitcode(status))
    """#

    /// Runs the binary on a pseudo-terminal (with `arguments`, `environment` added, and
    /// standard output sent to the file `stdout` when given) and sends `steps`.
    static func drive(_ steps: [(String, String)], history: String, arguments: [String] = ["--db", ":memory:"],
                      environment: [String: String] = [:], stdout: String? = nil, directory: String? = nil) async throws -> String {
        try await drive(steps.map { ($0.0, $0.1, 0.2) }, history: history, arguments: arguments, environment: environment,
                  stdout: stdout, directory: directory)
    }

    /// `drive` with each step's pause after its keys (seconds), waiting up to `timeout` seconds
    /// for each step's text; `running[i]` (an executable, its arguments and standard input) runs
    /// to its end after step `i`'s text arrived, before its keys are sent.
    static func drive(_ steps: [(String, String, Double)], history: String, arguments: [String] = ["--db", ":memory:"],
                      environment: [String: String] = [:], stdout: String? = nil, directory: String? = nil,
                      timeout: Double = 10, running: [Int: (String, [String], String)] = [:]) async throws -> String {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        let json = try JSONSerialization.data(withJSONObject: steps.map { [$0.0, $0.1, $0.2] as [Any] })
        var options: [String: Any] = ["args": arguments, "env": environment, "timeout": timeout,
                                      "run": Dictionary(uniqueKeysWithValues: running.map { (String($0.key), [[$0.value.0] + $0.value.1, $0.value.2] as [Any]) })]
        if let stdout { options["stdout"] = stdout }
        if let directory { options["cwd"] = directory }
        let optionsJSON = try JSONSerialization.data(withJSONObject: options)
        let result = try await Binary.run("/usr/bin/env", ["python3", "-c", Self.driver, binary, history,
                                                     String(decoding: json, as: UTF8.self), String(decoding: optionsJSON, as: UTF8.self)])
        return result.stdout
    }

    func drive(_ steps: [(String, String)], history: String) async throws -> String {
        try await Self.drive(steps, history: history)
    }

    @Test func promptCtrlCHistoryAndCtrlD() async throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let history = dir + "/history"
        let out = try await drive([
            ("stackdoc> ", "new d\r"),
            ("stackdoc(d)> ", "add never typed"),   // abandoned with Ctrl-C below
            ("add never typed", "\u{3}"),
            ("stackdoc(d)> ", "add a fixed 10\r"),
            ("stackdoc(d)> ", "add b fixed oops\r"),
            ("stackdoc(d)> ", "\u{1b}[A\u{1b}[A\u{15}rows\r"),   // history works, then Ctrl-U + a new line
            ("stackdoc(d)> ", "\u{4}"),
        ], history: history)
        #expect(out.contains("created d: 0 rows"), "\(out)")
        #expect(out.contains("step 1: add a fixed 10"), "\(out)")
        #expect(out.contains("add never typed^C"), "\(out)")
        #expect(!out.contains("step 1: add never"), "Ctrl-C must drop the line: \(out)")
        #expect(out.contains("error: expected a number after 'fixed', got 'oops'"), "\(out)")
        #expect(out.contains("a   -           0  view  fixed 10"), "\(out)")
        #expect(out.hasSuffix("EXIT 0\n"), "\(out)")
        let saved = try String(contentsOfFile: history, encoding: .utf8)
        #expect(saved.contains("add\\040a\\040fixed\\04010") || saved.contains("add a fixed 10"), "\(saved)")
        #expect(!saved.contains("never"))

        // A second session sees the first one's history: the up arrow brings back 'rows'.
        let again = try await drive([
            ("stackdoc> ", "new e\r"),
            ("stackdoc(e)> ", "\u{1b}[A\u{1b}[A\r"),
            ("stackdoc(e)> ", "quit\r"),
        ], history: history)
        #expect(again.contains("(no rows)"), "recalled 'rows' from the saved history: \(again)")
        #expect(again.hasSuffix("EXIT 0\n"), "\(again)")
    }
}

/// The prompt's own conveniences (issue 13): the init file, `--no-init`, a group shown in the
/// prompt, the banner kept out of piped standard output, JSON errors numbered by line.
@Suite(.serialized, .offThePool) struct InteractiveShellTests {
    @Test func initFileRunsBeforeThePromptUnlessNoInit() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        try "new fromrc\nadd a fixed 10\n".write(toFile: dir + "/rc.sd", atomically: true, encoding: .utf8)
        try "new home\n".write(toFile: dir + "/.stackdocrc", atomically: true, encoding: .utf8)
        let out = try await InteractiveTests.drive([("stackdoc(fromrc)> ", "begin\r"), ("stackdoc(fromrc)*> ", "quit\r")],
                                             history: dir + "/h", environment: ["STACKDOC_INIT": dir + "/rc.sd", "HOME": dir])
        #expect(out.contains("step 1: add a fixed 10"), "\(out)")
        #expect(!out.contains("created home"), "$STACKDOC_INIT wins over ~/.stackdocrc: \(out)")
        #expect(out.contains("warning: document 'fromrc' ends with the group open"), "\(out)")
        let home = try await InteractiveTests.drive([("stackdoc(home)> ", "quit\r")], history: dir + "/h", environment: ["HOME": dir])
        #expect(home.contains("created home"), "\(home)")
        let none = try await InteractiveTests.drive([("stackdoc> ", "quit\r")], history: dir + "/h",
                                              arguments: ["--db", ":memory:", "--no-init"], environment: ["HOME": dir])
        #expect(!none.contains("created"), "\(none)")
        #expect(none.hasSuffix("EXIT 0\n"), "\(none)")
    }

    @Test func pipedStandardOutputCarriesOnlyJSONNumberedByLine() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        let stdout = dir + "/out.jsonl"
        let terminal = try await InteractiveTests.drive([("stackdoc> ", "new d\r"), ("stackdoc(d)> ", "add a fixed oops\r"),
                                                   ("stackdoc(d)> ", "bogus\r"), ("stackdoc(d)> ", "quit\r")],
                                                  history: dir + "/h", arguments: ["--db", ":memory:", "--json", "--no-init"], stdout: stdout)
        #expect(terminal.contains("Type 'help' for the commands"), "the banner is on the terminal: \(terminal)")
        let lines = try String(contentsOfFile: stdout, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")  // new, two errors, quit
        for line in lines { #expect(line.hasPrefix("{\"ok\":"), "\(line)") }
        if lines.count == 4 {
            #expect(lines[1].hasSuffix(#""line":2}"#), "\(lines)")
            #expect(lines[2].hasSuffix(#""line":3}"#), "\(lines)")
        }
    }
}

/// Issue 13 item 23: Ctrl-C while a command runs cancels it — a long `verify`, `log export` or
/// `import` — leaves the database as before it, says so, and the prompt answers the next
/// command. Driven through a real terminal (the pty sends SIGINT as a user's Ctrl-C does).
@Suite(.serialized, .offThePool) struct InterruptTests {
    /// A saved document of `rows` rows (`{"id":"rN","size":{"fixed":10}}`).
    static func bigJSON(rows: Int) -> String {
        "{\"format\":\"stackdoc/1\",\"name\":\"big\",\"rows\":[" + (0..<rows).map { "{\"id\":\"r\($0)\",\"size\":{\"fixed\":10}}" }.joined(separator: ",") + "]}\n"
    }

    @Test func ctrlCCancelsALongCommandAndTheSessionGoesOn() async throws {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        // 120,000 rows: verify, log export and import each take over a second in a debug build
        // on a quiet machine (`log export` writes an import as one block: 0.6 s at 40,000 rows);
        // Ctrl-C comes 0.4 s after each.
        try Self.bigJSON(rows: 120_000).write(toFile: dir + "/big.json", atomically: true, encoding: .utf8)
        let db = dir + "/big.sqlite"
        let made = try await Binary.run(binary, ["--db", db, "--no-init", "-c", "import big.json", "-c", "hide r7"], directory: dir)
        #expect(made.status == 0, "\(made.stderr)")
        let before = try await Binary.run(binary, ["--db", db, "--no-init", "-c", "open big", "-c", "history", "-c", "status"], directory: dir).stdout

        let prompt = "stackdoc(big)> "
        let out = try await InteractiveTests.drive([
            ("stackdoc> ", "open big\r", 0.2),
            (prompt, "verify\r", 0.4), ("", "\u{3}", 0.2),
            (prompt, "log export log.sd\r", 0.4), ("", "\u{3}", 0.2),
            (prompt, "import big.json as copy\r", 0.4), ("", "\u{3}", 0.2),
            (prompt, "docs\r", 0.2),
            (prompt, "quit\r", 0.2),
        ], history: dir + "/h", arguments: ["--db", db, "--no-init"], directory: dir, timeout: 120)
        let cancelled = out.components(separatedBy: "error: cancelled: nothing changed").count - 1
        #expect(cancelled == 3, "verify, log export and import are each cancelled: \(out)")
        #expect(!out.contains("ok: the log replays"), "\(out)")
        #expect(!out.contains("wrote "), "\(out)")
        #expect(!out.contains("imported copy"), "\(out)")
        #expect(out.contains("big "), "docs answers after the cancelled commands: \(out)")
        #expect(!out.contains("copy "), "the cancelled import stored nothing: \(out)")
        #expect(out.hasSuffix("EXIT 0\n"), "\(out)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/log.sd"), "a cancelled log export writes no file")
        #expect(!FileManager.default.fileExists(atPath: dir + "/log.sd.stackdoc-tmp"))

        // The database is as before: same history and status, and the log replays to it.
        let after = try await Binary.run(binary, ["--db", db, "--no-init", "-c", "open big", "-c", "history", "-c", "status"], directory: dir).stdout
        #expect(after == before)
        let verified = try await Binary.run(binary, ["--db", db, "--no-init", "-c", "open big", "-c", "verify", "-c", "docs"], directory: dir)
        #expect(verified.stdout.contains("ok: the log replays to the stored document"), "\(verified.stdout)\(verified.stderr)")
        #expect(!verified.stdout.contains("copy"), "\(verified.stdout)")
    }
}
