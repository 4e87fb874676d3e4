import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 15 item 8: a run of at least `StoredDocument.parallelRunMinimum` row inserts or
/// removals is written on the calling thread while a second thread applies it to memory and the
/// live layout (`StoredDocument+Runs.swift`), and the first write of a session checks the file on
/// a second connection meanwhile (`FileCheckInFlight`). What must hold: the stored rows equal the
/// document and a replay after every write, the live layout's report is the one applying the
/// changes in one go gives, and a failure on either thread leaves the database, the document and
/// its layout exactly as they were.
@Suite(.longRunning) struct ParallelRunTests {
    static let big = StoredDocument.parallelRunMinimum + 300

    /// The fields of a report that the REPL prints or counts.
    static func summary(_ r: LayoutChangeReport?) -> String {
        guard let r else { return "none" }
        return "\(r.moved) \(r.changedCount) \(r.removed) \(r.offsetBefore) \(r.offsetAfter) \(r.contentSizeBefore) \(r.contentSizeAfter) "
            + "\(r.transitions) \(r.stuckTransitions) \(r.fullRelayout)"
    }

    /// Runs `move` on `doc` (its live layout built) and checks: the stored rows are exactly the
    /// document and the replay, the report equals a fresh live layout's report of the changes in
    /// one go, and the kept live layout equals one built from the document.
    static func expectExact(_ doc: StoredDocument, _ context: String, _ move: (StoredDocument) throws -> [Change]) throws {
        let before = doc.document
        _ = doc.liveLayout()
        let changes = try move(doc)
        var fresh = LiveLayout(before)
        let expected = fresh.apply(changes, to: doc.document)
        #expect(summary(doc.lastLayoutReport) == summary(expected), "\(context): layout report")
        #expect(doc.liveLayout().layout() == LiveLayout(doc.document).layout(), "\(context): live layout")
        try RowRunTests.expectStoredExactly(doc, context)
    }

