import Testing
@testable import Layout

/// `Document.importJSON(_:name:rows:)` reads the top-level rows one at a time and hands every
/// checked row over while it reads (issue 11: the store writes them meanwhile). It must read
/// exactly what the one-tree reading (`treeImport`) reads: the same document, the same problems
/// in the same order.
@Suite struct StreamingImportTests {
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
