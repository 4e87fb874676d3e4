import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 15 item 8: a write's consecutive row inserts or removals in one stack are written as one
/// run (`RowRunWriter`: multi-row INSERTs with keys chosen for the run, one range DELETE). The
/// stored rows must stay exactly the document: after every write the `row` table read on its own
/// (no snapshot) equals the handle's document and a replay (`verify`), every stored key is within
/// `OrderKey.maxLength` and the keys of each stack are in its rows' order.
@Suite(.longRunning) struct RowRunTests {
    /// The rows as the `row` table holds them (never a snapshot), and the longest stored key.
    static func storedRows(_ doc: StoredDocument) throws -> (Document, Int) {
        try doc.store.read { db in
            let row = try GRDB.Row.fetchOne(db, sql: "SELECT * FROM document WHERE id = ?", arguments: [doc.id])!
            let rows = try RowLoader.load(db, name: doc.name, settings: try ColumnCoding.settings(row), documentID: doc.id,
                                          path: doc.store.path, cancellation: .never)
            let longest = try Int.fetchOne(db, sql: "SELECT max(length(order_key)) FROM row WHERE document = ?", arguments: [doc.id]) ?? 0
            return (rows, longest)
        }
    }

    /// The stored rows equal the handle's document and the replay; keys stay short.
    static func expectStoredExactly(_ doc: StoredDocument, _ context: String) throws {
        let (rows, longest) = try storedRows(doc)
        #expect(try Verification.compare(stored: rows, replayed: doc.document) == [], "\(context): stored rows")
        #expect(rows.exportJSON() == doc.document.exportJSON(), "\(context): stored rows' export")
        #expect(longest <= OrderKey.maxLength, "\(context): a key of \(longest) bytes")
        #expect(try doc.verify() == [], "\(context): verify")
    }

    /// A document of `count` root rows `r0…` and a stack `s` of `inner` rows `s0…` at index 3.
    /// `sample` of 4 root rows whose first two stored keys, 'a0000000000000001' and
    /// 'a0000000000000002', differ only in their last of 16 characters: no key fits between them
    /// (`OrderKey.keys` gives nil), so a run inserted there is keyed row by row.
    static func sampleWithUsedUpGap(_ path: String) throws -> StoredDocument {
        let doc = try sample(path, count: 4, inner: 0)
        try doc.store.write { db in
            try db.execute(sql: "UPDATE row SET order_key = 'a0000000000000001' WHERE id = 'r0'")
            try db.execute(sql: "UPDATE row SET order_key = 'a0000000000000002' WHERE id = 'r1'")
        }
        return doc
    }

