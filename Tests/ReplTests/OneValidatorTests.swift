import Foundation
import Testing
import Layout
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 12 item 3: one validator in `Layout`; `new` and `import … as` name a bad document name
/// with the same message.
@Suite(.offThePool) struct OneValidatorTests {
    static func error(_ session: Session, _ line: String) -> String? {
        do {
            _ = try session.run(try #require(try Parser.parse(line)))
            return nil
        } catch {
            return (error as? UserFacingError)?.message ?? "\(error)"
        }
    }

    @Test func newAndImportAsGiveTheSameNameMessage() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("onevalidator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("d.json").path
        let session = Session(store: try DocumentStore(path: ":memory:"))
        _ = try session.run(try #require(try Parser.parse("new d")))
        _ = try session.run(try #require(try Parser.parse("export \(file)")))
        let expected = "name: invalid document name 'bad name': expected 1 to 64 characters from A-Z a-z 0-9 _ . -"
        #expect(Self.error(session, #"new "bad name""#) == expected)
        #expect(Self.error(session, #"import \#(file) as "bad name""#)?.hasSuffix(expected) == true)
        #expect(try session.store.documentNames() == ["d"])
    }

    /// Issue 36 item 4: every kind of document `import` refuses, `stackdoc check` and `stackdoc
    /// layout` refuse too (they accepted a row with both `text` and `aspect`): one list of
    /// cases, each a document with one thing wrong, the same validator for all three.
    static let refusedDocuments: [(what: String, json: String)] = {
        func doc(_ rows: String, name: String = #""d""#, viewport: String = #"{"width":300,"height":200}"#) -> String {
            #"{"format":"stackdoc/1","name":\#(name),"axis":"vertical","viewport":\#(viewport),"rows":[\#(rows)]}"#
        }
        return [
            ("text and aspect on one row", doc(#"{"id":"a","text":"5","aspect":"1 1"}"#)),
            ("text on a stack", doc(#"{"id":"s","text":"5","stack":{"axis":"vertical","rows":[]}}"#)),
            ("aspect on a stack", doc(#"{"id":"s","aspect":"16 9","stack":{"axis":"vertical","rows":[{"id":"x"}]}}"#)),
            ("text and aspect nested", doc(#"{"id":"s","stack":{"axis":"vertical","rows":[{"id":"x","aspect":"1 1","text":"2"}]}}"#)),
            ("a bad text run", doc(#"{"id":"a","text":"many"}"#)),
            ("a bad aspect", doc(#"{"id":"a","aspect":"0 1"}"#)),
            ("a negative size", doc(#"{"id":"a","size":{"fixed":-1}}"#)),
            ("a bad colour", doc(#"{"id":"a","background":"red"}"#)),
            ("a bad row id", doc(#"{"id":"a b"}"#)),
            ("a duplicate id", doc(#"{"id":"a"},{"id":"a"}"#)),
            ("a row without an id", doc(#"{"type":"view"}"#)),
            ("an unknown row key", doc(#"{"id":"a","colour":"red"}"#)),
            ("a bad document name", doc("", name: #""bad name""#)),
            ("a negative viewport", doc("", viewport: #"{"width":-1,"height":200}"#)),
            ("a wrong format", #"{"format":"stackdoc/2","name":"d","rows":[]}"#),
            ("not JSON", #"{"format":"#),
        ]
    }()

    @Test(arguments: refusedDocuments.indices) func whatImportRefusesCheckAndLayoutRefuse(index: Int) throws {
        let (what, json) = Self.refusedDocuments[index]
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("onevalidator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.json").path
        try json.write(toFile: file, atomically: true, encoding: .utf8)
        let session = Session(store: try DocumentStore(path: ":memory:"))
        let importError = try #require(Self.error(session, "import \(file)"), "import accepted \(what)")
        #expect(try session.store.documentNames() == [], "\(what)")
        let check = OneShot.check(path: file)
        #expect(check.status == 1, "check accepted \(what): \(check.stdout)")
        let layout = OneShot.layout(path: file, offset: nil, json: false)
        #expect(layout.status == 1 && layout.out.isEmpty, "layout accepted \(what)")
        // The same first problem, named in each one's way (import: the file; check: `FILE: …`).
        let firstProblem = try #require(check.stderr.split(separator: "\n").first.map(String.init))
        #expect(importError.contains(String(firstProblem.dropFirst(file.count + 2))), "\(what): \(importError) / \(firstProblem)")
        #expect(layout.stderr == check.stderr, "\(what)")
    }

    /// The good twin of the first case (text alone, aspect alone) passes all three.
    @Test func aRowWithTextOrAspectAlonePassesAllThree() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("onevalidator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("good.json").path
        try #"{"format":"stackdoc/1","name":"d","rows":[{"id":"a","text":"5"},{"id":"b","aspect":"1 1"}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let session = Session(store: try DocumentStore(path: ":memory:"))
        #expect(Self.error(session, "import \(file)") == nil)
        #expect(OneShot.check(path: file).status == 0)
        #expect(OneShot.layout(path: file, offset: nil, json: false).status == 0)
    }
}
