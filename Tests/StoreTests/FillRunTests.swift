import Foundation
import GRDB
import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 15 item 8, the undo of a `clear` (a run of inserts that fills the empty document): its
/// order keys come from one flat list stepped in place (`OrderKey.keyList`), its rows are encoded
/// for their INSERTs by style, and — when the write ends with a snapshot — encoded for the image
/// at the same time (`RowRunWriter.encode` with `imageRows`). Each must give exactly what the
/// path it replaced gives: the same key bytes, the same values bound, the same image, and the
/// same stored rows as the import the clear took back.
@Suite(.longRunning) struct FillRunTests {
    /// `keyList` is `keys`, byte for byte (nil when `keys` is nil), after every kind of bound: none,
    /// an integer, a fraction, a negative head, keys whose increment carries into a longer head,
    /// keys whose run passes `maxLength` (nil), and bounds on both sides (the halving).
    @Test func keyListIsKeysByteForByte() throws {
        let bounds: [(String?, String?)] = [
            (nil, nil), ("a0", nil), ("a0V", nil), ("a5zzz", nil), ("Zz", nil), ("Z0", nil), ("Yzz", nil), ("az", nil),
            ("bzy", nil), ("fzzzzzz", nil), ("nzzzzzzzzzzzzzy", nil), ("ozzzzzzzzzzzzzzx", nil), ("ozzzzzzzzzzzzzzz", nil),
            ("a0", "a1"), ("a0V", "a0W"), ("Zz", "b00"), ("a5", "a50001"), (nil, "a0"), ("a000000000000001", "a000000000000002"),
        ]
        var nilCount = 0
        for (low, high) in bounds {
            for count in [0, 1, 2, 3, 61, 62, 63, 64, 3_843, 3_844, 3_845, 30_000] {
                let expected = try OrderKey.keys(count, between: low, high)
                let got = try OrderKey.keyList(count, between: low, high)
                #expect(got?.arrays == expected, "\(count) between \(low ?? "-") and \(high ?? "-")")
                #expect(got?.count == expected?.count)
                if expected == nil { nilCount += 1 }
            }
        }
        #expect(nilCount > 10, "runs too long for their gap are among the cases")
        #expect(try OrderKey.keyList(100_000, between: nil, nil)!.arrays.map { String(decoding: $0, as: UTF8.self) } == OrderKey.sequence(100_000))
    }

    /// A run of `n` inserts at the root, indexes 0, 1, …, random configs of a few styles.
    static func fillRun(_ n: Int, seed: UInt64) -> [Change] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { .insertRow(id: "f\($0)", config: EncodedRowsTests.randomConfig(&rng), parent: nil, index: $0) }
    }

    /// The rows `encode` hands over bind exactly what the rows encoded in full under
    /// `OrderKey.keys` bind, and, with `imageRows`, the image it returns is the image of the
    /// document the run makes (`SnapshotImage.encodeRows`), byte for byte.
    @Test(arguments: [(3_000, true), (3_000, false), (40, true)] as [(Int, Bool)])
    func aFillRunEncodesItsRowsAndTheImageOfTheDocumentAfterIt(n: Int, imageRows: Bool) throws {
        let changes = Self.fillRun(n, seed: UInt64(n) * 7 + (imageRows ? 1 : 0))
        let (writer, length) = RowRunWriter.leadingRun(of: changes[...])
        #expect(length == n)
        let run = EncodedRun(before: nil, after: nil)
        run.imageRows = imageRows
        let image = writer.encode(run)
        var batches: [EncodedRows] = []
        while let rows = run.queue.take() { batches.append(rows) }
        #expect(run.keyed && run.error == nil)
        let keys = try #require(try OrderKey.keys(n, between: nil, nil))
        var reference = EncodedRows()
        var document = Document(name: "d")
        for (change, key) in zip(changes, keys) {
            guard case let .insertRow(id, config, _, _) = change else { continue }
            reference.append(id, parent: nil, key: key, config: config)
            try document.apply(change)
        }
        #expect(batches.reduce(0) { $0 + $1.count } == n)
        var r = 0
        for batch in batches {
            for b in 0..<batch.count {
                #expect(batch.describe(row: b) == reference.describe(row: r), "row \(r)")
                r += 1
            }
        }
        let settings = document.settings
        let expected = SnapshotImage.encodeRows(document).image(uid: "u", version: 3, seq: 2, settings: settings)
        #expect(image?.image(uid: "u", version: 3, seq: 2, settings: settings) == (imageRows ? expected : nil))
    }

    /// The rows of `row` for a document, every column, in key order within each stack.
    static func storedTable(_ doc: StoredDocument) throws -> [[DatabaseValue]] {
        try doc.store.read { db -> [[DatabaseValue]] in
            let rows = try GRDB.Row.fetchAll(db, sql: "SELECT * FROM row WHERE document = ? ORDER BY parent, order_key, id", arguments: [doc.id])
            return rows.map { row -> [DatabaseValue] in Array(row.databaseValues) }
        }
    }

    /// An imported document of random rows (a few styles, stacks among them), cleared, then the
    /// clear undone, redone and undone again with a reopen between: after each undo the `row`
    /// table holds exactly what the import stored (every column, order keys included), the
    /// snapshot the undo wrote is the document's image, `verify` is clean and a reopen (from that
    /// snapshot) gives the same document.
    @Test func theUndoOfAClearStoresWhatTheImportStored() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "f.sqlite").path
        let options = StoreOptions(snapshots: SnapshotPolicy(changes: 1_000))
        var imported = Document(name: "d")
        var applied = 0
        try imported.apply(run: Self.fillRun(StoredDocument.parallelRunMinimum + 700, seed: 11)[...], applied: &applied)
        var doc = try DocumentStore(path: path, options: options).importDocument(imported)
        let table = try Self.storedTable(doc)
        #expect(table.count == imported.rowCount)
        _ = try doc.perform(.clear(parent: nil))
        #expect(try Self.storedTable(doc).isEmpty)
        for step in ["undo", "redo", "undo"] {
            if step == "redo" { _ = try doc.redo() } else { _ = try doc.undo() }
            if step == "undo" {
                #expect(try Self.storedTable(doc) == table, "\(step): the stored rows")
                #expect(doc.document == imported, "\(step): the document")
                let (seq, image) = try doc.store.read { db in
                    let row = try GRDB.Row.fetchOne(db, sql: "SELECT seq, image FROM snapshot_image WHERE document = ? ORDER BY seq DESC LIMIT 1",
                                                    arguments: [doc.id])!
                    return (row["seq"] as Int, [UInt8](row["image"] as Data))
                }
                #expect(seq == doc.lastSeq, "\(step): a snapshot written with the undo")
                let header = try SnapshotImage.decode(image, name: "d").header
                #expect(image == SnapshotImage.encodeRows(imported).image(uid: header.uid, version: header.version, seq: seq,
                                                                          settings: imported.settings), "\(step): the image")
            }
            try RowRunTests.expectStoredExactly(doc, step)
            doc = try DocumentStore(path: path, options: options).open("d")
            #expect(doc.loadSource != .rows(reason: nil), "\(step): opened from a snapshot")
            #expect(doc.document == (step == "redo" ? Document(name: "d", settings: imported.settings) : imported), "\(step): reopened")
        }
    }
}
