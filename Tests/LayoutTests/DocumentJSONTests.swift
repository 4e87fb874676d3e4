import Testing
@testable import Layout
import StackDocTestSupport

/// A document using every feature of the format.
func richDocument() throws -> Document {
    var doc = Document(name: "rich.doc-1")
    try perform(.setStack(.axis(.horizontal)), on: &doc)
    try perform(.setStack(.padding(Edges(top: 1, left: 2, bottom: 3, right: 4.5))), on: &doc)
    try perform(.setStack(.spacing(0.1 + 0.2)), on: &doc)
    try perform(.setStack(.justify(.spaceAround)), on: &doc)
    try perform(.setStack(.align(.center)), on: &doc)
    try perform(.viewport(Size(width: 320, height: 480)), on: &doc)
    try perform(.defaults(.insets(Edges(all: 6))), on: &doc)
    try perform(.defaults(.separator([.thickness(0.5), .color("#00aa00")])), on: &doc)
    try perform(.defaults(.autoHide(false)), on: &doc)
    try perform(.add(ids: ["a"], spec: [.type("label"), .fixed(100), .content(Size(width: 10, height: 20)),
                                       .insets(Edges(all: 3)), .margin(Edges(top: 1, left: 0, bottom: 1, right: 0)),
                                       .grow(1), .shrink(0.5), .align(.end), .hidden,
                                       .separator(.hidden), .separator(.insets(Edges(all: 2))), .separator(.color("#FF0000"))],
                     position: nil, parent: nil), on: &doc)
    try perform(.add(ids: ["s"], spec: [.stack(.horizontal), .justify(.center), .alignItems(.start), .spacing(4)], position: nil, parent: nil), on: &doc)
    try perform(.add(ids: ["b", "t"], spec: [.separator(.thickness(2))], position: nil, parent: "s"), on: &doc)
    try perform(.set(id: "t", spec: [.stack(.vertical)]), on: &doc)
    try perform(.add(ids: ["c"], spec: [], position: nil, parent: "t"), on: &doc)
    try perform(.add(ids: ["empty"], spec: [.stack(.vertical)], position: nil, parent: nil), on: &doc)
    return doc
}

