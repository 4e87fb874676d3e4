import Foundation
import Layout
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// A temporary file holding `text`, in a fresh folder of its own under the temporary directory
/// (left there: it holds a few hundred bytes).
func temporaryFile(_ text: String, name: String = "doc.json") throws -> String {
    let dir = try Scratch.url("oneshot")
    let url = dir.appending(path: name)
    try Data(text.utf8).write(to: url)
    return url.path
}

let oneShotSample = """
{"format":"stackdoc/1","name":"d","viewport":{"width":390,"height":300},
 "rows":[{"id":"a","size":{"fixed":100}},
         {"id":"s","stack":{"axis":"horizontal","rows":[{"id":"b","content":{"width":50,"height":30}},{"id":"c","hidden":true}]}},
         {"id":"d","size":{"fixed":200}}]}
"""

@Suite("One-shot layout and check", .longRunning)
struct OneShotTests {
    @Test func layoutTable() throws {
        let path = try temporaryFile(oneShotSample)
        let r = OneShot.layout(path: path, offset: nil, json: false)
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.stdout == """
        #  id   type  frame          visibility
        0  a    view  0,0 390x124    entire 100%
        1  s    view  0,124 390x78   entire 100%
        0    b  view  15,136 80x54   entire 100%
        1    c  view  -              hidden
        2  d    view  0,202 390x224  partial 43.75%
        content 390x426  viewport 390x300  offset 0

        """)
    }

    @Test func layoutJSONIsTheSpecShape() throws {
        let path = try temporaryFile(oneShotSample)
        let r = OneShot.layout(path: path, offset: nil, json: true)
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix(#"{"document":"d","axis":"vertical","viewport":{"width":390,"height":300},"offset":0,"contentSize":{"width":390,"height":426},"rows":[{"id":"a","parent":null,"index":0,"hidden":false,"frame":{"x":0,"y":0,"width":390,"height":124},"content":{"x":15,"y":12,"width":360,"height":100},"separator":{"x":15,"y":123,"width":375,"height":1},"visibility":"entire","percent":100},"#))
        #expect(r.stdout.contains(#"{"id":"c","parent":"s","index":1,"hidden":true,"frame":null,"content":null,"separator":null,"visibility":"hidden","percent":0}"#))
        #expect(r.stdout.hasSuffix("}]}\n"))
        #expect(r.stdout.filter { $0 == "\n" }.count == 1)  // one line
        // The output is JSON this package reads back.
        let value = try JSONParser.parse(r.stdout)
        guard case let .array(rows)? = value["rows"] else { Issue.record("no rows"); return }
        #expect(rows.count == 5)
    }

    @Test func offsetOverrideIsClamped() throws {
        let path = try temporaryFile(oneShotSample)
        let mid = OneShot.layout(path: path, offset: 50, json: true)
        #expect(mid.stdout.contains(#""offset":50,"#))
        let far = OneShot.layout(path: path, offset: 1e12, json: true)
        #expect(far.stdout.contains(#""offset":126,"#))  // content 426 − viewport 300
        let negative = OneShot.layout(path: path, offset: -10, json: false)
        #expect(negative.stdout.hasSuffix("offset 0\n"))
        let nan = OneShot.layout(path: path, offset: .nan, json: false)
        #expect(nan.status == 1 && nan.stderr == "error: --offset: must be a finite number, got nan\n")
    }

    @Test func layoutUsesTheSavedOffsetClamped() throws {
        let path = try temporaryFile(oneShotSample.replacingOccurrences(of: #""name":"d","#, with: #""name":"d","offset":500,"#))
        #expect(OneShot.layout(path: path, offset: nil, json: true).stdout.contains(#""offset":126,"#))
    }

    @Test func checkGoodAndBad() throws {
        let good = try temporaryFile(oneShotSample)
        #expect(OneShot.check(path: good) == OneShot.Result(status: 0, stdout: "\(good): ok (stackdoc/1 document 'd', 5 rows)\n", stderr: ""))
        let bad = try temporaryFile(#"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","grow":-1},{"id":"a","insets":{"top":"x"}}]}"#)
        let r = OneShot.check(path: bad)
        #expect(r.status == 1 && r.stdout.isEmpty)
        #expect(r.stderr == """
        \(bad): rows[0].grow: must be ≥ 0, got -1
        \(bad): rows[1].insets.top: expected a number, got a string
        \(bad): rows[1].id: duplicate id 'a'

        """)
        let syntax = try temporaryFile("{\"format\":\"stackdoc/1\",\n\"name\":}")
        #expect(OneShot.check(path: syntax).stderr == "\(syntax): line 2, column 8: expected a value, found character '}'\n")
        // A bad document makes `layout` fail the same way.
        #expect(OneShot.layout(path: bad, offset: nil, json: false).status == 1)
    }

    @Test func checkTakesSeveralFilesAndJSON() throws {
        let good = try temporaryFile(oneShotSample)
        let bad = try temporaryFile(#"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","grow":-1}]}"#)
        let missing = "/nonexistent-dir/doc.json"
        let text = OneShot.check(paths: [good, bad, missing, good], json: false)
        #expect(text.status == 1)
        #expect(text.stdout == String(repeating: "\(good): ok (stackdoc/1 document 'd', 5 rows)\n", count: 2))
        #expect(text.stderr == "\(bad): rows[0].grow: must be ≥ 0, got -1\nerror: cannot read '\(missing)': No such file or directory\n")
        let json = OneShot.check(paths: [good, bad, missing], json: true)
        #expect(json.status == 1 && json.stderr.isEmpty)
        #expect(json.stdout == """
        {"file":\(JSONWriter.compact(.string(good))),"ok":true,"document":"d","rows":5}
        {"file":\(JSONWriter.compact(.string(bad))),"ok":false,"problems":["rows[0].grow: must be ≥ 0, got -1"]}
        {"file":"\(missing)","ok":false,"problems":["cannot read '\(missing)': No such file or directory"]}

        """)
        #expect(OneShot.check(paths: [good, good], json: true).status == 0)
    }

    @Test func unreadableFilesGiveOneLineNamingTheFile() throws {
        let missing = "/nonexistent-dir/doc.json"
        #expect(OneShot.check(path: missing) == OneShot.Result(status: 1, stdout: "", stderr: "error: cannot read '\(missing)': No such file or directory\n"))
        let dir = FileManager.default.temporaryDirectory.path
        #expect(OneShot.layout(path: dir, offset: nil, json: false).stderr == "error: cannot read '\(dir)': it is a directory\n")
        let binary = try temporaryFile("")
        try Data([0x7B, 0xFF, 0x00]).write(to: URL(fileURLWithPath: binary))
        #expect(OneShot.check(path: binary).stderr == "\(binary): line 1, column 2: expected a string key, found byte 0xFF\n")
    }

    @Test func tableOfAnEmptyDocument() {
        let layout = Document(name: "e").layout()
        #expect(LayoutOutput.table(layout) == "#  id  type  frame  visibility\ncontent 390x844  viewport 390x844  offset 0")
        #expect(LayoutOutput.json(layout) == #"{"document":"e","axis":"vertical","viewport":{"width":390,"height":844},"offset":0,"contentSize":{"width":390,"height":844},"rows":[]}"#)
    }

    @Test func eventsAndRowSubsets() throws {
        var doc = Document(name: "d")
        try doc.apply(doc.plan(.add(ids: ["a", "b"], spec: [.fixed(376)], position: nil, parent: nil)))
        let layout = doc.layout()
        #expect(LayoutOutput.json(layout, rows: [layout.rows[1]]).contains(#""rows":[{"id":"b","parent":null,"index":1,"#))
        #expect(JSONWriter.compact(LayoutOutput.eventJSON(VisibilityTransition(row: "a", from: .offscreen, to: .partial)))
                == #"{"row":"a","from":"offscreen","to":"partial"}"#)
        #expect(LayoutOutput.table(layout, rows: [layout.rows[1]]).split(separator: "\n").count == 3)
    }
}

@Suite("One-shot commands end to end", .enabled(if: Binary.hasStackdoc, "needs the built stackdoc executable"), .longRunning)
struct OneShotProcessTests {
    func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await TestThread.run {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.stackdoc!)
            process.arguments = arguments
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
        }
    }

    @Test func layoutAndCheckThroughTheBinary() async throws {
        let path = try temporaryFile(oneShotSample)
        let layout = try await run(["layout", path, "--offset", "50", "--json"])
        #expect(layout.status == 0)
        #expect(layout.stdout == OneShot.layout(path: path, offset: 50, json: true).stdout)
        let check = try await run(["check", path])
        #expect(check.status == 0 && check.stdout == "\(path): ok (stackdoc/1 document 'd', 5 rows)\n")
        let bad = try temporaryFile(#"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","margin":{"top":-1}}]}"#)
        let failed = try await run(["check", bad])
        #expect(failed.status == 1 && failed.stderr == "\(bad): rows[0].margin.top: must be ≥ 0, got -1\n")
        let both = try await run(["check", path, bad, "--json"])
        #expect(both.status == 1 && both.stdout == OneShot.check(paths: [path, bad], json: true).stdout)
        let none = try await run(["check"])
        #expect(none.status != 0 && none.stderr.contains("Missing expected argument"), "\(none.stderr)")
        let missing = try await run(["layout", "/nonexistent/x.json"])
        #expect(missing.status == 1 && missing.stderr == "error: cannot read '/nonexistent/x.json': No such file or directory\n")
    }
}

@Suite("Layout output: streamed JSON equals the JSON value", .longRunning)
struct LayoutOutputEquivalenceTests {
    @Test func streamedJSONMatchesTheTree() throws {
        let doc = try Document(json: oneShotSample.replacingOccurrences(of: #""name":"d","#, with: #""name":"d","offset":33.3,"#))
        var layout = doc.layout()
        layout.document = "d\"q\n\u{1}é"
        layout.rows[0].percent = 1.0 / 3
        layout.rows[1].frame?.x = -0.5e-9
        #expect(LayoutOutput.json(layout) == JSONWriter.compact(LayoutOutput.jsonValue(layout)))
        #expect(LayoutOutput.json(layout, rows: Array(layout.rows.suffix(2))) == JSONWriter.compact(LayoutOutput.jsonValue(layout, rows: Array(layout.rows.suffix(2)))))
        #expect(LayoutOutput.json(layout).contains(#""offset":33.3,"#))
    }
}

@Suite("Layout output: text table nesting", .longRunning)
struct LayoutTableNestingTests {
    @Test func depthsFollowDocumentOrder() throws {
        let doc = try Document(json: #"{"format":"stackdoc/1","name":"n","rows":[{"id":"a","stack":{"rows":[{"id":"b","stack":{"rows":[{"id":"c"}]}},{"id":"d"}]}},{"id":"e"}]}"#)
        let layout = doc.layout()
        #expect(LayoutOutput.nestingDepths(layout) == [0, 1, 2, 1, 0])
        let ids = LayoutOutput.table(layout).split(separator: "\n").dropFirst().dropLast().map { line in
            String(line.dropFirst(3).prefix(while: { $0 != "v" }).reversed().drop(while: { $0 == " " }).reversed())
        }
        #expect(ids == ["a", "  b", "    c", "  d", "e"])
        // A subset keeps each row's own depth.
        let subset = LayoutOutput.table(layout, rows: [layout.rows[2]])
        #expect(subset.split(separator: "\n")[1].hasPrefix("0      c"))
    }
}
