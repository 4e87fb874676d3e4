import Foundation
import GRDB
import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// `importDocument(reading:)` writes rows while the file is still being read (issue 11): all of
/// it in the import's one transaction, so a problem found late still stores nothing, and what
/// is stored is exactly the document read (`verify`: the rows equal a replay of the log).
@Suite(.offThePool) struct StreamingImportTests {
    private func document(rows: Int, name: String = "imp") throws -> Document {
        var d = Document(name: name, settings: DocumentSettings(spacing: 2))
        try d.appendRow("s", config: RowConfig(stack: StackSettings(axis: .horizontal, spacing: 1)), parent: nil)
        for i in 0..<rows {
            try d.appendRow("r\(i)", config: RowConfig(size: i % 7 == 0 ? .fit : .fixed(Double(i % 30)), hidden: i % 11 == 0),
                            parent: i % 4 == 0 ? "s" : nil)
        }
        return d
    }

    /// The rows of `d` in document order, in batches of `size`.
    private func batches(_ d: Document, size: Int = 1000) -> [[ImportedRow]] {
        var rows: [ImportedRow] = []
        d.forEachRow { id, parent, _, config in rows.append(ImportedRow(id: id, parent: parent, config: config)) }
        return stride(from: 0, to: rows.count, by: size).map { Array(rows[$0..<min($0 + size, rows.count)]) }
    }

