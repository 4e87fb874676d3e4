import Foundation
import GRDB
import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// A `clear` logged as format-2 JSON text (entries of formats 1 and 2), converted by migration
/// 0020, undoes, redoes and reopens equal (the direct writer and reader alone: StoreFormatTests' `ChangeCodingTests`).
@Suite(.offThePool) struct ChangeTextStoreTests {
    /// The tree path's text (the format's spelling).
    static func tree(_ changes: [Change]) throws -> String { try LogValue.array(changes.map(LogFormat.value)).text() }


    /// A `clear` of many rows logs the tree path's bytes (so every earlier release's reader reads
    /// it), and its undo, redo and a second undo give the same documents as before, verify clean
    /// and reopen equal — also in a database whose `clear` entry was written by the tree path.
    /// (The JSON text is what entries of formats 1 and 2 hold: the test rewrites the entry so and
    /// lets migration 0020 convert it.)
    @Test(arguments: [false, true])
    func clearUndoRedoRoundTrip(treeWrittenEntry: Bool) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "clear.sqlite").path
        var rng = SplitMix64(seed: 9)
        var document = Document(name: "big")
        for i in 0..<200 {
            var config = RowConfig(size: rng.chance(5) ? .fit : .fixed(Double(rng.int(20..<200)) / 4))
            if i % 7 == 0 {
                config.type = "t\(i % 5)"
                config.insets = Edges(top: 1, left: 2.5, bottom: 0, right: 1e-3)
                config.grow = 1
                config.alignSelf = .center
                config.separator = SeparatorOverrides(hidden: true, thickness: 0.5, color: "#A0B1C2")
                config.minMain = 10
                config.background = "#FFFFFF"
                config.sticky = i % 2 == 0
            }
            if i % 13 == 0 { config.text = TextRun(words: "12 char 8 line 20"); config.size = .fit }
            #expect(Validation.isValid(config))
            try document.apply(.insertRow(id: "r\(i)", config: config, parent: nil, index: i))
        }
        let full: Document, cleared: [Change]
        do {
            let doc = try DocumentStore(path: path).importDocument(document)
            full = doc.document
            cleared = try doc.perform(.clear(parent: nil))
        }
        // The file as schema 19 held it, the clear's entry as format 2 wrote it (JSON text) —
        // or, with `treeWrittenEntry`, as a release of format 1 did, with its stored inverse.
        try Tamper.logAsFormat2(path, where: "seq = 2")
        let stored = try #require(try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "SELECT forward FROM log WHERE seq = 2") })
        #expect(stored == (try Self.tree(cleared)))
        if treeWrittenEntry {
            try Tamper.sql(path, "UPDATE log SET inverse = '\(try Self.tree(cleared.inverse))', format = 1 WHERE seq = 2")
        }
        // Migration 0020 converts it; its undo, redo and reopen read today's blob.
        let doc = try DocumentStore(path: path).open("big")
        let converted = try DatabaseQueue(path: path).read { db in
            try GRDB.Row.fetchOne(db, sql: "SELECT format, typeof(forward) AS coding, inverse IS NULL AS noInverse FROM log WHERE seq = 2")!
        }
        #expect(converted["format"] as Int == LogFormat.version && converted["coding"] as String == "blob" && converted["noInverse"] as Bool)
        for reopen in [false, true] {
            let handle = reopen ? try DocumentStore(path: path).open("big") : doc
            if reopen { #expect(handle.document.rowCount == 0) }
            try handle.undo()
            #expect(handle.document == full)
            try handle.redo()
            #expect(handle.document.rowCount == 0)
            try handle.undo()
            #expect(handle.document == full)
            #expect(try handle.verify(replan: true) == [])
            #expect(try DocumentStore(path: path).open("big").document == full)
            try handle.redo()
        }
        try doc.reload()
        #expect(try doc.verify(replan: true) == [])
        #expect(try doc.log(from: 2, limit: 1).first?.changes == cleared)
    }
}
