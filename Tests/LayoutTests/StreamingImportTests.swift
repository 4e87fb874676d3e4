import Testing
import OrderStatistics
@testable import Layout
import StackDocTestSupport

/// `Document.importJSON(_:name:rows:)` reads the top-level rows one at a time and hands every
/// checked row over while it reads (issue 11: the store writes them meanwhile). It must read
/// exactly what the one-tree reading (`treeImport`) reads: the same document, the same problems
/// in the same order.
@Suite(.offThePool) struct StreamingImportTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// The rows handed over, in order, and the result.
    private func streamed(_ bytes: [UInt8], name: String? = nil)
        -> (rows: [ImportedRow], document: Document?, problems: [String], handedOver: Bool) {
        var rows: [ImportedRow] = []
        let result = Document.importJSON(bytes, name: name) { batch in
            rows += batch
            return true
        }
        return (rows, result.document, result.problems, result.rowsHandedOver)
    }

    @Test func everyRowIsHandedOverInDocumentOrder() throws {
        let rich = try richDocument()
        var big = Document(name: "big")
        try big.appendRow("s", config: RowConfig(stack: StackSettings()), parent: nil)
        for i in 0..<10_000 { try big.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(i % 90))), parent: i % 3 == 0 ? "s" : nil) }
        for document in [rich, big] {
            let run = streamed(bytes(document.exportJSON(pretty: false)))
            #expect(run.problems == [])
            #expect(run.handedOver)
            #expect(run.document == document)
            var expected: [String] = []
            document.forEachRow { id, parent, _, config in expected.append("\(id) \(parent ?? "-") \(config)") }
            #expect(run.rows.map { "\($0.id) \($0.parent ?? "-") \($0.config)" } == expected)
        }
    }

    @Test func defaultsAfterTheRowsAreReadAgain() throws {
        // Partial insets take their missing edges from the defaults, which come last here.
        let text = #"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","insets":{"top":1}},{"id":"b"}],"defaults":{"insets":{"top":0,"left":7,"bottom":0,"right":7}}}"#
        let run = streamed(bytes(text))
        let tree = Document.treeImport(bytes(text), name: nil)
        #expect(run.problems == [])
        #expect(!run.handedOver, "the rows handed over were read with the standard defaults")
        #expect(run.document == tree.document)
        #expect(run.document?.config(of: "a")?.insets == Edges(top: 1, left: 7, bottom: 0, right: 7))
        // Defaults before the rows: the rows are read with them at once.
        let before = #"{"format":"stackdoc/1","name":"d","defaults":{"insets":{"top":0,"left":7,"bottom":0,"right":7}},"rows":[{"id":"a","insets":{"top":1}}]}"#
        let first = streamed(bytes(before))
        #expect(first.handedOver)
        #expect(first.rows.first?.config.insets == Edges(top: 1, left: 7, bottom: 0, right: 7))
    }

    @Test func problemsAreTheOneTreeReadingsInItsOrder() {
        let many = (0..<150).map { #"{"id":"r\#($0)","grow":-1}"# }.joined(separator: ",")
        let head = (0..<120).map { #""x\#($0)":1"# }.joined(separator: ",")
        let texts = [
            // Document problems after the rows: reported before the rows' problems.
            #"{"rows":[{"id":"a","grow":-1},{"id":"a"}],"format":"stackdoc/2","name":"bad name","axis":"up"}"#,
            #"{"format":"stackdoc/1","name":"d","rows":[\#(many)]}"#,
            #"{"format":"stackdoc/1","name":"d","rows":[\#(many)],\#(head)}"#,
            #"{"format":"stackdoc/1","name":"d",\#(head),"rows":[{"id":"a","grow":-1}]}"#,
            #"{"format":"stackdoc/1","name":"d","rows":[{"id":"s","stack":{"rows":[{"id":"s"},{"id":"t","q":1}]}},5,{}]}"#,
            #"{"format":"stackdoc/1","name":"d","rows":{"id":"a"}}"#,
            #"{"format":"stackdoc/1","name":"d","rows":[{"id":"a"}],"rows":[]}"#,
            #"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","grow":-1}, ]}"#,
            #"{"format":"stackdoc/1","name":"d","rows":[{"id":"a"}],"defaults":{"insets":5}}"#,
            #"[{"id":"a"}]"#,
        ]
        for text in texts {
            let run = streamed(bytes(text))
            let tree = Document.treeImport(bytes(text), name: nil)
            #expect(run.problems == tree.problems, "\(text.prefix(80))")
            #expect(!run.problems.isEmpty && run.document == nil)
        }
    }

    /// The streaming reading appends rows without looking their ids up and indexes them all at
    /// the end (`DocumentImporter.indexesAtEnd`); a repeated id found there has the file read
    /// again the way that looks each id up. So the problems are still the one-tree reading's:
    /// the repeated id named at its second row's path, in document order among the other
    /// problems, a repeated stack's rows left unread, nothing past the 100th problem.
    @Test func repeatedIdsAreTheOneTreeReadingsProblems() throws {
        let bad = (0..<120).map { #"{"id":"b\#($0)","grow":-1}"# }.joined(separator: ",")
        let big = (0..<5_000).map { #"{"id":"r\#($0)","size":{"fixed":\#($0 % 90)}}"# }
        let rows = [
            #"{"id":"a"},{"id":"b"},{"id":"a"}"#,
            #"{"id":"a","grow":-1},{"id":"a"},{"id":"c","grow":-2},{"id":"c"}"#,
            #"{"id":"a"},{"id":"s","stack":{"rows":[{"id":"a"},{"id":"t","grow":-1}]}}"#,
            #"{"id":"s","stack":{}},{"id":"s","stack":{"rows":[{"id":"x","grow":-1}]}},{"id":"x"}"#,
            #"{"id":"s","stack":{"rows":[{"id":"s"},{"id":"u","stack":{"rows":[{"id":"u"}]}}]}}"#,
            bad + #",{"id":"b3"}"#,
            #"{"id":"b3"},"# + bad,
            (big + [#"{"id":"r17","size":{"fixed":1}}"#] + big.suffix(3)).joined(separator: ","),
            #"{"id":"r1"},"# + big.joined(separator: ","),
        ]
        for body in rows {
            let text = #"{"format":"stackdoc/1","name":"d","rows":["# + body + "]}"
            let run = streamed(bytes(text))
            let tree = Document.treeImport(bytes(text), name: nil)
            #expect(run.problems == tree.problems, "\(text.prefix(80))")
            #expect(run.problems.contains { $0.contains("duplicate id") } || run.problems.count == DocumentImporter.maxProblems)
            #expect(run.document == nil)
        }
        let text = #"{"format":"stackdoc/1","name":"d","rows":["# + big.joined(separator: ",") + #",{"id":"r4321"}]}"#
        #expect(streamed(bytes(text)).problems == ["rows[5000].id: duplicate id 'r4321'"])
        #expect { try Document(json: text) } throws: { "\($0)" == "rows[5000].id: duplicate id 'r4321'" }
    }

    /// Rows appended unplaced and placed and indexed at the end (`DocumentRows.appendUnplaced`,
    /// `placeAndIndex`) make the document that appending each row makes: order, ids, configs,
    /// stacks, and edits after it.
    @Test func rowsPlacedAtTheEndAreTheRowsAppendedOneByOne() throws {
        var rng = SplitMix64(seed: 11)
        for n in [0, 1, 7, 3_000, 20_000] {
            var expected = Document(name: "d")
            var bulk = Document(name: "d")
            var stacks: [(id: RowID, slot: Int32)] = []
            for i in 0..<n {
                let config = DocumentStoragePropertyTests.randomConfig(&rng, stack: i % 50 == 0)
                let parent = stacks.isEmpty || rng.chance(3) ? nil : rng.pick(stacks)
                try expected.appendRow("r\(i)", config: config, parent: parent?.id)
                let slot = bulk.rows.appendUnplaced("r\(i)", config, parent: parent?.slot ?? -1)
                if config.stack != nil { stacks.append(("r\(i)", slot)) }
            }
            #expect(bulk.rows.placeAndIndex() == nil)
            #expect(bulk == expected)
            #expect(bulk.rowCount == n)
            #expect(bulk.rows.orderInvariantViolation() == nil)
            if n > 0 {
                #expect(bulk.contains("r\(n - 1)") && bulk.index(of: "r0") == expected.index(of: "r0"))
                try bulk.insertRow("new", config: RowConfig(), parent: nil, at: 0)
                try bulk.removeRow("r\(n - 1)")
                #expect(bulk.rows.orderInvariantViolation() == nil && !bulk.contains("r\(n - 1)") && bulk.contains("new"))
            }
        }
        var twice = Document(name: "d")
        for id in ["a", "b", "c", "b"] { _ = twice.rows.appendUnplaced(id, RowConfig(), parent: -1) }
        #expect(twice.rows.placeAndIndex() != nil)
    }

    @Test func aSinkThatSaysNoStopsTheReading() throws {
        var big = Document(name: "big")
        for i in 0..<20_000 { try big.appendRow("r\(i)", config: RowConfig(), parent: nil) }
        var batches = 0
        let result = Document.importJSON(bytes(big.exportJSON(pretty: false))) { _ in
            batches += 1
            return false
        }
        #expect(batches == 1)
        #expect(result.document == nil && result.problems == ["stopped"])
    }
}
