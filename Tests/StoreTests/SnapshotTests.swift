import Foundation
import GRDB
import Layout
import OrderStatistics
import PropertyBased
@testable import Store
import StackDocTestSupport
import Testing

/// Snapshots never change a result: opening from a snapshot and the log after it gives exactly
/// the document the rows give (and a replay of the log), across restarts and processes; a
/// damaged, foreign or stale snapshot is skipped (the rows are read) and `verify` reports it.
@Suite(.longRunning) struct SnapshotTests {
    /// A random document of `length` random edits (nested stacks, every kind of field).
    func randomDocument(seed: UInt64, length: Int) throws -> Document {
        var rng = SplitMix64(seed: seed)
        var document = Document(name: "d", settings: DocumentSettings(offset: 0, spacing: 3))
        for _ in 0..<length {
            let (_, changes) = RandomOps.edit(for: document, rng: &rng)
            try document.apply(changes)
        }
        return document
    }

    @Test func imagesRoundTripBitForBit() async {
        await propertyCheck(count: 60, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 0...150)) { seed, length in
            let document = try randomDocument(seed: seed, length: length)
            let image = SnapshotImage.encode(document, uid: "u1", version: 7, seq: 9)
            let (header, decoded) = try SnapshotImage.decode(image, name: "d")
            #expect(header == SnapshotImage.Header(uid: "u1", version: 7, seq: 9, rows: document.rowCount))
            #expect(decoded == document)
            #expect(snapshot(decoded) == snapshot(document))
        }
    }

    /// The fields added after the format was drawn up (sticky rows, viewport insets, keyboard).
    @Test func imagesKeepStickyRowsAndObscuredEdges() throws {
        var document = Document(name: "d", settings: DocumentSettings(viewportInsets: Edges(top: 44, left: 0, bottom: 34, right: 0), keyboard: 291))
        try document.appendRow("s", config: RowConfig(stack: StackSettings(), sticky: true), parent: nil)
        try document.appendRow("a", config: RowConfig(size: .fixed(10), sticky: true), parent: "s")
        try document.appendRow("b", config: RowConfig(size: .fixed(10)), parent: nil)
        let decoded = try SnapshotImage.decode(SnapshotImage.encode(document, uid: "u", version: 1, seq: 1), name: "d").document
        #expect(decoded == document)
        #expect(decoded.config(of: "a")?.sticky == true && decoded.config(of: "b")?.sticky == false)
        #expect(decoded.settings.keyboard == 291 && decoded.settings.viewportInsets.bottom == 34)
    }

    /// Appends rows that between them set every field of `everyField` (`EveryRowField.appendRows`).
    static func appendEveryFieldRows(to document: inout Document, ratioSize: RowSize? = nil,
                                     background: String = "#abcdef", schema15: Bool = false) throws {
        try EveryRowField.appendRows(to: &document, ratioSize: ratioSize, background: background, schema15: schema15)
    }

    /// A config that sets every field to a value other than its default (`EveryRowField.config`).
    static let everyField = EveryRowField.config

    /// Every stored column of a row is set by `everyField`, and its `fields` blob keeps every
    /// field: a new `RowField` fails here until the config (and so the round trips below, which
    /// then check the snapshot image keeps it) sets it.
    @Test func everyFieldSetsEveryRowColumn() throws {
        let set = ColumnCoding.values(Self.everyField), unset = ColumnCoding.values(RowConfig())
        for (k, name) in ColumnCoding.configColumns.enumerated() {
            #expect(String(describing: set[k]) != String(describing: unset[k]), "column \(name) is left at its default")
        }
        var back = try RowFields.decode(RowFields.encode(Self.everyField))
        back.size = Self.everyField.size
        #expect(back == Self.everyField)
        for field in RowField.optional {
            #expect(field.isSet(Self.everyField), "field \(field.spec.json) is left unset")
        }
    }

    /// A document with every row field and every setting away from its default: the open from a
    /// snapshot gives the same Document (and export) as the open from the rows and the replay.
    @Test func snapshotKeepsEveryField() throws {
        let settings = DocumentSettings(
            axis: .horizontal, viewport: Size(width: 320, height: 480), offset: 0, padding: Edges(top: 1, left: 2, bottom: 3, right: 4),
            spacing: 6, justify: .spaceBetween, align: .center,
            defaults: DocumentDefaults(insets: Edges(top: 2, left: 3, bottom: 4, right: 5),
                                       separator: SeparatorStyle(hidden: true, insets: Edges(top: 0, left: 1, bottom: 0, right: 1), thickness: 3, color: "#123456"),
                                       autoHideLastSeparator: false),
            viewportInsets: Edges(top: 44, left: 1, bottom: 34, right: 2), keyboard: 120)
        #expect(settings != DocumentSettings())
        var document = Document(name: "all", settings: settings)
        try Self.appendEveryFieldRows(to: &document)
        // The image alone.
        let decoded = try SnapshotImage.decode(SnapshotImage.encode(document, uid: "u", version: 1, seq: 1), name: "all").document
        #expect(decoded == document)
        #expect(decoded.exportJSON() == document.exportJSON())
        // Through a store: an open from the snapshot, then from the rows alone.
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "all.sqlite").path
        let doc = try DocumentStore(path: path).importDocument(document)
        try doc.perform(.set(id: "b", spec: [.fixed(12)]))
        _ = try doc.writeSnapshot()
        let fromSnapshot = try DocumentStore(path: path).open("all")
        guard case .snapshot = fromSnapshot.loadSource else {
            Issue.record("not opened from a snapshot: \(fromSnapshot.loadSource)")
            return
        }
        #expect(try fromSnapshot.verify(replan: true) == [])
        try tamper(path, "DELETE FROM snapshot")
        let fromRows = try DocumentStore(path: path).open("all")
        #expect(fromRows.loadSource == .rows(reason: nil))
        #expect(fromSnapshot.document == fromRows.document)
        #expect(fromSnapshot.document.exportJSON() == fromRows.document.exportJSON())
        #expect(try fromRows.replayed() == fromSnapshot.document)
        #expect(fromRows.document.config(of: "a") != nil)
        #expect(fromRows.document.config(of: "a") == document.config(of: "a"))
    }

    @Test func damagedImagesAreRefused() throws {
        var document = Document(name: "d")
        for i in 0..<50 { try document.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(i))), parent: nil) }
        let image = SnapshotImage.encode(document, uid: "u", version: 1, seq: 1)
        // Every single flipped byte and every truncation is caught (checksum or bounds).
        for i in stride(from: 0, to: image.count, by: 7) {
            var bad = image
            bad[i] ^= 0x40
            #expect(throws: SnapshotImage.Damage.self) { try SnapshotImage.decode(bad, name: "d") }
        }
        for n in [0, 5, 8, image.count / 2, image.count - 1] {
            #expect(throws: SnapshotImage.Damage.self) { try SnapshotImage.decode(Array(image[0..<n]), name: "d") }
        }
    }

    /// Random histories (edits, undo/redo, groups, rollbacks) with snapshots every few entries
    /// and a restart (a new connection) every few actions: every open equals the document before
    /// the restart, a replay of the log, and the rows without any snapshot; `verify` is clean.
    @Test func openFromSnapshotEqualsOpenFromRows() async {
        await propertyCheck(count: 30, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...90), Gen.int(in: 1...6)) { seed, length, interval in
            let dir = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let path = dir.appending(path: "s.sqlite").path
            let options = StoreOptions(snapshots: SnapshotPolicy(interval: interval, keep: 1 + Int(seed % 3)))
            var rng = SplitMix64(seed: seed)
            var doc = try DocumentStore(path: path, options: options).create("p")
            for k in 0..<length {
                try RandomOps.action(for: doc, rng: &rng).run(on: doc)
                if k % 7 == 6 {
                    let before = doc.document
                    doc = try DocumentStore(path: path, options: options).open("p")
                    #expect(doc.document == before)
                    if case let .rows(reason?) = doc.loadSource { Issue.record("snapshot skipped: \(reason)") }
                }
            }
            let final = doc.document
            let reopened = try DocumentStore(path: path, options: options).open("p")
            #expect(reopened.document == final)
            #expect(try reopened.replayed() == final)
            #expect(try reopened.verify(replan: true) == [])
            // The same file without its snapshots: the rows give the same document.
            try tamper(path, "DELETE FROM snapshot")
            let fromRows = try DocumentStore(path: path).open("p")
            #expect(fromRows.loadSource == .rows(reason: nil))
            #expect(fromRows.document == final)
        }
    }

    /// `document(afterEntry:)` (time travel: the newest snapshot at or before the entry, then the
    /// log) equals the replay of the log up to that entry, for every entry.
    @Test func documentAfterEveryEntryEqualsTheReplay() async {
        await propertyCheck(count: 15, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...60), Gen.int(in: 1...5)) { seed, length, interval in
            let store = try DocumentStore(path: ":memory:", options: StoreOptions(snapshots: SnapshotPolicy(interval: interval, keep: 100)))
            let doc = try store.create("p")
            var rng = SplitMix64(seed: seed)
            for _ in 0..<length { try RandomOps.action(for: doc, rng: &rng).run(on: doc) }
            var replayer = Replayer(name: "p")
            for entry in try doc.log() {
                try replayer.replay(entry) { _ in throw StackDocError("no import here") }
                #expect(try doc.document(afterEntry: entry.seq) == replayer.document, "entry \(entry.seq)")
            }
        }
    }

    func importedFixture(_ path: String, rows: Int = 300) throws -> StoredDocument {
        var d = Document(name: "big")
        try d.appendRow("s", config: RowConfig(stack: StackSettings(axis: .horizontal, spacing: 2)), parent: nil)
        for i in 0..<rows {
            try d.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(i % 40)), hidden: i % 9 == 0), parent: i % 5 == 0 ? "s" : nil)
        }
        let doc = try DocumentStore(path: path).importDocument(d)
        for i in 0..<5 { try doc.perform(.set(id: "r\(i * 3)", spec: [.fixed(Double(100 + i))])) }
        return doc
    }

    @Test func importWritesASnapshotAndOpenReadsIt() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "i.sqlite").path
        let doc = try importedFixture(path)
        #expect(try doc.snapshots().map(\.version) == [1])
        let reopened = try DocumentStore(path: path).open("big")
        #expect(reopened.loadSource == .snapshot(version: 1, seq: 1, tail: 5))
        #expect(reopened.document == doc.document)
        #expect(try reopened.verify() == [])
    }

    @Test func damagedForeignOrFutureSnapshotsAreSkippedAndReported() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "t.sqlite").path
        let expected = try importedFixture(path).document
        func reason(_ doc: StoredDocument) -> String {
            if case let .rows(reason?) = doc.loadSource { return reason }
            return "not skipped: \(doc.loadSource)"
        }
        // A flipped byte in the middle of a stored image (the import's first snapshot refers to
        // its import image: the snapshot gets a damaged copy of it).
        try DocumentStore(path: path).write { db in
            var image = try Data.fetchOne(db, sql: "SELECT image FROM snapshot_image")!
            image[100] ^= 0xFF
            try db.execute(sql: "UPDATE snapshot SET image = ?", arguments: [image])
        }
        do {
            let doc = try DocumentStore(path: path).open("big")
            #expect(doc.document == expected)
            #expect(reason(doc).contains("checksum mismatch"))
            #expect(try doc.verify().contains { $0.hasPrefix("snapshot of version 1 (after log entry 1) is damaged") })
            try doc.writeSnapshot()
        }
        // A sound image of another document.
        try tamper(path, "UPDATE snapshot SET uid = 'x' WHERE version = 6")
        do {
            let doc = try DocumentStore(path: path).open("big")
            #expect(doc.document == expected)
            #expect(reason(doc).contains("another document"))
        }
        // A snapshot that claims to include entries the log does not have.
        try tamper(path, "DELETE FROM snapshot")
        try DocumentStore(path: path).open("big").writeSnapshot()
        try tamper(path, "UPDATE snapshot SET seq = 99")
        let doc = try DocumentStore(path: path).open("big")
        #expect(doc.document == expected)
        #expect(reason(doc).contains("past 6"))
        #expect(try doc.verify() == ["snapshot of version 6 includes log entry 99, past the log's last entry 6"])
    }

    /// Runs `sql` on the file through a store connection (a raw second connection closing
    /// would drop this process's locks, docs/store.md).
    func tamper(_ path: String, _ sql: String) throws {
        try DocumentStore(path: path).write { db in try db.execute(sql: sql) }
    }

    /// A snapshot whose image is sound but wrong (written from another state) cannot be told
    /// at open; `verify` compares it with the replay and names the difference.
    @Test func verifyComparesEverySnapshotWithTheReplay() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "v.sqlite").path
        let doc = try importedFixture(path)
        var wrong = doc.document
        try wrong.apply([.updateRow(id: "r1", old: wrong.config(of: "r1")!, new: RowConfig(size: .fixed(5)))])
        _ = try doc.store.write { db in
            try Snapshots.write(db, documentID: doc.id, uid: doc.uid, version: doc.version, seq: 6, document: wrong, keep: 5)
        }
        let problems = try doc.verify()
        #expect(problems.contains { $0.hasPrefix("snapshot of version \(doc.version) (after log entry 6): row 'r1'.size") }, "\(problems)")
    }

    @Test func noSnapshotInsideAGroup() throws {
        let store = try DocumentStore(path: ":memory:", options: StoreOptions(snapshots: SnapshotPolicy(interval: 1, keep: 10)))
        let doc = try store.create("g")
        try doc.perform(.add(ids: ["a"], spec: [], position: .bottom, parent: nil))
        try doc.begin("g")
        try doc.perform(.add(ids: ["b"], spec: [], position: .bottom, parent: nil))
        #expect(throws: StackDocError.self) { try doc.writeSnapshot() }
        try doc.rollback()
        try doc.perform(.add(ids: ["c"], spec: [], position: .bottom, parent: nil))
        #expect(try doc.snapshots().map(\.seq) == [3, 2])
        #expect(try store.open("g").document == doc.document)
        #expect(try doc.verify() == [])
    }

    /// Two processes writing one document, each writing snapshots every 3 entries: the file
    /// opens from a snapshot to the same document as its rows and its log.
    @Test func twoProcessesWritingSnapshots() throws {
        let torture = builtExecutable("store-torture")
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "race.sqlite").path
        try DocumentStore(path: path).create("shared")
        func launch(_ prefix: String) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: torture)
            process.arguments = ["race", path, "shared", prefix, "40"]
            process.environment = ProcessInfo.processInfo.environment.merging(["STACKDOC_SNAPSHOT_INTERVAL": "3"]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        let a = try launch("a"), b = try launch("b")
        a.waitUntilExit()
        b.waitUntilExit()
        #expect(a.terminationStatus == 0 && b.terminationStatus == 0)
        let doc = try DocumentStore(path: path).open("shared")
        guard case let .snapshot(_, seq, tail) = doc.loadSource else {
            Issue.record("opened from \(doc.loadSource)")
            return
        }
        #expect(seq + tail == 81 && tail < 3)
        #expect(doc.document.rowCount == 80)
        #expect(try doc.replayed() == doc.document)
        #expect(try doc.verify() == [])
        try tamper(path, "DELETE FROM snapshot")
        #expect(try DocumentStore(path: path).open("shared").document == doc.document)
    }
}
