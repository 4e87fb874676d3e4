import Foundation
import Testing
import StackDocTestSupport

/// The interactive REPL on a pseudo-terminal (python3's pty module drives the built binary):
/// the prompt names the open document, Ctrl-C drops the line being typed without quitting,
/// the up arrow recalls history, history persists in $STACKDOC_HISTORY, Ctrl-D leaves.
@Suite(.serialized) struct InteractiveTests {
    /// Sends each step's keys after the prompt it waits for; prints everything the terminal saw.
    static let driver = #"""
    import os, pty, sys, time, select, json
    binary, history, steps = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["STACKDOC_HISTORY"] = history
        os.execv(binary, [binary, "--db", ":memory:"])
    out = b""
    def read_until(marker, timeout=10):
        global out
        end = time.time() + timeout
        while time.time() < end:
            if marker and out.endswith(marker.encode()):
                return True
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    return False
                if not data:
                    return False
                out += data
        return marker == ""
    for wait, keys in steps:
        if not read_until(wait):
            sys.stdout.write(out.decode(errors="replace"))
            print("\nTIMEOUT waiting for %r" % wait)
            os.kill(pid, 9)
            sys.exit(3)
        os.write(fd, keys.encode())
        time.sleep(0.2)
    read_until("", 2)
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(out.decode(errors="replace"))
    print("\nEXIT %d" % os.waitstatus_to_exitcode(status))
    """#

    func drive(_ steps: [(String, String)], history: String) throws -> String {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        let json = try JSONSerialization.data(withJSONObject: steps.map { [$0.0, $0.1] })
        let result = try Binary.run("/usr/bin/env", ["python3", "-c", Self.driver, binary, history, String(decoding: json, as: UTF8.self)])
        return result.stdout
    }

    @Test func promptCtrlCHistoryAndCtrlD() throws {
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let history = dir + "/history"
        let out = try drive([
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
        let again = try drive([
            ("stackdoc> ", "new e\r"),
            ("stackdoc(e)> ", "\u{1b}[A\u{1b}[A\r"),
            ("stackdoc(e)> ", "quit\r"),
        ], history: history)
        #expect(again.contains("(no rows)"), "recalled 'rows' from the saved history: \(again)")
        #expect(again.hasSuffix("EXIT 0\n"), "\(again)")
    }
}
