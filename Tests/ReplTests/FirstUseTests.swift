import Foundation
import Testing
import StackDocTestSupport

/// The frictions of a first use (issue 32, item 4), through the built binary: typos of ROWSPEC
/// words, a failed `new`/`open`, the CSS shorthand of edges, `--csv`, `-q`, `echo`, `history N`,
/// `new … insets`, sqlite3 and psql habits, the JSON `row` text, `visible` of a stuck row, and
/// at the prompt the init file's settings and the questions before `clear` and `drop`.
@Suite(.offThePool) struct FirstUseTests {
    func stackdoc(_ args: [String], stdin: String? = nil, in dir: String? = nil, environment: [String: String] = [:]) async throws -> Binary.Result {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        return try await Binary.run(binary, args, stdin: stdin, directory: dir, environment: environment)
    }

    /// Runs `script` on an empty in-memory database.
    func run(_ script: String, _ options: [String] = []) async throws -> Binary.Result {
        try await stackdoc(["--db", ":memory:"] + options, stdin: script)
    }

    @Test func aMistypedRowSpecWordIsNotANewRow() async throws {
        let out = try await run("new d\nadd a fixd\nadd a fixd 10\nset a hiden\nadd a b c grw 1\nrows\nadd a \"fixd\"\nrows\n")
        #expect(out.stderr == """
            error: 2: 'fixd' is not a row spec word: did you mean 'fixed'? (quote a row id that looks like one: "fixd")
            error: 3: 'fixd' is not a row spec word: did you mean 'fixed'? (quote a row id that looks like one: "fixd")
            error: 4: 'hiden' is not a row spec word: did you mean 'hidden'? (quote a row id that looks like one: "hiden")
            error: 5: 'grw' is not a row spec word: did you mean 'grow'? (quote a row id that looks like one: "grw")

            """)
        // Nothing was added until the quoted id; then two rows, and `log export` quotes it again.
        #expect(out.stdout.contains("(no rows)"), "\(out.stdout)")
        #expect(out.stdout.contains("step 1: add a \"fixd\""), "\(out.stdout)")
    }

    @Test func aFailedNewOrOpenLeavesNoDocumentOpen() async throws {
        let out = try await run("new d\nadd a fixed 10\nopen nosuch\nadd b fixed 10\nnew d\nadd c\nnew e viewport -1 5\nadd x\nopen d\nrows\n")
        #expect(out.stderr.split(separator: "\n").map { $0.prefix(22) } == [
            "error: 3: no document ", "error: 4: no document ", "error: 5: document 'd'", "error: 6: no document ",
            "error: 7: viewport.wid", "error: 8: no document ",
        ], "\(out.stderr)")
        #expect(out.stderr.contains("error: 4: no document is open") && out.stderr.contains("error: 8: no document is open"), "\(out.stderr)")
        // d holds a alone: neither b, c nor x went into it.
        #expect(out.stdout.hasSuffix("a   -           0  view  fixed 10  0x0      default  0,0,0,0     0       0  auto\n"), "only a: \(out.stdout)")
    }

    @Test func edgesTakeTheCSSShorthand() async throws {
        let text = try await run("new d\nadd a insets 0\nadd b insets 1 2\nadd c insets 1 2 3\nadd e margin 4 insets 1 2 3 4\nrows\nrow e\n")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("""
            a   -           0  view  fit   0x0      0,0,0,0  0,0,0,0     0       0  auto
            b   -           1  view  fit   0x0      1,2,1,2  0,0,0,0     0       0  auto
            c   -           2  view  fit   0x0      1,2,3,2  0,0,0,0     0       0  auto
            e   -           3  view  fit   0x0      1,2,3,4  4,4,4,4     0       0  auto
            """), "\(text.stdout)")
        let padding = try await run("new d\nset stack padding 5 6\nstatus\nexport\n")
        #expect(padding.stdout.contains("step 1: set stack padding 5 6 5 6\n"), "\(padding.stdout)")
        #expect(padding.stdout.contains(#""padding": {"top": 5, "left": 6, "bottom": 5, "right": 6}"#), "\(padding.stdout)")
    }

    @Test func csvPrintsOnlyTheTables() async throws {
        let out = try await run("new d\nadd a fixed 10\nadd b fixed 20\nlayout\nvisible\nbogus\n", ["--csv", "--doc", "x"])
        #expect(out.status == 1)
        #expect(out.stderr == "error: 6: unknown command 'bogus' (type 'help' for the list)\n")
        #expect(out.stdout == """
            index,id,parent,type,x,y,width,height,visibility,percent
            0,a,,view,0,0,390,34,entire,100
            1,b,,view,0,34,390,44,entire,100
            id,type,visibility,percent,x,y,width,height
            a,view,entire,100,0,0,390,34
            b,view,entire,100,0,34,390,44

            """, "\(out.stdout)")
        let both = try await run("layout\n", ["--csv", "--json"])
        #expect(both.status == 1 && both.stdout.isEmpty)
        #expect(both.stderr == "error: --csv and --json are two output formats: give one\n")
    }

    @Test func quietLeavesOnlyWhatQueriesPrint() async throws {
        let out = try await run("new d\nadd a fixed 10\necho the rows:\nrows\nundo\nadd b fixed oops\nhistory 1\n", ["-q", "--as", "me"])
        #expect(out.status == 1)
        #expect(out.stderr == "error: 6: expected a number after 'fixed', got 'oops'\n")
        #expect(out.stdout == """
            the rows:
            id  parent  index  type  size      content  insets   margin   grow  shrink  align  flags
            a   -           0  view  fixed 10  0x0      default  0,0,0,0     0       0  auto
            step  state   entries  origin  label
               1  undone  2        me      add a fixed 10

            """, "\(out.stdout)")
    }

    @Test func historyNShowsTheLastSteps() async throws {
        let out = try await run("new d\nadd a\nadd b\nadd c\nhistory 2\nhistory 0\n", ["--as", "me"])
        #expect(out.stdout.hasSuffix("""
            step  state    entries  origin  label
               2  applied  3        me      add b
               3  applied  4        me      add c

            """), "\(out.stdout)")
        #expect(out.stderr == "error: 6: expected a count (a whole number ≥ 1) after 'history', got '0'\n")
    }

    @Test func newTakesTheViewportsInsets() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        let out = try await stackdoc(["--db", ":memory:", "-q"], stdin: "new phone viewport 390 844 insets 47 0 34 0\nadd a fixed 10\nlayout\nlog export p.sd\n", in: dir)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout == """
            #  id  type  frame       visibility
            0  a   view  0,0 390x34  offscreen 0%
            content 390x844  viewport 390x844  obscured 47,0,34,0  offset 0

            """, "\(out.stdout)")
        let log = try String(contentsOfFile: dir + "/p.sd", encoding: .utf8)
        #expect(log.contains("\nnew phone vertical viewport 390 844 insets 47 0 34 0\n"), "\(log)")
        // The script rebuilds the insets.
        let again = try await stackdoc(["--db", ":memory:", "-q", "p.sd", "-"], stdin: "status\n", in: dir)
        #expect(again.stdout.contains("insets    47,0,34,0"), "\(again.stdout)\(again.stderr)")
    }

    @Test func sqliteAndPsqlHabitsGetAPointer() async throws {
        let out = try await run("\\q\n\\i x.sd\n\\o out.txt\n\\timing\n.mode csv\nmode\n.tables\n\\x\n")
        #expect(out.stderr == """
            error: 1: unknown command '\\q': use 'quit' (or Ctrl-D)
            error: 2: unknown command '\\i': use 'read PATH'
            error: 3: unknown command '\\o': use 'output PATH' ('output' alone: back to standard output)
            error: 4: unknown command '\\timing': use 'timer on|off'
            error: 5: unknown command '.mode': use --csv on the command line (every table as CSV), or 'layout --csv', 'visible --csv', 'rows --csv'; --json for JSON
            error: 6: unknown command 'mode': use --csv on the command line (every table as CSV), or 'layout --csv', 'visible --csv', 'rows --csv'; --json for JSON
            error: 7: unknown command '.tables': use 'docs' (the documents) or 'rows' (the open document's rows)
            error: 8: unknown command '\\\\x' (type 'help' for the list)

            """, "\(out.stderr)")
        let help = try await stackdoc(["--help"])
        let synopsis = help.stdout.split(separator: "\n").drop { !$0.hasPrefix("USAGE:") }.prefix(2).joined(separator: " ")
        for option in ["--db", "--readonly", "--doc", "--as", "--json", "--csv", "-q", "--bail", "--echo", "--init", "--no-init", "-c"] {
            #expect(synopsis.contains("[" + option + " ") || synopsis.contains("| " + option + "]") || synopsis.contains("[" + option + "]"),
                    "\(option): \(synopsis)")
        }
    }

    @Test func jsonRowTextIsAnObjectAndVisibleSaysStuck() async throws {
        let out = try await run("new d viewport 390 200\nadd h fixed 40 sticky\nadd t text 300\nadd p aspect 16 9\nrow t\nrow p\n", ["--json"])
        #expect(out.stdout.contains(#""text":{"glyphs":300,"char":8,"line":20}"#), "\(out.stdout)")
        #expect(out.stdout.contains(#""aspect":{"width":16,"height":9}"#), "\(out.stdout)")
        let stuck = try await run("new d viewport 390 200\nadd s stack vertical\nadd h fixed 40 sticky in s\nadd a fixed 400 in s\nscroll 100\nvisible\n", ["-q"])
        #expect(stuck.stdout.contains("h   view  entire          100  15,12 360x64 stuck at 15,100\n"), "\(stuck.stdout)")
        let json = try await run("new d viewport 390 200\nadd s stack vertical\nadd h fixed 40 sticky in s\nadd a fixed 400 in s\nscroll 100\nvisible\n", ["--json"])
        #expect(json.stdout.contains(#"{"id":"h","visibility":"entire","percent":100,"shownFrame":{"x":15,"y":100,"width":360,"height":64},"stuck":true}"#), "\(json.stdout)")
    }
}

/// The prompt on a pseudo-terminal: what the init file sets stays in force; `clear` and
/// `drop` ask first; the banner names Ctrl-L.
@Suite(.serialized, .offThePool) struct FirstUsePromptTests {
    @Test func theInitFilesSettingsStayInForceAtThePrompt() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        try "timer on\nas rc-origin\nnew d\n".write(toFile: dir + "/rc.sd", atomically: true, encoding: .utf8)
        let out = try await InteractiveTests.drive([
            ("stackdoc(d)> ", "add a fixed 10\r"),
            ("stackdoc(d)> ", "history\r"),
            ("stackdoc(d)> ", "quit\r"),
        ], history: dir + "/history", environment: ["STACKDOC_INIT": dir + "/rc.sd"])
        #expect(out.contains("Ctrl-L to clear the screen"), "\(out)")
        let afterPrompt = out.range(of: "> add a fixed 10").map { String(out[$0.upperBound...]) } ?? ""
        #expect(afterPrompt.contains("time: "), "timer on from the init file: \(out)")
        #expect(afterPrompt.contains("rc-origin  add a fixed 10"), "as NAME from the init file: \(out)")
        #expect(out.hasSuffix("EXIT 0\n"), "\(out)")
    }

    @Test func clearAndDropAskAtThePrompt() async throws {
        let dir = try Binary.scratchDirectory()
        defer { Scratch.remove(dir) }
        let out = try await InteractiveTests.drive([
            ("stackdoc> ", "new d\r"),
            ("stackdoc(d)> ", "add a b fixed 10\r"),
            ("stackdoc(d)> ", "clear\r"),
            ("remove every row of 'd' (2 rows)? [y/N] ", "n\r"),
            ("stackdoc(d)> ", "drop d\r"),
            ("delete the document 'd' and its whole history? [y/N] ", "\r"),
            ("stackdoc(d)> ", "clear\r"),
            ("? [y/N] ", "yes\r"),
            ("stackdoc(d)> ", "quit\r"),
        ], history: dir + "/history")
        #expect(out.components(separatedBy: "not done: nothing changed").count == 3, "two refusals: \(out)")
        #expect(out.contains("step 2: clear"), "\(out)")
        #expect(!out.contains("dropped"), "\(out)")
        #expect(out.hasSuffix("EXIT 0\n"), "\(out)")
        // A script is never asked.
        let binary = try #require(Binary.stackdoc)
        let batch = try await Binary.run(binary, ["--db", ":memory:"], stdin: "new d\nadd a\nclear\ndrop d\ndocs\n")
        #expect(batch.stdout.contains("step 2: clear") && batch.stdout.contains("dropped d") && !batch.stdout.contains("[y/N]"), "\(batch.stdout)")
    }
}
