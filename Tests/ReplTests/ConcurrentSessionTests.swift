import Foundation
import Testing
import Layout
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

@Suite(.offThePool) struct ConcurrentSessionTests {
    /// Two sessions on one database file: the second one's stale edit touches nothing the
    /// first one's changed, so it is planned again on the newest version and committed (SPEC
    /// §3); one that touches the same row is refused naming the step and origin, the session
    /// caught up, and the same command then works on the other session's state.
    @Test func staleEditIsPlannedAgainOrRefusedAsAConflict() throws {
        let path = NSTemporaryDirectory() + "/stackdoc-stale-\(UInt32.random(in: 0...UInt32.max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let a = Session(store: try DocumentStore(path: path), origin: "ann")
        _ = try a.run(.new(name: "d", axis: nil, viewport: nil))
        let b = Session(store: try DocumentStore(path: path), origin: "ben")
        _ = try b.run(.open(name: "d"))
        _ = try a.run(try #require(try Parser.parse("add x fixed 10")))
        _ = try b.run(try #require(try Parser.parse("add y fixed 10")))
        #expect(b.current?.document.children(of: nil) == ["x", "y"])
        // A, stale by B's add, edits x: planned again; B, stale by that, edits x too: refused.
        _ = try a.run(try #require(try Parser.parse("set x fixed 20")))
        let line = try #require(try Parser.parse("set x fixed 30"))
        // The error is data: the step, its origin and what it changed.
        let error = try #require(throws: StoreError.self) { try b.run(line) }
        #expect(error.kind == .editConflict(name: "d", entry: 4, kind: "op", step: 3, origin: "ann", what: "row 'x' field size"))
        #expect(b.current?.document.config(of: "x")?.size == .fixed(20), "caught up")
        _ = try b.run(line)
        #expect(b.current?.document.config(of: "x")?.size == .fixed(30))
        #expect(try b.current?.verify().isEmpty == true)
    }

    /// An undo of a stale session is not planned again: refused as stale, the session reloads and
    /// says to run it again, as before.
    @Test func staleUndoIsReloaded() throws {
        let path = NSTemporaryDirectory() + "/stackdoc-stale-\(UInt32.random(in: 0...UInt32.max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let a = Session(store: try DocumentStore(path: path), origin: "ann")
        _ = try a.run(.new(name: "d", axis: nil, viewport: nil))
        _ = try a.run(try #require(try Parser.parse("add x fixed 10")))
        let b = Session(store: try DocumentStore(path: path), origin: "ann")
        _ = try b.run(.open(name: "d"))
        _ = try a.run(try #require(try Parser.parse("add y fixed 10")))
        let error = try #require(throws: CommandError.self) { try b.run(.undoAll(1)) }
        #expect(error.kind == .recovered(.store(.staleDocument(name: "d", storedVersion: 3, sessionVersion: 2)), .reloaded))
        #expect(error.message == "document 'd' was changed by another process (stored version 3, this session has 2); reloaded it: run the command again")
        _ = try b.run(.undoAll(1))
        #expect(b.current?.document.children(of: nil) == ["x"])
    }
}
