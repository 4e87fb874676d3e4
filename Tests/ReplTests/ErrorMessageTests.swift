import Testing
import Layout
import Store
import StackDocTestSupport
@testable import repl
@testable import StackDocScript

/// Every layer's error is data (a kind and its values) with one renderer that quotes and escapes
/// every user value: `StackDocError` (the document's rules), `StoreError` (the store),
/// `CommandError` (the command language); `ErrorReport` renders any of them. Errors are equal by
/// kind and values, never by text; `StackDocError("…")` stays the general case.
@Suite(.offThePool) struct ErrorMessageTests {
    static let hostile = "x\u{1B}[2J\u{202E}"

    func expectRendered(_ error: some UserFacingError & Hashable, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error.message == text, sourceLocation: sourceLocation)
        #expect(ErrorReport(error).message == text, sourceLocation: sourceLocation)
        #expect(ErrorReport(error).exitStatus == 1, sourceLocation: sourceLocation)
        #expect(!error.message.unicodeScalars.contains { $0.isEscapedInText }, "\(error)", sourceLocation: sourceLocation)
    }

    @Test func everyDocumentKindRendersItsValuesQuotedAndEscaped() {
        let hostile = Self.hostile
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
        ]
        for (kind, text) in cases { expectRendered(StackDocError(kind), text) }
    }

    @Test func everyStoreKindRendersItsValuesQuotedAndEscaped() {
        let hostile = Self.hostile
        let cases: [(StoreError.Kind, String)] = [
            (.staleDocument(name: "d", storedVersion: 3, sessionVersion: 2),
             "document 'd' was changed by another process (stored version 3, this session has 2): reload it and try again"),
            (.droppedDocument(name: "d"), "document 'd' was dropped by another process"),
            (.editConflict(name: "d", entry: 15, kind: "op", step: 14, origin: hostile, what: "row 'r7' field size"),
             #"conflict: step 14 by 'x\u{1b}[2J\u{202e}' changed row 'r7' field size since you read document 'd'; it is reloaded, nothing was written"#),
            (.editConflict(name: "d", entry: 15, kind: "undo", step: nil, origin: nil, what: "row 'r7' (moved it)"),
             "conflict: log entry 15 (undo) by an unknown origin changed row 'r7' (moved it) since you read document 'd'; it is reloaded, nothing was written"),
            (.corruptFile(path: "/tmp/\(hostile).sqlite", problem: "bad header"), #"database '/tmp/x\u{1b}[2J\u{202e}.sqlite' is corrupt: bad header"#),
            (.cannotOpenDatabase(path: hostile, verb: "open", problem: "it is a directory"),
             #"cannot open database 'x\u{1b}[2J\u{202e}': it is a directory"#),
            (.databaseBusy(path: "f", detail: "database is locked"), "database 'f' is busy: another process holds it locked (database is locked)"),
            (.diskFull(path: "f"), "database 'f': the disk is full"),
            (.storeInvariant("x"), "internal store error: x"),
        ]
        for (kind, text) in cases { expectRendered(StoreError(kind), text) }
    }

    @Test func everyCommandKindRendersItsValuesQuotedAndEscaped() {
        let hostile = Self.hostile
        let cases: [(CommandError.Kind, String)] = [
            (.inFile(path: "in.json", .noSuchRow("a")), "'in.json': no row 'a'"),
            (.cannotRead(path: hostile, problem: "No such file or directory"), #"cannot read 'x\u{1b}[2J\u{202e}': No such file or directory"#),
            (.cannotWrite(path: hostile, problem: "Permission denied"), #"cannot write 'x\u{1b}[2J\u{202e}': Permission denied"#),
            (.syntax(.unknownCommand(hostile, suggestion: nil)), #"unknown command 'x\u{1b}[2J\u{202e}' (type 'help' for the list)"#),
            (.recovered(.store(.staleDocument(name: "d", storedVersion: 3, sessionVersion: 2)), .reloaded),
             "document 'd' was changed by another process (stored version 3, this session has 2); reloaded it: run the command again"),
            (.recovered(.document(.noSuchRow("c")), .closed), "no row 'c'; the document is closed"),
            (.recovered(.store(.droppedDocument(name: "d")), .closedDropped(namesake: "d")),
             "document 'd' was dropped by another process; closed it (a new document 'd' exists: 'open d' to edit it)"),
            (.recovered(.store(.droppedDocument(name: "d")), .closedDropped(namesake: nil)), "document 'd' was dropped by another process; closed it"),
            (.recovered(.other("boom"), .closed), "boom; the document is closed"),
        ]
        for (kind, text) in cases { expectRendered(CommandError(kind), text) }
    }

    @Test func pathsAreNeverCutNamesAre() {
        let long = "/" + String(repeating: "d", count: 100) + "/file.sqlite"
        #expect(StoreError(.corruptFile(path: long, problem: "p")).message == "database '\(long)' is corrupt: p")
        #expect(StackDocError(.noSuchRow(String(repeating: "r", count: 100))).message == "no row '\(String(repeating: "r", count: 40))…'")
    }

    @Test func theGeneralCaseKeepsItsText() {
        let error = StackDocError("something went wrong")
        #expect(error.kind == .message("something went wrong"))
        #expect(error.message == "something went wrong")
        #expect(error == StackDocError(.message("something went wrong")))
    }

    /// Two errors are equal when their kinds and values are: never because their texts are.
    @Test func errorsAreEqualByKindAndValuesNotByText() {
        #expect(StackDocError(.noSuchRow("a")) != StackDocError("no row 'a'"))
        #expect(StackDocError(.noSuchRow("a")).message == StackDocError("no row 'a'").message)
        #expect(StackDocError(.noSuchRow("a")) == StackDocError(.noSuchRow("a")))
        #expect(StoreError(.diskFull(path: "a")) == StoreError(.diskFull(path: "a")))
        #expect(StoreError(.diskFull(path: "a")) != StoreError(.diskFull(path: "b")))
        // Same text, other kinds: a database error whose detail reads like the disk-full message.
        let full = StoreError(.diskFull(path: "f"))
        let lookalike = StoreError(.databaseError(path: "f", detail: "the disk is full"))
        #expect(full.message == lookalike.message)
        #expect(full != lookalike)
        #expect(Set([full, lookalike]).count == 2)
        #expect(CommandError(.cannotRead(path: "a", problem: "p")) != CommandError(.cannotWrite(path: "a", problem: "p")))
        #expect(ErrorReport(full) == .store(.diskFull(path: "f")))
        #expect(ErrorReport(StackDocError(.noSuchRow("a"))) != ErrorReport(StackDocError("no row 'a'")))
    }

    /// Each layer throws its own errors: the document's rules, the store's failures, the
    /// command language's syntax and files.
    @Test func eachLayerThrowsItsOwnErrors() throws {
        #expect(throws: CommandError(.syntax(.unknownCommand("qqqqq", suggestion: nil)))) { try Parser.parse("qqqqq") }
        let directory = try Scratch.directory("layers")
        #expect(throws: StoreError(.cannotOpenDatabase(path: directory, verb: "open", problem: "it is a directory"))) {
            _ = try DocumentStore(path: directory)
        }
        let session = Session(store: try DocumentStore(path: ":memory:"))
        _ = try session.run(.new(name: "d", axis: nil, viewport: nil))
        #expect(throws: StackDocError(.noSuchRow("zz"))) { try session.run(.edit(.remove(ids: ["zz"]))) }
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
