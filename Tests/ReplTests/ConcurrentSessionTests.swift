import Foundation
import Testing
import Layout
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

@Suite(.offThePool) struct ConcurrentSessionTests {
    /// Two sessions on one database file: the second one's edit fails as stale, the session
    /// reloads, and the same command then works on the other session's state.
    @Test func staleDocumentIsReloaded() throws {
        let path = NSTemporaryDirectory() + "/stackdoc-stale-\(UInt32.random(in: 0...UInt32.max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let a = Session(store: try DocumentStore(path: path))
        _ = try a.run(.new(name: "d", axis: nil, viewport: nil))
        let b = Session(store: try DocumentStore(path: path))
        _ = try b.run(.open(name: "d"))
        _ = try a.run(try #require(try Parser.parse("add x fixed 10")))
        let line = try #require(try Parser.parse("add y fixed 10"))
        // The error is data: the stale cause and what the session did, no rewritten text.
        let error = try #require(throws: CommandError.self) { try b.run(line) }
        #expect(error.kind == .recovered(.store(.staleDocument(name: "d", storedVersion: 2, sessionVersion: 1)), .reloaded))
        #expect(error.message == "document 'd' was changed by another process (stored version 2, this session has 1); reloaded it: run the command again")
        do {
            _ = try b.run(line)
        } catch {
            Issue.record("after the reload the command should work: \(error)")
        }
        #expect(b.current?.document.children(of: nil) == ["x", "y"])
        #expect(try b.current?.verify().isEmpty == true)
    }
}
