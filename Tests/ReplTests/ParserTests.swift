import Testing
import StackDocTestSupport
import Layout
@testable import repl
@testable import StackDocScript

@Suite(.offThePool) struct TokenizerTests {
    @Test func splitsWordsAndQuotes() throws {
        let t = try Tokenizer.tokenize(#"  add "odd id" 'it''s' x"y z"  "#)
        #expect(t.map(\.text) == ["add", "odd id", "its", "xy z"])
        #expect(t.map(\.quoted) == [false, true, true, true])
    }

    @Test func commentsButNotColors() throws {
        #expect(try Tokenizer.tokenize("# a comment").isEmpty)
        #expect(try Tokenizer.tokenize("add a # rest").map(\.text) == ["add", "a"])
        #expect(try Tokenizer.tokenize("defaults separator color #C6c6C8 # gray").map(\.text)
            == ["defaults", "separator", "color", "#C6c6C8"])
        #expect(try Tokenizer.tokenize("add a #C6C6C8x").map(\.text) == ["add", "a"])
        #expect(try Tokenizer.tokenize(##"add "#x""##).map(\.text) == ["add", "#x"])
    }

    @Test func escapes() throws {
        #expect(try Tokenizer.tokenize(#""a\"b\\c\n\u{1F600}""#).map(\.text) == ["a\"b\\c\n😀"])
        #expect(throws: CommandError.self) { try Tokenizer.tokenize(#""abc"#) }
        #expect(throws: CommandError.self) { try Tokenizer.tokenize("'abc") }
        #expect(throws: CommandError.self) { try Tokenizer.tokenize(#""\q""#) }
        #expect(throws: CommandError.self) { try Tokenizer.tokenize(#""\u{110000}""#) }
    }

    @Test func quoteRoundTrips() throws {
        for word in ["plain", "", "two words", "top", "a\"b", "#hash", "#C6C6C8", "tab\there", "ü", "semi;colon", "\u{0}", "\u{200B}z"] {
            let tokens = try Tokenizer.tokenize(Tokenizer.quote(word))
            #expect(tokens.map(\.text) == [word], "\(word)")
        }
    }
}

@Suite(.offThePool) struct ParserTests {
    func parse(_ line: String) throws -> Command? { try Parser.parse(line) }

    func error(_ line: String) -> String {
        do {
            _ = try Parser.parse(line)
            return "no error"
        } catch let e as any UserFacingError {
            return e.message
        } catch {
            return "\(error)"
        }
    }

    @Test func blankAndComments() throws {
        #expect(try parse("") == nil)
        #expect(try parse("   # nothing") == nil)
    }

