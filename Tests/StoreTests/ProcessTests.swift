import Foundation
import GRDB
import Layout
import OrderStatistics
import Store
import StackDocTestSupport
import Testing

/// Several processes on one database file: no lost updates, and SIGKILL never loses or
/// half-applies a committed operation.
@Suite(.serialized, .longRunning) struct ProcessTests {
    /// Starts `store-torture ARGS` with its standard output in a pipe.
    func launch(_ args: [String]) throws -> (Process, Pipe) { try StoreTortureProcesses.launch(args) }

    @Test func twoProcessesNeverLoseAnUpdate() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try StoreTortureProcesses.expectTwoWritersLoseNothing(db: dir.appending(path: "race.sqlite").path, n: 60, label: "race")
    }

    /// Issue 9 item 3: two processes creating the same new database at the same moment (a file
    /// barrier per round) used to fail about one round in ten ("table document already exists",
    /// "duplicate column name", "not a StackDoc database", "database is locked").
    @Test func twoProcessesCreatingOneDatabaseNeverFail() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rounds = 200
        let a = try launch(["open-race", dir.path, "\(rounds)", "a", "b"])
        let b = try launch(["open-race", dir.path, "\(rounds)", "b", "a"])
        let outA = String(decoding: a.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let outB = String(decoding: b.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        a.0.waitUntilExit()
        b.0.waitUntilExit()
        #expect(a.0.terminationStatus == 0 && b.0.terminationStatus == 0)
        #expect(outA == "failures 0\n", "process a: \(outA)")
        #expect(outB == "failures 0\n", "process b: \(outB)")
        for i in [0, rounds - 1] {
            let store = try DocumentStore(path: dir.appending(path: "r\(i).sqlite").path)
            #expect(try store.schemaVersion() == Schema.currentVersion)
        }
    }

    @Test func staleHandleFailsClearlyAndCanReload() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "stale.sqlite").path
        let first = try DocumentStore(path: path).create("d")
        let second = try DocumentStore(path: path).open("d")
        try first.run(Ops.add("a", at: 0))
        let before = second.document
        #expect(try second.isStale())
        #expect(thrownMessage {
            try second.run(Ops.add("b", at: 0))
        } == "document 'd' was changed by another process (stored version 2, this session has 1): reload it and try again")
        #expect(second.document == before)
        try second.reload()
        #expect(second.rootIDs == ["a"])
        try second.run(Ops.add("b", at: 0))
        #expect(try first.isStale())
        #expect(throws: StoreError.self) { try first.undo() }
        try first.reload()
        try first.undo()
        #expect(first.rootIDs == ["a"])
        #expect(try first.verify() == [])
    }

    /// A second connection opened in this process must not drop the first one's locks (closing
    /// any descriptor of a file drops all the process's POSIX locks on it): otherwise another
    /// process closing the database believes it is the last one, checkpoints and deletes the
    /// WAL under the first connection, and the first connection's later commits are lost.
    @Test func secondConnectionInOneProcessKeepsTheFirstOnesLocks() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "locks.sqlite").path
        let first = try DocumentStore(path: path)
        let doc = try first.create("d")
        try doc.run(Ops.add("a", at: 0))
        let second = try DocumentStore(path: path)
        #expect(try second.open("d").document == doc.document)
        let other = try launch(["open", path, "d"])
        _ = other.1.fileHandleForReading.readDataToEndOfFile()
        other.0.waitUntilExit()
        #expect(other.0.terminationStatus == 0)
        for i in 0..<20 { try doc.run(Ops.add("b\(i)", at: 0)) }
        #expect(try first.integrityCheck() == [])
        let reopened = try launch(["open", path, "d"])
        let said = String(decoding: reopened.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reopened.0.waitUntilExit()
        #expect(said.hasPrefix("open 21 rows"), "another process sees every commit: \(said)")
        #expect(try doc.verify() == [])
    }

    /// A writer SIGKILLed after it wrote leaves its mark (`WriterMark`) in the file: the next
    /// session checks the whole file before it writes, and refuses damage that write would not
    /// have touched (the log's first leaf; the WAL checkpointed away first, so the mark alone
    /// makes the check due).
    @Test func aKilledWritersFileIsCheckedWholeBeforeTheNextWrite() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "killed.sqlite").path
        var rng = SplitMix64(seed: 31)
        _ = try StoreTortureProcesses.killed(["crash", path, "k", "31"], after: "d 150\n", within: 1000, rng: &rng)
        #expect(try Tamper.writerMark(path) != 0)
        try Tamper.scribbleOnFirstLeaf(of: "log", in: path)
        let store = try DocumentStore(path: path)
        do {
            try store.create("other")
            Issue.record("a damaged database was written")
        } catch let error as StoreError {
            #expect(error.message.hasPrefix("database '\(path)' is corrupt: SQLite's check of the file finds: "), "\(error.message)")
        }
        #expect(store.damage != nil)
    }

    /// SIGKILLs a process importing large documents: each document is there completely
    /// (and verifies) or not at all.
    @Test func killedImportsAreAllOrNothing() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "imports.sqlite").path
        var rng = SplitMix64(seed: 7)
        var committed = 0
        for round in 0..<10 {
            // Every other round waits for the first import to commit ("d 1") before the random
            // delay, so some imports commit however slow the machine is; the others are killed
            // from the start of the first import on.
            // 9,000 rows: the even imports (read from JSON) hand their rows over in batches while
            // they read, so kills land between batches written and the commit too.
            let output = try StoreTortureProcesses.killed(["imports", path, "9000"], after: round % 2 == 1 ? "d 1\n" : "b 1\n", within: 600_000, rng: &rng)
            let done = StoreTortureProcesses.progress(output).done
            let store = try DocumentStore(path: path)
            for name in try store.documentNames() {
                let doc = try store.open(name)
                #expect(doc.document.rowCount == 9001, "\(name)")
                #expect(doc.document.children(of: "s").count == 1800, "\(name)")
                #expect(try doc.verify() == [], "\(name)")
                try store.drop(name)
            }
            committed += done
        }
        #expect(committed > 0)
    }

    /// SIGKILLs a process while it undoes and redoes a `clear` of 20,000 rows (issue 15 item 8):
    /// the document is always as before or as after the move that was running — all rows or
    /// none, the cursor with them — and verifies; the log's last entry is a whole move.
    @Test func killedBigUndoIsBeforeOrAfter() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var rng = SplitMix64(seed: 15_8)
        var moves = 0
        for round in 0..<6 {
            let path = dir.appending(path: "moves\(round).sqlite").path
            // Every other round waits for the first move to commit, so some moves commit however
            // slow the machine is; the others are killed from the start of the first one on.
            let output = try StoreTortureProcesses.killed(["moves", path, "20000"], after: round % 2 == 1 ? "d 1\n" : "c\n", within: 1_500_000, rng: &rng)
            let (begun, done) = StoreTortureProcesses.progress(output)
            let doc = try DocumentStore(path: path).open("m")
            // Moves 1, 3, 5… undo the clear; a kill after a commit but before "d K" leaves K done.
            let committed = try doc.status().logEntries - 2
            #expect(committed == done || (committed == begun && begun == done + 1), "round \(round): \(committed) moves committed, \(done) acknowledged")
            #expect(doc.cursor == (committed % 2 == 1 ? 0 : 1))
            #expect(doc.document.rowCount == (committed % 2 == 1 ? 20000 : 0))
            #expect(try doc.verify() == [], "round \(round)")
            moves += committed
        }
        #expect(moves > 0)
    }

    /// SIGKILLs a process while it upgrades a file of schema 19 (migration 0020 converting the
    /// format-2 entries of a 10,000-row clear and its undo, and rebuilding `row`, in the upgrade's
    /// one transaction): each time the file is the old one, whole, or the upgraded one — never
    /// between — and it then opens (upgrading if it was not) and verifies.
    @Test func aKilledUpgradeLeavesTheOldFileOrTheUpgradedOne() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let template = dir.appending(path: "old.sqlite").path
        do {
            let doc = try DocumentStore(path: template).create("u")
            try doc.perform(.add(ids: (0..<10_000).map { "r\($0)" }, spec: [.fixed(20)], position: nil, parent: nil))
            try doc.perform(.clear(parent: nil))
            try doc.undo()
        }
        try Tamper.logAsFormat2(template)
        let migration = try #require(Schema.migrations.last { $0.version == 20 }?.name)
        var rng = SplitMix64(seed: 20)
        for round in 0..<5 {
            let path = dir.appending(path: "u\(round).sqlite").path
            try FileManager.default.copyItem(atPath: template, toPath: path)
            let (process, _) = try launch(["open", path, "u"])
            usleep(UInt32.random(in: 0...1_000_000, using: &rng))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let (upgraded, formats, importSeq) = try DatabaseQueue(path: path).read { db in
                (try Bool.fetchOne(db, sql: "SELECT 1 FROM grdb_migrations WHERE identifier = ?", arguments: [migration]) ?? false,
                 try Int.fetchAll(db, sql: "SELECT DISTINCT format FROM log ORDER BY 1"),
                 try db.columns(in: "row").contains { $0.name == "import_seq" })
            }
            #expect(formats == [upgraded ? 3 : 2] && importSeq == !upgraded, "round \(round): upgraded \(upgraded), formats \(formats)")
            let doc = try DocumentStore(path: path).open("u")
            #expect(doc.document.rowCount == 10_000 && doc.cursor == 1, "round \(round)")
            #expect(try doc.verify() == [], "round \(round)")
        }
    }

    /// SIGKILLs a writer at random moments; every document must verify and hold exactly the
    /// actions that committed (compared with the same actions replayed in memory).
    @Test func killedWritersLoseNothingCommitted() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "crash.sqlite").path
        let kills = Int(ProcessInfo.processInfo.environment["STACKDOC_CRASH_KILLS"] ?? "") ?? 60
        var rng = SplitMix64(seed: 20261121)
        var midAction = 0
        var totalActions = 0
        for round in 0..<kills {
            let name = "c\(round)"
            let (process, out) = try launch(["crash", path, name, "\(round)"])
            // Wait until it works (whatever the machine's speed), let it run for a random
            // while, then kill it mid-flight. Some rounds kill it before the first action.
            let reader = out.fileHandleForReading
            var output = Data()
            if round % 10 != 0 {
                while !String(decoding: output, as: UTF8.self).contains("b 1\n") {
                    let chunk = reader.availableData
                    if chunk.isEmpty { break }
                    output.append(chunk)
                }
                usleep(UInt32.random(in: 0...40_000, using: &rng))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            output.append(reader.readDataToEndOfFile())
            let (began, done) = StoreTortureProcesses.progress(String(decoding: output, as: UTF8.self))
            if began > done { midAction += 1 }
            totalActions += done

            let store = try DocumentStore(path: path)
            guard try store.contains(name) else {
                #expect(done == 0, "document \(name) missing after \(done) actions")
                continue
            }
            let doc = try store.open(name)
            #expect(try doc.verify(replan: true) == [], "round \(round)")
            // The reference: the same seeded actions in memory, up to `done` (or `done + 1`
            // when the kill landed after the commit but before "d" was printed).
            let reference = try DocumentStore(path: ":memory:").create(name)
            var actions = SplitMix64(seed: UInt64(round))
            var states: [Int: ([String], Int)] = [:]
            for k in 0...(done + 1) {
                if k > 0 { try RandomOps.action(for: reference, rng: &actions).run(on: reference) }
                if k >= done { states[k] = (snapshot(reference.document), try reference.log().count) }
            }
            let stored = (snapshot(doc.document), try doc.log().count)
            let matches = stored == states[done]! || (began > done && stored == states[done + 1]!)
            #expect(matches, "round \(round): stored state is neither after action \(done) nor \(done + 1)")
        }
        // Make sure the test exercised what it claims.
        #expect(totalActions > kills)
        print("crash test: \(kills) kills, \(totalActions) committed actions, \(midAction) kills between begin and done")
        // Every document of the file still verifies.
        let store = try DocumentStore(path: path)
        for name in try store.documentNames() {
            #expect(try store.open(name).verify(replan: true) == [], "\(name)")
        }
    }
}