    @Test func rowsWrittenWhileReadingAreTheDocument() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "s.sqlite").path
        let d = try document(rows: 20_000)
        let parts = batches(d)
        let doc = try DocumentStore(path: path).importDocument { rows in
            for batch in parts { _ = rows(batch) }
            return (d, true)
        }
        #expect(doc.document == d)
        #expect(try doc.verify(replan: true) == [])
        let reopened = try DocumentStore(path: path, options: StoreOptions(snapshots: .off)).open("imp")
        #expect(reopened.document == d)
        try reopened.perform(.remove(ids: ["r5"]))
        #expect(try reopened.verify() == [])
    }

    @Test func rowsThatAreNotTheDocumentsAreReplaced() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "s.sqlite").path
        let d = try document(rows: 300)
        let other = try document(rows: 500, name: "imp")
        let doc = try DocumentStore(path: path).importDocument { rows in
            for batch in batches(other, size: 64) { _ = rows(batch) }
            return (d, false)
        }
        #expect(doc.document == d)
        #expect(try doc.verify() == [])
        let count = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM row")! }
        #expect(count == d.rowCount)
    }

    @Test func aLateProblemStoresNothing() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "s.sqlite").path
        let store = try DocumentStore(path: path)
        try store.create("imp2")
        let d = try document(rows: 5000)
        let parts = batches(d, size: 100)
        // The reading fails after every row was handed over (a problem at the end of the file).
        #expect(thrownMessage {
            try store.importDocument { rows in
                for batch in parts { _ = rows(batch) }
                throw StackDocError("f.json: rows[9]: late")
            }
        } == "f.json: rows[9]: late")
        // A name in use is found once the file is read, after its rows were written.
        let taken = { var t = d; t.name = "imp2"; return t }()
        #expect(throws: StackDocError(.documentExists(name: "imp2"))) {
            try store.importDocument { rows in
                for batch in parts { _ = rows(batch) }
                return (taken, true)
            }
        }
        // A row that breaks a rule, found by the check after the reading.
        var negative = RowConfig()
        negative.grow = -1
        let bad = try { var b = d; try b.updateRow("r3", config: negative); return b }()
        #expect(throws: (any Error).self) {
            try store.importDocument { rows in
                for batch in batches(bad) { _ = rows(batch) }
                return (bad, true)
            }
        }
        #expect(try store.documentNames() == ["imp2"])
        let leftovers = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM row) + (SELECT count(*) FROM import_image) + (SELECT count(*) FROM snapshot) + (SELECT count(*) FROM document WHERE name <> 'imp2')")!
        }
        #expect(leftovers == 0)
        #expect(try store.integrityCheck() == [])
        // And then the import works.
        let doc = try store.importDocument { rows in
            for batch in parts { _ = rows(batch) }
            return (d, true)
        }
        #expect(try doc.verify() == [])
    }

    @Test func aReadOnlyDatabaseStillReportsTheFilesProblemFirst() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "s.sqlite").path
        try DocumentStore(path: path).create("x")
        let store = try DocumentStore(path: path, options: StoreOptions(readOnly: true))
        let d = try document(rows: 50_000)
        let parts = batches(d, size: 100)
        #expect(thrownMessage {
            try store.importDocument { rows in
                for batch in parts { _ = rows(batch) }   // the writer is gone: dropped, never blocks
                throw StackDocError("f.json: late")
            }
        } == "f.json: late")
        let named = { var n = d; n.name = "x"; return n }()
        #expect(throws: StackDocError(.documentExists(name: "x"))) {
            try store.importDocument { _ in (named, false) }
        }
    }

    /// A large import builds the id index after its rows (`DeferredIDIndex`): the index is back,
    /// as the migrations define it, it finds every row and refuses a repeated id — and when the
    /// import fails after the drop, the rollback keeps the index.
    @Test func aLargeImportBuildsTheIdIndexOnceAtTheEnd() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "s.sqlite").path
        let store = try DocumentStore(path: path)
        try store.create("small")
        try store.open("small").perform(.add(ids: ["r1"], spec: [.fixed(10)], position: nil, parent: nil))
        let rows = DeferredIDIndex.firstCount + 5000
        let d = try document(rows: rows)
        let parts = batches(d, size: 4096)
        func indexSQL() throws -> String? {
            try DatabaseQueue(path: path).read { db in
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [DeferredIDIndex.name])
            }
        }
        let expected = try indexSQL()
        #expect(expected != nil)
        // A failure after the drop (the whole file was handed over): the index is rolled back.
        #expect(thrownMessage {
            try store.importDocument { hand in
                for batch in parts { _ = hand(batch) }
                throw StackDocError("f.json: late")
            }
        } == "f.json: late")
        #expect(try indexSQL() == expected)
        let doc = try store.importDocument { hand in
            for batch in parts { _ = hand(batch) }
            return (d, true)
        }
        #expect(try indexSQL() == expected)
        #expect(try store.integrityCheck() == [])
        #expect(try doc.verify() == [])
        // INDEXED BY fails when the index is missing.
        let found = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM row INDEXED BY row_by_id WHERE document = ? AND id IN ('r0', 'r65535', 'r\(rows - 1)', 's')",
                             arguments: [doc.id])!
        }
        #expect(found == 4)
        // Still unique: a repeated id is refused by the index.
        #expect(throws: (any Error).self) {
            try DatabaseQueue(path: path).write { db in
                try db.execute(sql: "INSERT INTO row (document, parent, order_key, id, size, fields) SELECT document, parent, order_key || 'x', id, NULL, NULL FROM row WHERE document = ? AND id = 'r7'", arguments: [doc.id])
            }
        }
        try doc.perform(.remove(ids: ["r70000"]))
        #expect(try DocumentStore(path: path, options: StoreOptions(snapshots: .off)).open("imp").document == doc.document)
    }

    /// The index is dropped only when the rows inserted outnumber the table's others (counted
    /// at 65,536 rows and at each doubling), and comes back as it was.
    @Test func theIdIndexIsDroppedOnlyWhenTheInsertOutnumbersTheTable() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator().migrate(queue)
        func indexSQL(_ db: Database) throws -> String? {
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [DeferredIDIndex.name])
        }
        try queue.write { db in
            let expected = try indexSQL(db)
            try db.execute(sql: "INSERT INTO document (name, axis, viewport_width, viewport_height, offset, padding, spacing, justify, align, default_insets, separator_hidden, separator_insets, separator_thickness, separator_color, autohide_last_separator) VALUES ('d', 'vertical', 1, 1, 0, '0,0,0,0', 0, 'start', 'stretch', '0,0,0,0', 0, '0,0,0,0', 1, '#000000', 0)")
            func addRows(_ count: Int, from first: Int) throws {
                try db.execute(sql: """
                    WITH RECURSIVE k(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ?)
                    INSERT INTO row (document, parent, order_key, id, size, fields)
                    SELECT 1, '', printf('%08d', i), 'r' || i, NULL, NULL FROM k
                    """, arguments: [first, first + count])
            }
            // 70,000 rows already stored: an insert of 65,536 keeps the index, one of 140,000 drops it.
            try addRows(70_000, from: 0)
            var index = DeferredIDIndex()
            try addRows(DeferredIDIndex.firstCount, from: 70_000)
            try index.rowsInserted(DeferredIDIndex.firstCount, db)
            #expect(try indexSQL(db) == expected)
            try index.rowsInserted(DeferredIDIndex.firstCount + 100, db)   // before the next count
            #expect(try indexSQL(db) == expected)
            try addRows(2 * DeferredIDIndex.firstCount, from: 70_000 + DeferredIDIndex.firstCount)
            try index.rowsInserted(3 * DeferredIDIndex.firstCount, db)
            #expect(try indexSQL(db) == nil)
            try index.restore(db)
            #expect(try indexSQL(db) == expected)
            let indexed = try Int.fetchOne(db, sql: "SELECT count(*) FROM row INDEXED BY row_by_id WHERE document = 1 AND id >= 'r'")
            #expect(indexed == 70_000 + 3 * DeferredIDIndex.firstCount)
        }
    }

    /// Each batch's statement names only the columns its rows use (`BulkRowInserter`): rows of
    /// every shape — each optional column set alone, in random mixes, plain runs longer than a
    /// batch, a short last batch — are stored exactly (read back from the rows, not a snapshot).
    @Test func rowsOfEveryShapeAreStoredExactly() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "s.sqlite").path
        var rng = SplitMix64(seed: 1611)
        let setters: [(inout RowConfig) -> Void] = [
            { $0.size = .fixed(12) }, { $0.insets = Edges(all: 2) }, { $0.margin = Edges(top: 1, left: 0, bottom: 3, right: 0) },
            { $0.separator.hidden = true }, { $0.separator.insets = Edges(all: 1) }, { $0.separator.thickness = 2 },
            { $0.separator.color = "#102030" }, { $0.minMain = 4 }, { $0.maxMain = 90 }, { $0.minCross = 1 }, { $0.maxCross = 300 },
            { $0.background = "#abcdef" }, { $0.highlight = "#010203" }, { $0.text = TextRun(count: 12, glyphWidth: 7, lineHeight: 18) },
            { $0.aspect = Size(width: 16, height: 9) }, { $0.sticky = true }, { $0.hidden = true }, { $0.grow = 2 }, { $0.type = "label" },
        ]
        var d = Document(name: "shapes")
        try d.appendRow("s", config: RowConfig(stack: StackSettings(axis: .horizontal, justify: .center, align: .end, spacing: 3)), parent: nil)
        var n = 0
        func add(_ config: RowConfig) throws {
            try d.appendRow("r\(n)", config: config, parent: n % 5 == 0 ? "s" : nil)
            n += 1
        }
        for set in setters { var c = RowConfig(); set(&c); try add(c) }            // each alone
        for _ in 0..<100 { try add(RowConfig()) }                                  // plain batches
        for _ in 0..<2000 {                                                        // random mixes
            var c = RowConfig()
            for set in setters where Int.random(in: 0..<6, using: &rng) == 0 { set(&c) }
            if c.text != nil { c.aspect = nil }                                    // not both (a rule)
            try add(c)
        }
        for _ in 0..<45 { try add(RowConfig(size: .fixed(3))) }                    // a short last batch
        let parts = batches(d, size: 97)
        let read = d
        let doc = try DocumentStore(path: path).importDocument { rows in
            for batch in parts { _ = rows(batch) }
            return (read, true)
        }
        #expect(doc.document == d)
        #expect(try doc.verify() == [])
        #expect(try DocumentStore(path: path, options: StoreOptions(snapshots: .off)).open("shapes").document == d)
    }

    /// Random documents (nested stacks, every kind of field, settings) read from their JSON by
    /// the importer itself, rows handed over in its batches and encoded on the reading thread
    /// (`EncodedRows`): what is stored is the file's document, row for row (read back from the
    /// rows, not a snapshot), it verifies, and it takes edits. Large enough for several batches
    /// and a statement of fewer rows than `RowWriter.bulkBatch` inside each.
    @Test(arguments: [3, 1611, 90210] as [UInt64])
    func randomDocumentsReadFromJSONAreStoredExactly(seed: UInt64) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "s.sqlite").path
        var rng = SplitMix64(seed: seed)
        var d = Document(name: "rand", settings: DocumentSettings(offset: 0, spacing: 3))
        for _ in 0..<300 {
            let (_, changes) = RandomOps.edit(for: d, rng: &rng)
            try d.apply(changes)
        }
        // Scale it up: copies of its rows' configs (every field its edits set) in its stacks.
        var configs: [RowConfig] = []
        var stacks: [RowID?] = [nil]
        d.forEachRow { id, _, _, config in
            configs.append(config)
            if config.stack != nil { stacks.append(id) }
        }
        if configs.isEmpty { configs = [RowConfig()] }
        for i in 0..<9_000 {
            var config = configs[i % configs.count]
            config.stack = nil
            try d.appendRow("x\(i)", config: config, parent: stacks[Int(rng.next() % UInt64(stacks.count))])
        }
        d.settings.offset = 0   // (an offset past the end is stored clamped: OffsetClampTests)
        let json = Array(d.exportJSON(pretty: false).utf8)
        let read = try Document(jsonBytes: json)
        let doc = try DocumentStore(path: path).importDocument { rows in try Document.read(jsonBytes: json, rows: rows) }
        #expect(doc.document == read)
        #expect(try doc.verify() == [])
        let reopened = try DocumentStore(path: path, options: StoreOptions(snapshots: .off)).open("rand")
        #expect(reopened.document == read)
        let stored = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM row")! }
        #expect(stored == read.rowCount)
        try reopened.perform(.remove(ids: ["x7"]))
        #expect(try reopened.verify() == [])
    }

    /// The reading indexes the ids only at the end of the file, so rows with a repeated id are
    /// handed to the store (and to SQLite's unique id index, or its rebuild at the end of a
    /// large insert) before the reading knows: the import still fails with the reading's
    /// problem (the second row's path), stores nothing, and the store takes an import after it.
    @Test(arguments: [(rows: 2_000, repeatAt: 1_000), (rows: 70_000, repeatAt: 69_990), (rows: 70_000, repeatAt: 10)])
    func aRepeatedIdStoresNothingAndIsTheReadingsProblem(rows: Int, repeatAt: Int) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "s.sqlite").path
        let store = try DocumentStore(path: path)
        let body = (0..<rows).map { #"{"id":"r\#($0 == repeatAt ? 7 : $0)","size":{"fixed":\#($0 % 90)}}"# }
        let bad = Array((#"{"format":"stackdoc/1","name":"dup","rows":["# + body.joined(separator: ",") + "]}").utf8)
        #expect { try store.importDocument { rows in try Document.read(jsonBytes: bad, rows: rows) } } throws: {
            "\($0)" == "rows[\(repeatAt)].id: duplicate id 'r7'"
        }
        #expect(try store.documentNames() == [])
        let leftovers = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM row) + (SELECT count(*) FROM import_image) + (SELECT count(*) FROM snapshot) + (SELECT count(*) FROM log) + (SELECT count(*) FROM document)")!
        }
        #expect(leftovers == 0)
        #expect(try store.integrityCheck() == [])
        let good = Array((#"{"format":"stackdoc/1","name":"dup","rows":["# + body.enumerated().map { $0.offset == repeatAt ? #"{"id":"z"}"# : $0.element }.joined(separator: ",") + "]}").utf8)
        let doc = try store.importDocument { rows in try Document.read(jsonBytes: good, rows: rows) }
        #expect(doc.document.rowCount == rows && doc.document.contains("z"))
        #expect(try doc.verify() == [])
    }

    /// Ids written with JSON escapes (`"\u0072"` is `r`) are stored as the text they stand
    /// for; a row whose id is not a name (here a non-ASCII one) late in a large file stores
    /// nothing at all, though most rows were written by then.
    @Test func escapedIdsAreStoredAsTheirTextAndABadIdLateStoresNothing() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "s.sqlite").path
        let store = try DocumentStore(path: path)
        func file(_ idOf: (Int) -> String) -> [UInt8] {
            let rows = (0..<10_000).map { #"{"id":"\#(idOf($0))","size":{"fixed":\#($0 % 90)}}"# }
            return Array((#"{"format":"stackdoc/1","name":"esc","rows":["# + rows.joined(separator: ",") + "]}").utf8)
        }
        let bad = file { $0 == 9_000 ? "r\u{e9}" : "r\($0)" }
        #expect(throws: (any Error).self) {
            try store.importDocument { rows in try Document.read(jsonBytes: bad, rows: rows) }
        }
        #expect(try store.documentNames() == [])
        let leftovers = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM row) + (SELECT count(*) FROM import_image) + (SELECT count(*) FROM snapshot) + (SELECT count(*) FROM log) + (SELECT count(*) FROM document)")!
        }
        #expect(leftovers == 0)
        #expect(try store.integrityCheck() == [])
        let escaped = file { $0 % 2 == 0 ? "\\u0072\($0)" : "r\($0)" }
        let doc = try store.importDocument { rows in try Document.read(jsonBytes: escaped, rows: rows) }
        #expect(doc.document.rowCount == 10_000 && doc.document.contains("r0") && doc.document.contains("r9998"))
        #expect(try doc.verify() == [])
        let ids = try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "SELECT id FROM row WHERE id LIKE 'r1_'") }
        #expect(Set(ids) == Set((10...19).map { "r\($0)" }))
    }
}