@Suite("stackdoc/1 export and import", .offThePool)
struct DocumentJSONTests {
    func problems(_ text: String) -> [String] { Document.importJSON(Array(text.utf8)).problems }
    func firstProblem(_ rows: String, settings: String = "") -> String? {
        problems(#"{"format":"stackdoc/1","name":"d"\#(settings),"rows":[\#(rows)]}"#).first
    }

    @Test func roundTripIsExact() throws {
        let doc = try richDocument()
        let text = doc.exportJSON()
        let back = try Document(json: text)
        #expect(back == doc)
        #expect(back.exportJSON() == text)  // byte-stable
        let compact = doc.exportJSON(pretty: false)
        #expect(try Document(json: compact) == doc)
        #expect(compact.hasSuffix("}\n") && !compact.dropLast().contains("\n"))
        #expect(text == JSONWriter.pretty(doc.jsonValue()) + "\n")
        #expect(compact == JSONWriter.compact(doc.jsonValue()) + "\n")
        let empty = Document(name: "e")
        #expect(empty.exportJSON() == JSONWriter.pretty(empty.jsonValue()) + "\n")
        #expect(empty.exportJSON().hasSuffix("  \"rows\": []\n}\n"))
    }

    @Test func exportShapeAndKeyOrder() throws {
        var doc = Document(name: "d")
        try perform(.add(ids: ["a"], spec: [.fixed(100)], position: nil, parent: nil), on: &doc)
        #expect(doc.exportJSON(pretty: false) == #"""
        {"format":"stackdoc/1","name":"d","axis":"vertical","viewport":{"width":390,"height":844},"offset":0,"padding":{"top":0,"left":0,"bottom":0,"right":0},"spacing":0,"justify":"start","align":"stretch","defaults":{"insets":{"top":12,"left":15,"bottom":12,"right":15},"separator":{"hidden":false,"insets":{"top":0,"left":15,"bottom":0,"right":0},"thickness":1,"color":"#C6C6C8"},"autoHideLastSeparator":true},"rows":[{"id":"a","type":"view","size":{"fixed":100},"content":{"width":0,"height":0},"insets":null,"margin":{"top":0,"left":0,"bottom":0,"right":0},"grow":0,"shrink":0,"alignSelf":"auto","hidden":false,"separator":{},"stack":null}]}

        """#)
        #expect(doc.exportJSON().hasPrefix("{\n  \"format\": \"stackdoc/1\",\n  \"name\": \"d\",\n  \"axis\": \"vertical\",\n  \"viewport\": {\"width\": 390, \"height\": 844},"))
    }

    @Test func omittedFieldsTakeDefaults() throws {
        let doc = try Document(json: #"{"format":"stackdoc/1","name":"d","defaults":{"insets":{"top":1}},"rows":[{"id":"a"},{"id":"s","stack":{"rows":[{"id":"b","insets":{"left":2},"separator":{"insets":{"top":3},"color":null}}]}}]}"#)
        #expect(doc.settings.viewport == Size(width: 390, height: 844))
        #expect(doc.settings.defaults.insets == Edges(top: 1, left: 15, bottom: 12, right: 15))
        #expect(doc.settings.defaults.separator == .standard)
        #expect(doc.config(of: "a") == RowConfig())
        #expect(doc.config(of: "s")?.stack == StackSettings())
        #expect(doc.children(of: "s") == ["b"])
        // Missing edges of a partial object come from the live default they replace.
        #expect(doc.config(of: "b")?.insets == Edges(top: 1, left: 2, bottom: 12, right: 15))
        #expect(doc.config(of: "b")?.separator == SeparatorOverrides(insets: Edges(top: 3, left: 15, bottom: 0, right: 0)))
        let minimal = try Document(json: #"{"format":"stackdoc/1","name":"m"}"#)
        #expect(minimal == Document(name: "m"))
    }

    @Test func nameOverride() throws {
        let doc = try Document(json: #"{"format":"stackdoc/1","name":"d"}"#, name: "other")
        #expect(doc.name == "other")
        let unnamed = try Document(json: #"{"format":"stackdoc/1"}"#, name: "x")
        #expect(unnamed.name == "x")
        #expect(errorMessage { _ = try Document(json: #"{"format":"stackdoc/1"}"#, name: "bad name") }
                == "name: invalid document name 'bad name': expected 1 to 64 characters from A-Z a-z 0-9 _ . -")
    }

    @Test func documentLevelRules() {
        #expect(problems("[]") == ["document: expected an object, got an array"])
        #expect(problems(#"{"name":"d"}"#) == [#"format: missing: a saved document has "format": "stackdoc/1""#])
        #expect(problems(#"{"format":"stackdoc/2","name":"d"}"#) == [#"format: unknown format 'stackdoc/2', expected "stackdoc/1""#])
        #expect(problems(#"{"format":1,"name":"d"}"#) == [#"format: expected the string "stackdoc/1", got a number"#])
        #expect(problems(#"{"format":"stackdoc/1"}"#) == ["name: missing: a saved document has a name"])
        #expect(problems(#"{"format":"stackdoc/1","name":"a b"}"#) == ["name: invalid document name 'a b': expected 1 to 64 characters from A-Z a-z 0-9 _ . -"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","colour":1}"#) == ["colour: unknown field (expected one of format, name, axis, viewport, viewportInsets, keyboard, safeArea, offset, padding, spacing, justify, align, defaults, rows)"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","axis":"diagonal"}"#) == ["axis: expected one of vertical, horizontal, got 'diagonal'"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","viewport":{"width":-1}}"#) == ["viewport.width: must be ≥ 0, got -1"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","viewport":[1,2]}"#) == ["viewport: expected an object {width, height}, got an array"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","offset":"0"}"#) == ["offset: expected a number, got a string"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","offset":-5}"#) == ["offset: must be ≥ 0, got -5"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","padding":{"top":1e308}}"#) == ["padding.top: must be ≤ 1000000000, got 1e+308"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","spacing":null}"#) == ["spacing: expected a number, got null"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","justify":"middle"}"#) == ["justify: expected one of start, end, center, spaceBetween, spaceAround, spaceEvenly, got 'middle'"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","align":true}"#) == ["align: expected one of start, center, end, stretch, got a boolean"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","defaults":{"autoHideLastSeparator":1}}"#) == ["defaults.autoHideLastSeparator: expected true or false, got a number"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","defaults":{"separator":{"color":"blue"}}}"#) == ["defaults.separator.color: expected a colour #RRGGBB, got 'blue'"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","defaults":{"separator":{"thickness":null}}}"#) == ["defaults.separator.thickness: expected a number, got null"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","defaults":{"inset":{}}}"#) == ["defaults.inset: unknown field (expected one of insets, separator, autoHideLastSeparator)"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","rows":{}}"#) == ["rows: expected an array of rows, got an object"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","rows":[1]}"#) == ["rows[0]: expected a row object, got a number"])
    }

    @Test func rowRules() {
        #expect(firstProblem(#"{}"#) == "rows[0].id: missing: every row needs an id")
        #expect(firstProblem(#"{"id":"1x"}"#) == "rows[0].id: invalid row id '1x': expected 1 to 64 characters from A-Z a-z 0-9 _ . - starting with a letter or _")
        #expect(firstProblem(#"{"id":"a"},{"id":"b"},{"id":"a"}"#) == "rows[2].id: duplicate id 'a'")
        #expect(firstProblem(#"{"id":"a","stack":{"rows":[{"id":"a"}]}}"#) == "rows[0].stack.rows[0].id: duplicate id 'a'")
        #expect(firstProblem(#"{"id":"a","type":""}"#) == "rows[0].type: invalid type '': expected 1 to 64 characters from A-Z a-z 0-9 _ . -")
        #expect(firstProblem(#"{"id":"a","size":"auto"}"#) == #"rows[0].size: expected "fit" or {"fixed": N}"#)
        #expect(firstProblem(#"{"id":"a","size":{"fixed":-1}}"#) == "rows[0].size.fixed: must be ≥ 0, got -1")
        #expect(firstProblem(#"{"id":"a","size":{"fix":1}}"#) == "rows[0].size.fix: unknown field (expected one of fixed)")
        #expect(firstProblem(#"{"id":"a","content":{"width":1,"height":-2}}"#) == "rows[0].content.height: must be ≥ 0, got -2")
        #expect(firstProblem(#"{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d","insets":{"top":-1}}"#) == "rows[3].insets.top: must be ≥ 0, got -1")
        #expect(firstProblem(#"{"id":"a","insets":{"top":1,"middle":2}}"#) == "rows[0].insets.middle: unknown field (expected one of top, left, bottom, right)")
        #expect(firstProblem(#"{"id":"a","margin":null}"#) == "rows[0].margin: expected an object {top, left, bottom, right}, got null")
        #expect(firstProblem(#"{"id":"a","grow":-1}"#) == "rows[0].grow: must be ≥ 0, got -1")
        #expect(firstProblem(#"{"id":"a","shrink":"1"}"#) == "rows[0].shrink: expected a number, got a string")
        #expect(firstProblem(#"{"id":"a","alignSelf":"top"}"#) == "rows[0].alignSelf: expected one of auto, start, center, end, stretch, got 'top'")
        #expect(firstProblem(#"{"id":"a","hidden":"yes"}"#) == "rows[0].hidden: expected true or false, got a string")
        #expect(firstProblem(#"{"id":"a","separator":{"thickness":-1}}"#) == "rows[0].separator.thickness: must be ≥ 0, got -1")
        #expect(firstProblem(##"{"id":"a","separator":{"color":"#12345"}}"##) == "rows[0].separator.color: expected a colour #RRGGBB, got '#12345'")
        #expect(firstProblem(#"{"id":"a","separator":{"width":1}}"#) == "rows[0].separator.width: unknown field (expected one of hidden, insets, thickness, color)")
        #expect(firstProblem(#"{"id":"a","stack":{"axis":"z"}}"#) == "rows[0].stack.axis: expected one of vertical, horizontal, got 'z'")
        #expect(firstProblem(#"{"id":"a","stack":{"spacing":-4}}"#) == "rows[0].stack.spacing: must be ≥ 0, got -4")
        #expect(firstProblem(#"{"id":"a","stack":{"rows":[{"id":"b","stack":{"rowz":[]}}]}}"#) == "rows[0].stack.rows[0].stack.rowz: unknown field (expected one of axis, justify, align, spacing, rows)")
        #expect(firstProblem(#"{"id":"a","stack":true}"#) == "rows[0].stack: expected null or a stack object, got a boolean")
        #expect(firstProblem(#"{"id":"a","rows":[]}"#) == "rows[0].rows: unknown field (expected one of \(DocumentImporter.rowKeys))")
        let hostileKey = String(repeating: "k", count: 10_000)
        #expect(firstProblem(#"{"id":"a","\#(hostileKey)":1}"#) == "rows[0].'\(String(repeating: "k", count: 40))…': unknown field (expected one of \(DocumentImporter.rowKeys))")
    }

    @Test func nestingLimit() {
        func nested(_ depth: Int) -> String {
            var row = #"{"id":"r\#(depth)"}"#
            for d in stride(from: depth - 1, through: 1, by: -1) { row = #"{"id":"r\#(d)","stack":{"rows":[\#(row)]}}"# }
            return #"{"format":"stackdoc/1","name":"d","rows":[\#(row)]}"#
        }
        #expect(problems(nested(32)).isEmpty)
        let message = problems(nested(33)).first ?? ""
        #expect(message == String(repeating: "rows[0].stack.", count: 32) + "rows[0]: rows nested deeper than 32 levels")
    }

    @Test func collectsSeveralProblemsAndThrowsTheFirst() {
        let text = #"{"format":"stackdoc/1","name":"d","spacing":-1,"rows":[{"id":"a","grow":-2},{"id":"a"}]}"#
        #expect(problems(text) == ["spacing: must be ≥ 0, got -1", "rows[0].grow: must be ≥ 0, got -2", "rows[1].id: duplicate id 'a'"])
        #expect(errorMessage { _ = try Document(json: text) } == "spacing: must be ≥ 0, got -1 (and 2 more problems)")
        let many = (0..<500).map { #"{"id":"r\#($0)","grow":-1}"# }.joined(separator: ",")
        #expect(firstProblem(many) != nil)
        #expect(problems(#"{"format":"stackdoc/1","name":"d","rows":[\#(many)]}"#).count == DocumentImporter.maxProblems)
    }

    @Test func syntaxErrorsAreTheOnlyProblem() {
        #expect(problems(#"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","grow":NaN}]}"#) == ["line 1, column 60: expected a value, found character 'N'"])
        #expect(problems(#"{"format":"stackdoc/1","name":"d","offset":1e999}"#) == ["line 1, column 44: number 1e999 is out of range"])
    }

    @Test func offsetsBeyondTheLengthCapRoundTrip() throws {
        // A long document can be scrolled past 1e9 points; its saved offset must read back.
        var doc = Document(name: "long")
        try perform(.add(ids: (0..<3).map { "r\($0)" }, spec: [.fixed(1e9)], position: nil, parent: nil), on: &doc)
        try perform(.scroll(.offset(2.5e9)), on: &doc)
        #expect(doc.settings.offset == 2.5e9)
        #expect(try Document(json: doc.exportJSON()) == doc)
        #expect(problems(#"{"format":"stackdoc/1","name":"d","offset":-1}"#) == ["offset: must be ≥ 0, got -1"])
    }

    @Test func hostileNumbersAndNegativeZero() throws {
        let doc = try Document(json: #"{"format":"stackdoc/1","name":"d","offset":-0,"rows":[{"id":"a","grow":1e-300,"size":{"fixed":-0.0}}]}"#)
        #expect(doc.settings.offset.sign == .plus)
        #expect(doc.config(of: "a")?.grow == 1e-300)
        #expect(doc.exportJSON(pretty: false).contains(#""size":{"fixed":0}"#))
        #expect(doc.exportJSON(pretty: false).contains(#""grow":1e-300"#))
    }
}
