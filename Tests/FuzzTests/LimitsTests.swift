import Foundation
import Layout
import Store
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// The documented resource limits (docs/hardening.md), each at the limit and just past it,
/// through the paths users take: commands and `stackdoc/1` import.
@Suite(.longRunning) struct LimitsTests {
    func document(_ rows: String, extra: String = "") -> [UInt8] {
        Array(#"{"format":"stackdoc/1","name":"d"\#(extra),"rows":[\#(rows)]}"#.utf8)
    }

    @Test func rowIDLength() throws {
        let h = try HostileSession()
        let at = String(repeating: "i", count: DocumentLimits.maxNameLength)
        try h.run("add \(at)")
        try h.refused("add \(at)j", "invalid row id")
        #expect(Document.importJSON(document(#"{"id":"\#(at)"}"#)).document != nil)
        #expect(Document.importJSON(document(#"{"id":"\#(at)j"}"#)).problems.first?.hasPrefix("rows[0].id: invalid row id") == true)
    }

    @Test func documentNameAndTypeLength() throws {
        let h = try HostileSession()
        let at = String(repeating: "n", count: DocumentLimits.maxNameLength)
        try h.run("set a type \(at)")
        try h.refused("set a type \(at)x", "invalid type")
        try h.refused("new \(at)x", "invalid document name")
        try h.run("new \(at)")
        #expect(try h.store.documentNames().contains(at))
    }

    @Test func nestingDepth() throws {
        let h = try HostileSession()
        // s is at depth 1; each add puts a stack one level deeper.
        var parent = "s"
        for depth in 2..<DocumentLimits.maxDepth {
            try h.run("add n\(depth) stack vertical in \(parent)")
            parent = "n\(depth)"
        }
        try h.run("add leaf in \(parent)")  // depth 32: the limit
        try h.refused("add too in leaf", "not a stack")
        try h.run("set leaf stack vertical")  // an empty stack at depth 32 is fine
        try h.refused("add too in leaf", "32")  // depth 33
        try h.refused("move a to top in leaf", "32")
        try h.run("add t stack vertical")
        try h.run("add t1 in t")
        try h.refused("move t to top in \(parent)", "32")  // t's row would be at depth 33
    }

    @Test func valueSize() throws {
        let h = try HostileSession()
        try h.run("add c fixed 1e9 grow 1e9 insets 1e9 1e9 1e9 1e9")
        try h.refused("add d fixed 1000000000.0000001", "must be ≤ 1000000000")
        try h.refused("set c grow 1.0000001e9", "must be ≤ 1000000000")
    }

    @Test func scriptLineLength() throws {
        let h = try HostileSession()
        // At the limit: a line of exactly maxLineLength bytes runs (spaces pad it).
        let command = "add z fixed 1"
        let at = command + String(repeating: " ", count: Parser.maxLineLength - command.utf8.count)
        #expect(at.utf8.count == Parser.maxLineLength)
        try h.run(at)
        #expect(h.document.config(of: "z") != nil)
        try h.refused(at + " ", "line too long: \(Parser.maxLineLength + 1) bytes (the limit is \(Parser.maxLineLength))")
    }

    @Test func jsonDepth() {
        let at = String(repeating: "[", count: DocumentLimits.maxJSONDepth - 3) + String(repeating: "]", count: DocumentLimits.maxJSONDepth - 3)
        // The document object, the rows array and the row object are three levels: an extra
        // field nested to the limit is read (and refused as an unknown field).
        let ok = Document.importJSON(document(#"{"id":"a","x":\#(at)}"#)).problems
        #expect(ok.first?.contains("unknown field") == true, "\(ok)")
        let past = "[" + at + "]"
        #expect(Document.importJSON(document(#"{"id":"a","x":\#(past)}"#)).problems == ["line 1, column 567: JSON nested deeper than 512 levels"]
                || Document.importJSON(document(#"{"id":"a","x":\#(past)}"#)).problems.first?.hasSuffix("JSON nested deeper than 512 levels") == true)
    }

    @Test func jsonSize() throws {
        #expect(DocumentLimits.jsonSizeProblem(DocumentLimits.maxJSONBytes) == nil)
        #expect(DocumentLimits.jsonSizeProblem(DocumentLimits.maxJSONBytes + 1)
            == "the document is 1073741825 bytes, more than the limit of 1073741824 bytes (1 GiB)")
        // A file just past the limit (sparse: no disk used) is refused before it is read.
        let h = try HostileSession()
        let dir = try Scratch.directory("limit")
        defer { Scratch.remove(dir) }
        let path = dir + "/big.json"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, off_t(DocumentLimits.maxJSONBytes + 1)) == 0)
        let start = Date()
        try h.refused("import \(path)", "cannot read '\(path)': the document is 1073741825 bytes, more than the limit")
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(try h.store.documentNames() == ["h"])
    }

    /// Rows per document: a million. Building a document at the limit takes a while in a debug
    /// build, so CI checks just past the limit on a document one add away from it.
    @Test func rowsPerDocument() throws {
        var doc = Document(name: "big")
        doc.reserveCapacity(rows: DocumentLimits.maxRows, rootRows: DocumentLimits.maxRows)
        for i in 0..<(DocumentLimits.maxRows - 2) { try doc.insertRow("r\(i)", config: RowConfig(), parent: nil, at: i) }
        // Two more fit (the limit), three do not.
        #expect(thrownMessage {
            _ = try doc.plan(.add(ids: ["x", "y", "z"], spec: [], position: nil, parent: nil))
        } == "add: a document holds at most 1000000 rows")
        let changes = try doc.plan(.add(ids: ["x", "y"], spec: [], position: nil, parent: nil))
        try doc.apply(changes)
        #expect(doc.rowCount == DocumentLimits.maxRows)
        #expect(thrownMessage {
            _ = try doc.plan(.add(ids: ["z"], spec: [], position: .top, parent: nil))
        } == "add: a document holds at most 1000000 rows")
        // Import: the same limit, with a path.
        let store = try DocumentStore(path: ":memory:")
        try doc.insertRow("z", config: RowConfig(), parent: nil, at: 0)
        #expect(thrownMessage {
            _ = try store.importDocument(doc)
        } == "import: a document holds at most 1000000 rows, this one has 1000001")
    }
}
