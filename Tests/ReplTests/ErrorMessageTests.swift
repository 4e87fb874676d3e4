import Testing
import Layout
@testable import repl
@testable import StackDocScript

/// Issue 12 item 2: one error type with cases, one renderer that quotes and escapes every user
/// value; `StackDocError("…")` stays the general case.
@Suite struct ErrorMessageTests {
    @Test func everyKindRendersItsValuesQuotedAndEscaped() {
        let hostile = "x\u{1B}[2J\u{202E}"
        let cases: [(StackDocError.Kind, String)] = [
            (.noDocumentOpen, "no document is open (use 'new NAME', 'open NAME' or 'import PATH')"),
            (.nothingToClose, "no document is open"),
            (.noSuchDocument(name: hostile), #"no document 'x\u{1b}[2J\u{202e}'"#),
            (.noSuchRow(hostile), #"no row 'x\u{1b}[2J\u{202e}'"#),
            (.invalidName(.rowID, value: hostile, path: "rows[0].id"),
             #"rows[0].id: invalid row id 'x\u{1b}[2J\u{202e}': expected 1 to 64 characters from A-Z a-z 0-9 _ . - starting with a letter or _"#),
            (.invalidName(.documentName, value: "a b", path: "name"),
             "name: invalid document name 'a b': expected 1 to 64 characters from A-Z a-z 0-9 _ . -"),
            (.invalidName(.type, value: "", path: "type"), "type: invalid type '': expected 1 to 64 characters from A-Z a-z 0-9 _ . -"),
            (.badValue(path: "fixed", problem: "must be ≥ 0, got -1"), "fixed: must be ≥ 0, got -1"),
            (.staleDocument(name: "d", storedVersion: 3, sessionVersion: 2),
             "document 'd' was changed by another process (stored version 3, this session has 2): reload it and try again"),
            (.droppedDocument(name: "d"), "document 'd' was dropped by another process"),
            (.corruptFile(path: "/tmp/\(hostile).sqlite", problem: "bad header"), #"database '/tmp/x\u{1b}[2J\u{202e}.sqlite' is corrupt: bad header"#),
            (.inFile(path: "in.json", .noSuchRow("a")), "'in.json': no row 'a'"),
            (.cannotOpenDatabase(path: hostile, verb: "open", problem: "it is a directory"),
             #"cannot open database 'x\u{1b}[2J\u{202e}': it is a directory"#),
            (.cannotRead(path: hostile, problem: "No such file or directory"), #"cannot read 'x\u{1b}[2J\u{202e}': No such file or directory"#),
            (.cannotWrite(path: hostile, problem: "Permission denied"), #"cannot write 'x\u{1b}[2J\u{202e}': Permission denied"#),
            (.recovered(.staleDocument(name: "d", storedVersion: 3, sessionVersion: 2), .reloaded),
             "document 'd' was changed by another process (stored version 3, this session has 2); reloaded it: run the command again"),
            (.recovered(.noSuchRow("c"), .closed), "no row 'c'; the document is closed"),
            (.recovered(.droppedDocument(name: "d"), .closedDropped(namesake: "d")),
             "document 'd' was dropped by another process; closed it (a new document 'd' exists: 'open d' to edit it)"),
            (.recovered(.droppedDocument(name: "d"), .closedDropped(namesake: nil)), "document 'd' was dropped by another process; closed it"),
        ]
        for (kind, text) in cases {
            #expect(StackDocError(kind).message == text)
            let raw = StackDocError(kind).message.unicodeScalars.contains { $0.isEscapedInText }
            #expect(!raw, "\(kind)")
        }
    }

    @Test func pathsAreNeverCutNamesAre() {
        let long = "/" + String(repeating: "d", count: 100) + "/file.sqlite"
        #expect(StackDocError(.corruptFile(path: long, problem: "p")).message == "database '\(long)' is corrupt: p")
        #expect(StackDocError(.noSuchRow(String(repeating: "r", count: 100))).message == "no row '\(String(repeating: "r", count: 40))…'")
    }

    @Test func theGeneralCaseKeepsItsText() {
        let error = StackDocError("something went wrong")
        #expect(error.kind == .message("something went wrong"))
        #expect(error.message == "something went wrong")
        #expect(error == StackDocError(.message("something went wrong")))
        #expect(StackDocError(.noSuchRow("a")) == StackDocError("no row 'a'"))  // equal when they say the same
    }

    /// A hostile path reaches the terminal escaped through every command that names a file.
    @Test func hostilePathsAreEscapedInCommandErrors() throws {
        let out = try LabelEscapingTests.run(["new d", "import \"no\u{1b}]0;x\u{7}.json\"", "export \"no-dir\u{202e}/x.json\"",
                                              "log export \"no-dir\u{1b}/x.sd\""])
        #expect(out[1] == #"error: cannot read 'no\u{1b}]0;x\u{7}.json': No such file or directory"#, "\(out)")
        #expect(out[2].hasPrefix(#"error: cannot write 'no-dir\u{202e}/x.json': "#), "\(out)")
        #expect(out[3].hasPrefix(#"error: cannot write 'no-dir\u{1b}/x.sd': "#), "\(out)")
        LabelEscapingTests.expectClean(out)
    }
}
