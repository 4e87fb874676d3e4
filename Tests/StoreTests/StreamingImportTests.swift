import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// `importDocument(reading:)` writes rows while the file is still being read (issue 11): all of
/// it in the import's one transaction, so a problem found late still stores nothing, and what
/// is stored is exactly the document read (`verify`: the rows equal a replay of the log).
@Suite struct StreamingImportTests {
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
        #expect(throws: StackDocError("f.json: rows[9]: late")) {
            try store.importDocument { rows in
                for batch in parts { _ = rows(batch) }
                throw StackDocError("f.json: rows[9]: late")
            }
        }
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
        #expect(throws: StackDocError("f.json: late")) {
            try store.importDocument { rows in
                for batch in parts { _ = rows(batch) }   // the writer is gone: dropped, never blocks
                throw StackDocError("f.json: late")
            }
        }
        let named = { var n = d; n.name = "x"; return n }()
        #expect(throws: StackDocError(.documentExists(name: "x"))) {
            try store.importDocument { _ in (named, false) }
        }
    }
}
