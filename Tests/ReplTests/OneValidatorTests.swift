import Foundation
import Testing
import Layout
import Store
@testable import repl
@testable import StackDocScript

/// Issue 12 item 3: one validator in `Layout`; `new` and `import … as` name a bad document name
/// with the same message.
@Suite struct OneValidatorTests {
    static func error(_ session: Session, _ line: String) -> String? {
        do {
            _ = try session.run(try #require(try Parser.parse(line)))
            return nil
        } catch {
            return (error as? StackDocError)?.message ?? "\(error)"
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
}