    /// Long runs at the end of the root, in a nested stack, in the middle; `clear` of a stack and
    /// of the root; their undo and redo one by one and several steps at once, with reopens.
    @Test func longRunsStoreExactlyTheDocumentAndReportAsInOneGo() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "p.sqlite").path
        // Snapshots after 1,000 changes: the long runs' writes end with one (the rows encoded
        // by the thread that applied the run), which `verify` compares with the replay.
        let options = StoreOptions(snapshots: SnapshotPolicy(changes: 1_000))
        var doc = try RowRunTests.sample(path, count: Self.big, inner: Self.big, options: options)
        let many = { (prefix: String, n: Int) in (0..<n).map { "\(prefix)\($0)" } }
        let edits: [Edit] = [
            .add(ids: many("mid", Self.big), spec: [.fixed(7)], position: .after("r10"), parent: nil),
            .add(ids: many("end", Self.big), spec: [.hidden], position: nil, parent: nil),
            .clear(parent: "s"),
            .remove(ids: many("mid", Self.big)),
            .clear(parent: nil),
        ]
        for (i, edit) in edits.enumerated() {
            try Self.expectExact(doc, "edit \(i)") { try $0.perform(edit) }
        }
        for move in 0..<(2 * edits.count) {
            if move % 3 == 1 {
                doc = try DocumentStore(path: path, options: options).open("d")
                #expect(doc.loadSource != .rows(reason: nil), "move \(move): opened from a snapshot")
            }
            try Self.expectExact(doc, "move \(move)") { move < edits.count ? try $0.undo().changes : try $0.redo().changes }
        }
        try Self.expectExact(doc, "undo of 3") { try $0.undo(3).changes }
        try Self.expectExact(doc, "redo of 2") { try $0.redo(2).changes }
        let snapshots = try doc.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM snapshot")! }
        #expect(snapshots > edits.count, "snapshots written: \(snapshots)")
    }

    /// A long run followed by other changes in the same write (a settings change, another long
    /// run in a stack, a row update): the first run's layout waits for the rest, the report is
    /// still the one-go report; undo and redo of it.
    @Test func aLongRunInTheMiddleOfAWrite() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try RowRunTests.sample(dir.appending(path: "m.sqlite").path, count: 20, inner: 5)
        var settings = doc.document.settings
        settings.spacing = 2
        let n = Self.big
        let changes: [Change] = (0..<n).map { Change.insertRow(id: "a\($0)", config: RowConfig(size: .fixed(3)), parent: nil, index: 4 + $0) }
            + [.updateSettings(old: doc.document.settings, new: settings)]
            + (0..<n).map { Change.insertRow(id: "b\($0)", config: RowConfig(), parent: "s", index: 5 + $0) }
            + [.updateRow(id: "a0", old: RowConfig(size: .fixed(3)), new: RowConfig(size: .fixed(9)))]
        try Self.expectExact(doc, "mixed write") { try $0.perform(.add(ids: ["x"], spec: [], position: nil, parent: nil), changes: changes) }
        try Self.expectExact(doc, "undo") { try $0.undo().changes }
        try Self.expectExact(doc, "redo") { try $0.redo().changes }
    }

    /// One undo step of several operations, each a long run (a group): its undo and redo join
    /// the operations' changes into one list (the first operation's storage, the others
    /// appended), whose runs start in the middle of it; after a reopen, and twice over.
    @Test func aGroupOfLongRunsIsUndoneAndRedoneAsOneStep() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "g.sqlite").path
        var doc = try RowRunTests.sample(path, count: 30, inner: 6)
        let n = Self.big
        try doc.begin("two runs")
        try Self.expectExact(doc, "first run") {
            try $0.perform(.add(ids: (0..<n).map { "a\($0)" }, spec: [.fixed(4)], position: .after("r5"), parent: nil))
        }
        try Self.expectExact(doc, "second run") {
            try $0.perform(.add(ids: (0..<n).map { "b\($0)" }, spec: [], position: nil, parent: "s"))
        }
        try Self.expectExact(doc, "third run") { try $0.perform(.remove(ids: (0..<n).map { "a\($0)" })) }
        _ = try doc.commit()
        let grouped = doc.document.exportJSON()
        for round in 0..<2 {
            try Self.expectExact(doc, "undo \(round)") { try $0.undo().changes }
            #expect(doc.document.rowCount == 30 + 6 + 1, "undo \(round): the rows before the group")
            doc = try DocumentStore(path: path).open("d")
            try Self.expectExact(doc, "redo \(round)") { try $0.redo().changes }
            #expect(doc.document.exportJSON() == grouped, "redo \(round): the document after the group")
        }
    }

    /// A long run into a gap too narrow for its keys: the other thread finds no keys and hands
    /// over no rows, and the calling thread writes the run row by row (as `RowRunTests` checks for
    /// a short run); undo and redo of it.
    @Test func aLongRunIntoAUsedUpGapIsKeyedRowByRow() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try RowRunTests.sampleWithUsedUpGap(dir.appending(path: "g.sqlite").path)
        #expect(try OrderKey.keys(Self.big, between: "a000000000000001", "a000000000000002") == nil)
        try Self.expectExact(doc, "long run into a used-up gap") {
            try $0.perform(.add(ids: (0..<Self.big).map { "g\($0)" }, spec: [], position: .after("r0"), parent: nil))
        }
        try Self.expectExact(doc, "undo") { try $0.undo().changes }
        try Self.expectExact(doc, "redo") { try $0.redo().changes }
    }

    /// Everything a failed write must leave as it was.
    struct State: Equatable {
        var document: String
        var stored: String
        var version: Int
        var log: Int
        var rows: Int

        init(_ doc: StoredDocument) throws {
            document = doc.document.exportJSON()
            stored = try RowRunTests.storedRows(doc).0.exportJSON()
            version = doc.version
            (log, rows) = try doc.store.read { db in
                (try Int.fetchOne(db, sql: "SELECT count(*) FROM log")!, try Int.fetchOne(db, sql: "SELECT count(*) FROM row")!)
            }
        }
    }

    /// Memory refuses a change in the middle of a long run (an id the document has): the SQL
    /// thread's rows are rolled back, memory takes back what it applied, the layout is intact.
    @Test func memoryRefusingMidRunChangesNothing() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try RowRunTests.sample(dir.appending(path: "f.sqlite").path, count: 50, inner: 0)
        _ = doc.liveLayout()
        let before = try State(doc)
        var changes = (0..<Self.big).map { Change.insertRow(id: "n\($0)", config: RowConfig(), parent: nil, index: 10 + $0) }
        changes[2_000] = .insertRow(id: "r7", config: RowConfig(), parent: nil, index: 2_010)
        #expect(throws: StackDocError.self) { try doc.perform(.add(ids: ["x"], spec: [], position: nil, parent: nil), changes: changes) }
        #expect(try State(doc) == before)
        #expect(doc.liveLayout().layout() == LiveLayout(doc.document).layout())
        try Self.expectExact(doc, "a write after the failure") { try $0.perform(.clear(parent: nil)) }
    }

    /// The SQL fails while memory applies the run (a stored row the run's DELETE does not find;
    /// a stored id the run's INSERT repeats): nothing is half-applied.
    @Test(arguments: [true, false])
    func sqlFailingMidRunChangesNothing(removing: Bool) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try RowRunTests.sample(dir.appending(path: "s.sqlite").path, count: Self.big, inner: 0)
        _ = doc.liveLayout()
        try doc.store.write { db in
            if removing {
                try db.execute(sql: "DELETE FROM row WHERE id = 'r100'")
            } else {
                try db.execute(sql: """
                    INSERT INTO row (document, parent, order_key, id, size, fields)
                    SELECT document, parent, 'zzzz', 'n1500', size, fields
                    FROM row WHERE id = 'r1'
                    """)
            }
        }
        let before = try State(doc)
        let reportBefore = Self.summary(doc.lastLayoutReport)
        #expect(throws: (any Error).self) {
            if removing {
                try doc.perform(.clear(parent: nil))
            } else {
                try doc.perform(.add(ids: (0..<Self.big).map { "n\($0)" }, spec: [], position: .after("r3"), parent: nil))
            }
        }
        #expect(try State(doc) == before)
        #expect(Self.summary(doc.lastLayoutReport) == "none" || Self.summary(doc.lastLayoutReport) == reportBefore)
        #expect(doc.liveLayout().layout() == LiveLayout(doc.document).layout())
    }

    /// The first write of a session on a file damaged where the write does not read, a long run,
    /// the file left as a writer that did not close leaves it: the check running beside it finds the damage, the write is refused with the check's
    /// message, and no byte of the file or its companions changes.
    @Test func aLongFirstWriteOnADamagedFileIsRefusedAndWritesNothing() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appending(path: "damaged.sqlite").path
        do {
            // Snapshots every 50 entries: opening reads the newest one and the log after it, never
            // the log's first leaf, which is damaged below.
            let doc = try RowRunTests.sample(file, count: Self.big, inner: 0, options: StoreOptions(snapshots: SnapshotPolicy(interval: 50)))
            for i in 0..<300 { _ = try doc.run(Ops.add("x\(i)", RowConfig(type: String(repeating: "t", count: 40)), at: 0)) }
        }
        try Tamper.markHeldByAWriterThatDidNotClose(file)
        try Tamper.scribbleOnFirstLeaf(of: "log", in: file)
        let bytes = snapshot(file)
        do {
            let store = try DocumentStore(path: file)
            let opened = try store.open("d")
            let document = opened.document
            do {
                try opened.perform(.clear(parent: nil))
                Issue.record("a damaged database was written")
            } catch let error as any UserFacingError {
                #expect(error.message.hasPrefix("database '\(file)' is corrupt: SQLite's check of the file finds: "), "\(error.message)")
            }
            #expect(store.damage != nil)
            #expect(opened.document == document)
        }
        #expect(snapshot(file) == bytes)
    }
}