    @Test func add() throws {
        #expect(try parse("add a b fixed 100 insets 1 2 3 4 at top in card")
            == .edit(.add(ids: ["a", "b"], spec: [.fixed(100), .insets(Edges(top: 1, left: 2, bottom: 3, right: 4))],
                          position: .top, parent: "card")))
        #expect(try parse("add a after b") == .edit(.add(ids: ["a"], spec: [], position: .after("b"), parent: nil)))
        #expect(try parse("add a in s at 3") == .edit(.add(ids: ["a"], spec: [], position: .index(3), parent: "s")))
        #expect(try parse(#"add "top" "fit" type "in""#)
            == .edit(.add(ids: ["top", "fit"], spec: [.type("in")], position: nil, parent: nil)))
        #expect(try parse("ADD a Justify space-between")
            == .edit(.add(ids: ["a"], spec: [.justify(.spaceBetween)], position: nil, parent: nil)))
    }

    /// Edges in the CSS shorthand: 1, 2, 3 or 4 numbers (issue 32).
    @Test func edgesTakeOneToFourNumbers() throws {
        func insets(_ words: String) throws -> Edges? {
            guard case let .edit(.add(_, spec, _, _)) = try parse("add a insets " + words + " at top"),
                  case let .insets(e)? = spec.first else { return nil }
            return e
        }
        #expect(try insets("0") == Edges(top: 0, left: 0, bottom: 0, right: 0))
        #expect(try insets("8 16") == Edges(top: 8, left: 16, bottom: 8, right: 16))
        #expect(try insets("8 16 4") == Edges(top: 8, left: 16, bottom: 4, right: 16))
        #expect(try insets("1 2 3 4") == Edges(top: 1, left: 2, bottom: 3, right: 4))
        #expect(try parse("viewport 390 844 insets 47 0") == .edit(.obscured(.insets(viewport: Size(width: 390, height: 844),
                                                                                          insets: Edges(top: 47, left: 0, bottom: 47, right: 0)))))
        #expect(error("add a insets 1 2 3 4 5") == "expected a row spec (\(RowSpecWords.keywords.joined(separator: ", "))), a position (at top|bottom|INDEX | after ROW | before ROW) or 'in ROW' after '4', got '5'")
    }

    /// A typo of a ROWSPEC word where a row id may go is refused, not a new row; quoted, it is
    /// an id, and the printer quotes it so (issue 32).
    @Test func aLookalikeOfARowSpecWordMustBeQuoted() throws {
        let hint = "'fixd' is not a row spec word: did you mean 'fixed'? (quote a row id that looks like one: \"fixd\")"
        #expect(error("add a fixd") == hint)
        #expect(error("add a fixd 10") == hint)
        #expect(error("set a b fixd 10") == hint)
        #expect(error("add a fixed 10 fixd") == hint)
        #expect(error("replace a with b fixd") == hint)
        #expect(error("set a contnet 1 2") == "'contnet' is not a row spec word: did you mean 'content'? (quote a row id that looks like one: \"contnet\")")
        let quoted = Command.edit(.add(ids: ["a", "fixd"], spec: [], position: nil, parent: nil))
        #expect(try parse("add a \"fixd\"") == quoted)
        #expect(Printer.text(quoted) == "add a \"fixd\"")
        #expect(try parse(Printer.text(.edit(.setRows(ids: ["a", "grw"], spec: [.fit])))) == .edit(.setRows(ids: ["a", "grw"], spec: [.fit])))
        // The first id, ids with digits and words far from every keyword stay ids.
        #expect(try parse("add fixd") == .edit(.add(ids: ["fixd"], spec: [], position: nil, parent: nil)))
        #expect(try parse("add a row2 text1 header") == .edit(.add(ids: ["a", "row2", "text1", "header"], spec: [], position: nil, parent: nil)))
    }

    /// sqlite3 and psql commands get a pointer, not a guess (issue 32).
    @Test func foreignCommandsGetAPointer() {
        #expect(error("\\q") == "unknown command '\\q': use 'quit' (or Ctrl-D)")
        #expect(error(".mode csv") == "unknown command '.mode': use --csv on the command line (every table as CSV), or 'layout --csv', 'visible --csv', 'rows --csv'; --json for JSON")
        #expect(error("mode") == error(".mode").replacing("'.mode'", with: "'mode'"))
        #expect(error(".READ x") == "unknown command '.read': use 'read PATH'")
    }

    @Test func newEchoAndHistoryN() throws {
        #expect(try parse("new p viewport 390 844 insets 47 0 34 0")
                == .new(name: "p", axis: nil, viewport: Size(width: 390, height: 844), insets: Edges(top: 47, left: 0, bottom: 34, right: 0)))
        #expect(error("new p insets 1") == "expected vertical, horizontal or 'viewport W H' after 'p', got 'insets'")
        #expect(try parse("echo a  \"b  c\"") == .echo("a b  c"))
        #expect(try parse(Printer.text(.echo("a b  c"))) == .echo("a b  c"))
        #expect(try parse("history 3") == .historyLast(3))
        #expect(Printer.text(.historyLast(3)) == "history 3")
    }

    @Test func errorsNameTheWordAndTheExpectation() {
        #expect(error("add a fixed abc") == "expected a number after 'fixed', got 'abc'")
        #expect(error("add a fixed") == "expected a number after 'fixed', got end of line")
        #expect(error("add a insets x 4") == "expected the top edge, or every edge (a number) after 'insets', got 'x'")
        #expect(error("set stack padding") == "expected the top edge, or every edge (a number) after 'padding', got end of line")
        #expect(error("frobnicate") == "unknown command 'frobnicate' (type 'help' for the list)")
        #expect(error("add") == "expected a row id after 'add', got end of line")
        #expect(error("add a fixed nan") == "expected a number after 'fixed', got 'nan'")
        #expect(error("add a fixed 1e999") == "expected a number after 'fixed', got '1e999'")
        #expect(error("add a fixed 0x10") == "expected a number after 'fixed', got '0x10'")
        #expect(error("undo 0") == "expected a count (a whole number ≥ 1) after 'undo', got '0'")
        #expect(error("undo 2 3") == "unexpected '3' after '2' (usage: undo [N] | undo --all [N] | undo to MARK | undo --mine [N])")
        #expect(error("move a") == "expected 'to', 'after', 'before' or 'in' after 'a', got end of line")
        #expect(error("set stack axis diagonal") == "expected vertical|horizontal after 'axis', got 'diagonal'")
        #expect(error("defaults separator color red") == "expected a color #RRGGBB after 'color', got 'red'")
        #expect(error("set a") == "expected \(RowSpecWords.expectation) after 'a', got end of line")
        #expect(error("at 99999999999999999999999") == "unknown command 'at' (did you mean 'as'? type 'help' for the list)")
        #expect(error("add a at 99999999999999999999999")
            == "expected top, bottom or an index (a whole number ≥ 0) after 'at', got '99999999999999999999999'")
        #expect(error("layout --range 5..2") == "expected a range FIRST..LAST (whole numbers, FIRST ≤ LAST) after '--range', got '5..2'")
    }

    @Test func everyForm() throws {
        #expect(try parse("new d horizontal viewport 800 100") == .new(name: "d", axis: .horizontal, viewport: Size(width: 800, height: 100)))
        #expect(try parse("new d viewport 800 100") == .new(name: "d", axis: nil, viewport: Size(width: 800, height: 100)))
        #expect(try parse("import f.json as g") == .importDocument(path: "f.json", name: "g"))
        #expect(try parse("export") == .export(path: nil))
        #expect(try parse("export svg p.svg") == .exportSVG(path: "p.svg", viewport: false))
        #expect(try parse("export svg p.svg --viewport") == .exportSVG(path: "p.svg", viewport: true))
        #expect(try parse("export svg \"--viewport\"") == .exportSVG(path: "--viewport", viewport: false))
        #expect(try parse(#"export "svg""#) == .export(path: "svg"))
        #expect(try parse("replace a with b fit") == .edit(.replace(id: "a", newID: "b", spec: [.fit])))
        #expect(try parse("move a to bottom in s") == .edit(.move(id: "a", position: .bottom, parent: "s")))
        #expect(try parse("set a separator hidden hidden") == .edit(.set(id: "a", spec: [.separator(.hidden), .hidden])))
        #expect(try parse("set stack padding 1 2 3 4") == .edit(.setStack(.padding(Edges(top: 1, left: 2, bottom: 3, right: 4)))))
        #expect(try parse(#"set "stack" fit"#) == .edit(.set(id: "stack", spec: [.fit])))
        #expect(try parse("defaults separator thickness 2 color #ff0000 hidden")
            == .edit(.defaults(.separator([.thickness(2), .color("#ff0000"), .hidden]))))
        #expect(try parse("scroll -5") == .edit(.scroll(.offset(-5))))
        #expect(try parse("scroll to a") == .edit(.scroll(.to("a", .top))))
        #expect(try parse("scroll to a middle") == .edit(.scroll(.to("a", .middle))))
        #expect(try parse("layout --visible --range 1..2") == .layout(LayoutSelection(visibleOnly: true, range: 1...2)))
        #expect(try parse("find type label") == .findType("label"))
        #expect(try parse("hit 1.5 2") == .hit(x: 1.5, y: 2))
        #expect(try parse("begin two words") == .begin(label: "two words"))
        #expect(try parse("log export x.sd") == .logExport(path: "x.sd"))
        #expect(try parse("exit") == .quit)
    }

    @Test func everyHelpExampleParses() throws {
        for spec in CommandTable.all {
            for example in spec.examples {
                let command = try #require(try Parser.parse(example), "\(example)")
                _ = command
                #expect(example.split(separator: " ").first.map(String.init).flatMap(CommandTable.find)?.name == spec.name)
            }
            #expect(try Help.topic(spec.name).contains(spec.usage[0]))
        }
        #expect(CommandTable.groups.allSatisfy { g in CommandTable.all.contains { $0.group == g } })
        #expect(Set(CommandTable.all.map(\.group)).isSubset(of: Set(CommandTable.groups)))
    }
}

@Suite(.offThePool) struct ParserLimitTests {
    @Test func overlongLinesAreRefusedUnread() {
        let line = "add " + String(repeating: "a", count: Parser.maxLineLength)
        #expect(thrownMessage {
            try Parser.parse(line)
        } == "line too long: \(line.utf8.count) bytes (the limit is \(Parser.maxLineLength))")
    }

    @Test func tenThousandCharacterIdsParse() throws {
        let id = String(repeating: "x", count: 10_000)
        #expect(try Parser.parse("add \(id) fixed 1") == .edit(.add(ids: [id], spec: [.fixed(1)], position: nil, parent: nil)))
    }
}
