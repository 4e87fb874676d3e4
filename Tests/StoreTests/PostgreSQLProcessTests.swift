import Foundation
import Glibc
import Layout
import OrderStatistics
import StackDocTestSupport
import Store
import Testing

/// `ProcessTests`' shapes against the PostgreSQL server of `scripts/with-postgres`: two processes
/// editing one document lose no update, and a process SIGKILLed during a large import or a long
/// undo of many rows leaves nothing half-written — the server rolls back what was not committed.
@Suite(.serialized, .longRunning, .enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)))
struct PostgreSQLProcessTests {

    @Test func twoProcessesNeverLoseAnUpdate() throws {
        try StoreTortureProcesses.expectTwoWritersLoseNothing(db: try TestStores.url(.postgresql), n: 40, label: "race on PostgreSQL")
    }

    /// SIGKILLs a process importing documents of 3,000 rows through COPY: each is there
    /// completely (and verifies) or not at all, and every acknowledged one is there.
    @Test func killedImportsAreAllOrNothing() throws {
        var rng = SplitMix64(seed: 34_5)
        var committed = 0
        for round in 0..<4 {
            let url = try TestStores.url(.postgresql)
            let output = try StoreTortureProcesses.killed(["imports", url, "3000"], after: round % 2 == 1 ? "d 1\n" : "b 1\n", within: 400_000, rng: &rng)
            let (begun, done) = StoreTortureProcesses.progress(output)
            let store = try DocumentStore(url: url)
            let names = try store.documentNames()
            #expect(names.count == done || (names.count == begun && begun == done + 1), "round \(round): \(names.count) stored, \(done) acknowledged")
            for name in names {
                let doc = try store.open(name)
                #expect(doc.document.rowCount == 3001, "\(name)")
                #expect(doc.document.children(of: "s").count == 600, "\(name)")
                #expect(try doc.verify() == [], "\(name)")
            }
            committed += done
        }
        #expect(committed > 0)
    }

    /// SIGKILLs a process while it undoes and redoes a `clear` of 5,000 rows: the document is as
    /// before or as after the move that was running — all rows or none, the cursor with them —
    /// and verifies.
    @Test func killedBigUndoIsBeforeOrAfter() throws {
        var rng = SplitMix64(seed: 34_6)
        var moves = 0
        for round in 0..<4 {
            let url = try TestStores.url(.postgresql)
            let output = try StoreTortureProcesses.killed(["moves", url, "5000"], after: round % 2 == 1 ? "d 1\n" : "c\n", within: 800_000, rng: &rng)
            let (begun, done) = StoreTortureProcesses.progress(output)
            let doc = try DocumentStore(url: url).open("m")
            let committed = try doc.status().logEntries - 2
            #expect(committed == done || (committed == begun && begun == done + 1), "round \(round): \(committed) moves committed, \(done) acknowledged")
            #expect(doc.cursor == (committed % 2 == 1 ? 0 : 1))
            #expect(doc.document.rowCount == (committed % 2 == 1 ? 5000 : 0))
            #expect(try doc.verify() == [], "round \(round)")
            moves += committed
        }
        #expect(moves > 0)
    }
}
