import Foundation
import GRDB
import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// The change blobs in a file (the codec alone: StoreFormatTests' `ChangeBlobTests`): a clear
/// logs its rows in binary, a log may mix it with the JSON text of formats 1 and 2, and a file
/// of schema 14 upgrades and keeps reading its text entries.
@Suite(.offThePool) struct ChangeBlobStoreTests {
    /// A `clear` of 5,000 rows logs its changes in binary (format 3, a BLOB, under 24 bytes a
    /// row where the JSON took ≈ 250), undo and redo read them back exactly, and a damaged blob
    /// is reported as a damaged entry, naming it.
    @Test func aClearLogsItsRowsInBinary() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "c.sqlite").path
        let store = try DocumentStore(path: path)
        var document = Document(name: "big")
        var rng = SplitMix64(seed: 8)
        for i in 0..<5000 {
            var config = RowConfig(size: rng.chance(9) ? .fit : .fixed(Double(rng.int(20..<200))))
            if i % 11 == 0 { config.type = "t\(i % 3)"; config.grow = 1; config.background = "#FFFFFF" }
            if i % 17 == 0 { config.hidden = true; config.content = Size(width: 3, height: 4.5) }
            try document.apply(.insertRow(id: "r\(i)", config: config, parent: nil, index: i))
        }
        let doc = try store.importDocument(document)
        let cleared = try doc.perform(.clear(parent: nil))
        let (type, format, bytes) = try store.read { db in
            let row = try #require(try GRDB.Row.fetchOne(db, sql: "SELECT typeof(forward) AS t, format, length(forward) AS n FROM log WHERE seq = 2"))
            return (row["t"] as String, row["format"] as Int, row["n"] as Int)
        }
        #expect(type == "blob" && format == 3)
        #expect(bytes < 24 * 5000, "\(bytes) bytes for 5000 rows")
        #expect(try doc.log(from: 2, limit: 1).first?.changes == cleared)
        try doc.undo()
        #expect(doc.document == document)
        try doc.redo()
        try doc.undo()
        #expect(try doc.verify(replan: true) == [])
        let reopened = try DocumentStore(path: path).open("big")
        #expect(reopened.document == document)
        try reopened.redo()
        #expect(reopened.document.rowCount == 0)
        // Damage: one byte of the clear's blob changed.
        try Tamper.sql(path, "UPDATE log SET forward = CAST(X'00' || substr(forward, 2) AS BLOB) WHERE seq = 2")
        var problem = ""
        do {
            let broken = try DocumentStore(path: path).open("big")
            #expect(throws: (any Error).self) { try broken.undo() }
            problem = try broken.verify().joined(separator: "; ")
        } catch {
            problem = "\(error)"
        }
        #expect(problem.contains("log entry 2 is damaged (forward: not a list of changes in binary)"), "\(problem)")
    }

    /// A group whose operations changed nothing makes no step (`commit` recognizes the empty
    /// list's blob).
    @Test func aGroupOfNoChangesMakesNoStep() throws {
        do {
            let doc = try DocumentStore(path: ":memory:").create("d")
            try doc.perform(.add(ids: ["a"], spec: [.fixed(10)], position: nil, parent: nil))
            try doc.begin("nothing")
            try doc.perform(.show(ids: ["a"]))
            #expect(try doc.commit() == nil)
            #expect(doc.stepCount == 1)
            let type = try doc.store.read { db in try String.fetchOne(db, sql: "SELECT typeof(forward) FROM log WHERE kind = 'op' ORDER BY seq DESC LIMIT 1") }
            #expect(type == "blob")
            try doc.begin("something")
            try doc.perform(.hide(ids: ["a"]))
            #expect(try doc.commit() != nil)
            #expect(try doc.verify(replan: true) == [])
        }
    }

    /// Random histories (edits, clears of the root or a stack, adds of many rows, groups,
    /// rollbacks, undo/redo of several steps, restores), with a new connection every few
    /// actions, whose entries of about half the actions are then rewritten as format 2 wrote
    /// them (a file of schema 19 mixing the codings): migration 0020 converts them to exactly the
    /// entries they were, `verify` is clean, every past state read through the log equals the
    /// replay, and a second connection's log and replay equal the first's.
    @Test(arguments: [1, 2, 3])
    func randomHistoriesMixingFormatsConvertExactly(seed: UInt64) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "m.sqlite").path
        var rng = SplitMix64(seed: 15_1500 + seed)
        let options = StoreOptions(snapshots: SnapshotPolicy(interval: 2 + Int(seed), keep: 2))
        var doc = try DocumentStore(path: path, options: options).create("d")
        try doc.perform(.add(ids: (0..<40).map { "s\($0)" }, spec: [.fixed(30)], position: nil, parent: nil))
        var formats: Set<String> = []
        var asFormat2: [Int] = []
        for action in 0..<70 {
            if action % 8 == 7 { doc = try DocumentStore(path: path, options: options).open("d") }
            let (first, older) = (try doc.status().logEntries + 1, rng.chance(2))
            do {
                switch rng.int(0..<12) {
                case 0, 1, 2:
                    _ = try? doc.perform(RandomOps.randomEdit(for: doc.document, rng: &rng))
                case 3:
                    var stacks: [RowID] = []
                    doc.document.forEachRow { id, _, _, config in if config.stack != nil { stacks.append(id) } }
                    _ = try? doc.perform(.clear(parent: rng.chance(2) || stacks.isEmpty ? nil : rng.pick(stacks)))
                case 4:
                    let ids = (0..<rng.int(1..<60)).map { "n\(action)x\($0)" }
                    _ = try? doc.perform(.add(ids: ids, spec: [.fixed(Double(rng.int(5..<50)))], position: rng.chance(2) ? .top : nil, parent: nil))
                case 5 where doc.cursor > 0, 6 where doc.cursor > 0: try doc.undo(rng.int(1..<(min(doc.cursor, 3) + 1)))
                case 7 where doc.stepCount > doc.cursor: try doc.redo(rng.int(1..<(min(doc.stepCount - doc.cursor, 3) + 1)))
                case 8: try doc.perform(.scroll(.offset(Double(rng.int(0..<3000)))))
                case 9 where doc.cursor > 1: _ = try doc.restore(to: .now(back: rng.int(1..<min(doc.status().logEntries, 6))))
                case 10:
                    try doc.begin("g")
                    for _ in 0..<rng.int(1..<4) { _ = try? doc.perform(RandomOps.randomEdit(for: doc.document, rng: &rng)) }
                    if rng.chance(4) { try doc.rollback() } else { try doc.commit() }
                default: break
                }
            }
            if older { asFormat2 += Array(stride(from: first, through: try doc.status().logEntries, by: 1)) }
            #expect(try doc.verify() == [], "seed \(seed) action \(action)")
        }
        let written = try doc.log()
        try Tamper.logAsFormat2(path, where: "seq IN (\(asFormat2.map(String.init).joined(separator: ", ")))")
        let mixed = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT format || ' ' || typeof(forward) FROM log WHERE forward IS NOT NULL ORDER BY 1")
        }
        #expect(mixed == ["2 text", "3 blob"], "both codings in the file, each in its own format: \(mixed)")
        doc = try DocumentStore(path: path, options: options).open("d")
        #expect(try doc.log() == written)
        try doc.store.read { db in
            for row in try GRDB.Row.fetchAll(db, sql: "SELECT format, typeof(forward) AS t FROM log WHERE forward IS NOT NULL") {
                formats.insert("\(row["format"] as Int) \(row["t"] as String)")
            }
        }
        #expect(formats == ["3 blob"], "every entry converted: \(formats)")
        #expect(try doc.verify(replan: true) == [])
        try HistoryMoveLogTests.expectEveryPastStateAgrees(doc, "seed \(seed)")
        let other = try DocumentStore(path: path).open("d")
        #expect(try other.log() == (try doc.log()))
        #expect(try other.replayed().exportJSON() == doc.document.exportJSON())
        #expect(other.document == doc.document)
    }

    /// A file of schema 14 (entries of format 2, JSON text: what the release before this change
    /// wrote) upgrades to schema 15, verifies, reads every past state; new entries are format 3,
    /// an undo of a format 2 `clear` reads its text, and everything verifies and reopens equal.
    @Test func aFileOfSchema14UpgradesAndReadsItsTextEntries() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "old.sqlite").path
        let full: Document = try {
            let store = try DocumentStore(path: path)
            let doc = try store.create("d")
            try doc.perform(.add(ids: (0..<300).map { "r\($0)" }, spec: [.fixed(20), .type("cell")], position: nil, parent: nil))
            try doc.perform(.set(id: "r3", spec: [.grow(2)]))
            let full = doc.document
            try doc.perform(.clear(parent: nil))
            try doc.undo()
            try doc.redo()
            return full
        }()
        try Tamper.logAsFormat2(path)
        let migration = try #require(Schema.migrations.last { $0.version == 15 }?.name)
        try CompactRowMigrationTests.downgradeToSchema15(path)
        try Tamper.sql(path, "DROP VIEW log_changes; DELETE FROM grdb_migrations WHERE identifier = '\(migration)'")
        let text = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM log WHERE typeof(forward) = 'text' AND format = 2") ?? 0
        }
        #expect(text == 5)
        let store = try DocumentStore(path: path)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        let doc = try store.open("d")
        #expect(doc.document.rowCount == 0)
        #expect(try doc.verify(replan: true) == [])
        try doc.undo()
        #expect(doc.document == full)
        try doc.perform(.remove(ids: ["r1", "r2"]))
        try doc.undo()
        try doc.undo()
        try doc.redo()
        let kinds = try store.read { db in
            try GRDB.Row.fetchAll(db, sql: "SELECT format, typeof(forward) AS t FROM log WHERE seq > 6 ORDER BY seq").map { "\($0["format"] as Int) \($0["t"] as String)" }
        }
        #expect(kinds == ["3 blob", "3 blob", "3 blob", "3 blob", "3 blob"], "\(kinds)")
        #expect(try doc.verify(replan: true) == [])
        try HistoryMoveLogTests.expectEveryPastStateAgrees(doc, "upgraded")
        let reopened = try DocumentStore(path: path).open("d")
        #expect(reopened.document == doc.document)
        #expect(try reopened.log() == (try doc.log()))
    }
}