    static func sample(_ path: String, count: Int, inner: Int, options: StoreOptions = StoreOptions()) throws -> StoredDocument {
        var d = Document(name: "d")
        for i in 0..<count { try d.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(10 + i % 7))), parent: nil) }
        try d.insertRow("s", config: RowConfig(stack: StackSettings(axis: .horizontal)), parent: nil, at: min(3, count))
        for i in 0..<inner { try d.appendRow("s\(i)", config: RowConfig(size: .fixed(5), grow: Double(i % 3)), parent: "s") }
        return try DocumentStore(path: path, options: options).importDocument(d)
    }

    /// Every shape of run — long and short, at the top, between two rows, at the bottom, in a
    /// nested stack; removals in descending order (`clear`, `remove`, the undo of an `add`) — and
    /// their undo and redo, with a reopen every third move.
    @Test func runsOfEveryShapeStoreExactlyTheDocument() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "runs.sqlite").path
        var doc = try Self.sample(path, count: 200, inner: 50)
        let many = { (prefix: String, n: Int) in (0..<n).map { "\(prefix)\($0)" } }
        let edits: [Edit] = [
            .add(ids: many("top", 40), spec: [.fixed(7)], position: .top, parent: nil),
            .add(ids: many("mid", 100), spec: [], position: .after("r10"), parent: nil),
            .add(ids: many("two", 2), spec: [], position: .before("r11"), parent: nil),
            .add(ids: many("end", 33), spec: [.hidden], position: nil, parent: nil),
            .add(ids: many("in", 70), spec: [], position: .index(5), parent: "s"),
            .remove(ids: many("mid", 100).filter { $0 != "mid50" }),
            .remove(ids: ["r0", "r1", "r2", "top3", "top4", "end32"]),
            .clear(parent: "s"),
            .clear(parent: nil),
        ]
        for (i, edit) in edits.enumerated() {
            try doc.perform(edit)
            try Self.expectStoredExactly(doc, "edit \(i)")
        }
        for move in 0..<(2 * edits.count) {
            if move % 3 == 0 { doc = try DocumentStore(path: path).open("d") }
            if move < edits.count { try doc.undo() } else { try doc.redo() }
            try Self.expectStoredExactly(doc, "move \(move)")
        }
        try doc.undo(edits.count)
        try Self.expectStoredExactly(doc, "undo of everything")
        try doc.redo(4)
        try Self.expectStoredExactly(doc, "redo of 4")
    }

    /// Changes handed over directly: ascending removals (each at the same index; also the undo
    /// of inserts made each at the same index, which are runs of one), runs broken by a settings
    /// change and a row update, inserts at descending indexes.
    @Test func runsBreakWhereTheChangesStopFollowingEachOther() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try Self.sample(dir.appending(path: "b.sqlite").path, count: 100, inner: 10)
        let d = doc.document
        // Remove r21…r59 front to back: each is at index 21 when its turn comes (r0…r2, s, r3…r20 before).
        let front = (21..<60).map { i in Change.removeRow(id: "r\(i)", config: d.config(of: "r\(i)")!, parent: nil, index: d.index(of: "r21")!) }
        try doc.perform(.remove(ids: (21..<60).map { "r\($0)" }), changes: front)
        try Self.expectStoredExactly(doc, "ascending removals")
        let sameIndex = (0..<40).map { Change.insertRow(id: "n\($0)", config: RowConfig(), parent: nil, index: 5) }
        try doc.perform(.add(ids: (0..<40).map { "n\($0)" }.reversed(), spec: [], position: .index(5), parent: nil), changes: sameIndex)
        try Self.expectStoredExactly(doc, "inserts at one index")
        var settings = doc.document.settings
        settings.spacing = 3
        let n = doc.document.rowCount - 10  // root rows
        let broken: [Change] = (0..<35).map { Change.insertRow(id: "b\($0)", config: RowConfig(), parent: nil, index: 2 + $0) }
            + [.updateSettings(old: doc.document.settings, new: settings)]
            + (35..<70).map { Change.insertRow(id: "b\($0)", config: RowConfig(), parent: nil, index: 2 + $0) }
            + [.updateRow(id: "b0", old: RowConfig(), new: RowConfig(size: .fixed(9)))]
            + (70..<75).map { Change.insertRow(id: "b\($0)", config: RowConfig(), parent: nil, index: n + 70 - $0) }
        try doc.perform(.add(ids: ["x"], spec: [], position: nil, parent: nil), changes: broken)
        try Self.expectStoredExactly(doc, "broken runs")
        try doc.undo()
        try Self.expectStoredExactly(doc, "undo of broken runs")
        try doc.undo(2)
        try Self.expectStoredExactly(doc, "undo of all")
        try doc.redo(3)
        try Self.expectStoredExactly(doc, "redo of all")
    }

    /// A run inserted into a gap too narrow for its keys (two stored neighbours whose keys differ
    /// only in their last of 16 characters) falls back to keying row by row, re-keying the
    /// neighbourhood as single inserts do.
    @Test func aRunIntoAUsedUpGapIsKeyedRowByRow() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try Self.sampleWithUsedUpGap(dir.appending(path: "g.sqlite").path)
        #expect(try OrderKey.keys(50, between: "a000000000000001", "a000000000000002") == nil)
        try doc.perform(.add(ids: (0..<50).map { "g\($0)" }, spec: [], position: .after("r0"), parent: nil))
        try Self.expectStoredExactly(doc, "run into a used-up gap")
        try doc.undo()
        try doc.redo()
        try Self.expectStoredExactly(doc, "undo and redo of it")
    }

    /// Runs of at least `DeferredIDIndex.firstRun` rows: with another document in the database
    /// and alone in it (the run is every row of the table); in both, the range DELETE and the
    /// bulk INSERT drop the id index and build it again. After `clear`, undo, redo and undo,
    /// each in a new process's handle: the stored rows are exact, the other document is
    /// untouched, and the unique id index exists and refuses a repeated id.
    @Test(arguments: [true, false])
    func bigRunsKeepTheIdIndexAndTheOtherRows(withOtherDocument: Bool) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "big.sqlite").path
        let rows = DeferredIDIndex.firstRun + 100
        _ = try Self.sample(path, count: rows, inner: 0)
        if withOtherDocument {
            var other = Document(name: "other")
            for i in 0..<50 { try other.appendRow("r\(i)", config: RowConfig(size: .fixed(3)), parent: nil) }
            try DocumentStore(path: path).importDocument(other)
        }
        let moves: [(StoredDocument) throws -> Void] = [
            { try $0.perform(.clear(parent: nil)) }, { try $0.undo() }, { try $0.redo() }, { try $0.undo() },
        ]
        for (i, move) in moves.enumerated() {
            let doc = try DocumentStore(path: path).open("d")
            try move(doc)
            try Self.expectStoredExactly(doc, "move \(i)")
            let (index, indexed) = try doc.store.read { db in
                (try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'row_by_id'"),
                 try Int.fetchOne(db, sql: "SELECT count(*) FROM row INDEXED BY row_by_id WHERE document = ?",
                                  arguments: [doc.id]))
            }
            #expect(index == "row_by_id" && indexed == doc.document.rowCount, "move \(i)")
            if doc.document.rowCount > 0 {  // a copy of a stored row under a new key: its id is taken
                #expect(throws: (any Error).self) {
                    try doc.store.write { db in
                        try db.execute(sql: """
                            INSERT INTO row (document, parent, order_key, id, size, fields)
                            SELECT document, parent, order_key || 'V', id, size, fields
                            FROM row WHERE document = ? LIMIT 1
                            """, arguments: [doc.id])
                    }
                }
            }
            if withOtherDocument {
                let other = try DocumentStore(path: path).open("other")
                #expect(try Self.storedRows(other).0.rowCount == 50)
                #expect(try other.verify() == [])
            }
        }
    }

    /// `OrderKey.keys`: increasing, strictly between the bounds, within `maxLength`, and short:
    /// after the last key they are the next integers; between two keys the halving adds about
    /// one character per six halvings.
    @Test func runKeysAreOrderedAndShort() throws {
        let bounds: [(String?, String?)] = [(nil, nil), ("a0", nil), (nil, "a0"), ("a0", "a1"), ("a0V", "a0W"), ("Zz", "b00"), ("a5", "a50001")]
        for (low, high) in bounds {
            for count in [1, 2, 3, 31, 1000, 100_000] {
                guard let keys = try OrderKey.keys(count, between: low, high) else {
                    Issue.record("no keys for \(count) between \(low ?? "-") and \(high ?? "-")")
                    continue
                }
                #expect(keys.count == count)
                let all = [low.map { Array($0.utf8) }].compactMap { $0 } + keys + [high.map { Array($0.utf8) }].compactMap { $0 }
                #expect(zip(all, all.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) }, "\(count) between \(low ?? "-") and \(high ?? "-")")
                #expect(keys.allSatisfy { $0.count <= OrderKey.maxLength })
                if high == nil { #expect(keys.allSatisfy { $0.count <= 4 }) }
            }
        }
        #expect(try OrderKey.keys(100_000, between: nil, nil)!.map { String(decoding: $0, as: UTF8.self) } == OrderKey.sequence(100_000))
    }
}
