import Foundation
import GRDB
import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 15 item 8: undo and redo entries refer to the steps they move (log format 2) instead of
/// copying their changes; every reader of the log (replay, verify, snapshots, time travel)
/// reads those references, and databases whose undo/redo entries copied the changes (format 1,
/// written by every earlier release) still load, replay and verify.
@Suite(.offThePool) struct HistoryMoveLogTests {
    /// Bytes of the log's payload columns.
    static func logBytes(_ path: String) throws -> Int {
        try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT ifnull(sum(ifnull(length(payload),0)+ifnull(length(forward),0)+ifnull(length(inverse),0)),0) FROM log") ?? 0
        }
    }

    /// The document right after each log entry, three ways that must agree: a replay of the log
    /// up to it (the reference), `document(afterEntry:)` (snapshot or first entry plus the
    /// logged changes, undo/redo references read) and `document(at:)` (time travel).
    static func expectEveryPastStateAgrees(_ doc: StoredDocument, _ context: String) throws {
        let entries = try doc.status().logEntries
        let replays = try doc.reading { tx in
            try (1...entries).map { try doc.replay(tx, through: $0).document }
        }
        for (i, replayed) in replays.enumerated() {
            let seq = i + 1
            let stepped = try doc.document(afterEntry: seq)
            let travelled = try doc.document(at: .entry(seq))
            #expect(try Verification.compare(stored: stepped, replayed: replayed) == [], "\(context): entry \(seq), document(afterEntry:)")
            #expect(try Verification.compare(stored: travelled, replayed: replayed) == [], "\(context): entry \(seq), document(at:)")
            #expect(stepped.settings == replayed.settings && travelled.settings == replayed.settings, "\(context): entry \(seq) settings")
        }
    }

    /// An undo of a 3,000-row `clear` logs a few hundred bytes, not the rows; redo the same; the
    /// entries name the steps they moved; replay, verify, reopen and time travel agree.
    @Test func undoAndRedoOfABigStepLogReferencesOnly() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "moves.sqlite").path
        let store = try DocumentStore(path: path, options: StoreOptions(snapshots: .off))
        let doc = try store.create("d")
        try doc.perform(.add(ids: (0..<3000).map { "r\($0)" }, spec: [.fixed(20), .type("cell")], position: nil, parent: nil))
        try doc.perform(.scroll(.offset(50000)))
        let beforeClear = try Self.logBytes(path)
        try doc.perform(.clear(parent: nil))
        let clearBytes = try Self.logBytes(path) - beforeClear
        var last = try Self.logBytes(path)
        for (i, move) in ["undo", "redo", "undo", "redo", "undo"].enumerated() {
            if move == "undo" { try doc.undo() } else { try doc.redo() }
            let now = try Self.logBytes(path)
            // A reference, the settings changes it applied and the offset clamp: no row.
            #expect(now - last < 2000 && (now - last) * 20 < clearBytes, "\(move) \(i) logged \(now - last) bytes (the clear logged \(clearBytes))")
            last = now
            let entry = try #require(try doc.log().last)
            #expect(entry.moved == [4...4] && entry.count == 1)
        }
        #expect(doc.document.rowCount == 3000)
        #expect(try doc.verify(replan: true) == [])
        let reopened = try DocumentStore(path: path).open("d")
        #expect(try Verification.compare(stored: reopened.document, replayed: doc.document) == [])
        #expect(reopened.document.settings == doc.document.settings)
        try Self.expectEveryPastStateAgrees(reopened, "clear/undo/redo")
    }

    /// `history` reads no change payloads: it still answers when every entry's changes are
    /// unreadable (it would have decoded megabytes of them per big step before).
    @Test func historyReadsNoChanges() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "h.sqlite").path
        let doc = try DocumentStore(path: path).create("d")
        try doc.perform(.add(ids: ["a", "b"], spec: [.fixed(10)], position: nil, parent: nil))
        try doc.perform(.clear(parent: nil))
        try doc.undo()
        let before = try doc.history()
        try Tamper.sql(path, "UPDATE log SET forward = 'not json', inverse = 'not json' WHERE kind = 'op'")
        let again = try DocumentStore(path: path).open("d")
        #expect(try again.history() == before)
    }

    /// A tampered reference is named by `verify` (the replay computes undo from its own steps, so
    /// the stored rows still match; the entry would mislead snapshots and time travel).
    @Test func verifyNamesAWrongReference() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "v.sqlite").path
        let doc = try DocumentStore(path: path).create("d")
        try doc.perform(.add(ids: ["a"], spec: [.fixed(10)], position: nil, parent: nil))
        try doc.perform(.add(ids: ["b"], spec: [.fixed(10)], position: nil, parent: nil))
        try doc.undo()
        try Tamper.sql(path, #"UPDATE log SET payload = '{"count":1,"steps":[[2,2]]}' WHERE seq = 4"#)
        let again = try DocumentStore(path: path).open("d")
        #expect(try again.verify() == ["log entry 4 (undo): it refers to the steps of log entries 2...2, the replay moves 3...3"])
        try Tamper.sql(path, #"UPDATE log SET payload = '{"count":1,"steps":[[3]]}' WHERE seq = 4"#)
        let broken = try DocumentStore(path: path).open("d")
        #expect(try broken.verify().first?.contains("log entry 4 is damaged (payload.steps[0]: expected [first, last] log entries)") == true)
    }

    /// Random histories (edits, groups, undo/redo of several steps, restores, scrolls that the
    /// undo clamps) with a new connection every few actions and snapshots every few entries:
    /// every past state read through the references equals the replay, `verify` is clean, and
    /// a second process's replay of the log equals it byte for byte (`log()` and the document).
    @Test(arguments: [1, 2, 3, 4])
    func randomHistoriesReadTheReferencesLikeTheReplay(seed: UInt64) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "r.sqlite").path
        var rng = SplitMix64(seed: 15_800 + seed)
        let options = StoreOptions(snapshots: SnapshotPolicy(interval: 1 + Int(seed), keep: 2))
        var doc = try DocumentStore(path: path, options: options).create("d")
        for action in 0..<60 {
            if action % 9 == 8 { doc = try DocumentStore(path: path, options: options).open("d") }
            switch rng.int(0..<10) {
            case 0, 1, 2, 3:
                let edit = RandomOps.randomEdit(for: doc.document, rng: &rng)
                _ = try? doc.perform(edit)
            case 4 where doc.cursor > 0: try doc.undo(rng.int(1..<(min(doc.cursor, 3) + 1)))
            case 5 where doc.stepCount > doc.cursor: try doc.redo(rng.int(1..<(min(doc.stepCount - doc.cursor, 3) + 1)))
            case 6: try doc.perform(.scroll(.offset(Double(rng.int(0..<3000)))))
            case 7 where doc.cursor > 1: _ = try doc.restore(to: .now(back: rng.int(1..<min(doc.status().logEntries, 6))))
            case 8:
                try doc.begin("g")
                for _ in 0..<rng.int(1..<4) { _ = try? doc.perform(RandomOps.randomEdit(for: doc.document, rng: &rng)) }
                try doc.commit()
            default: break
            }
        }
        #expect(try doc.verify(replan: true) == [])
        try Self.expectEveryPastStateAgrees(doc, "seed \(seed)")
        let other = try DocumentStore(path: path).open("d")
        #expect(try other.log() == (try doc.log()))
        #expect(try other.replayed().exportJSON() == doc.document.exportJSON())
    }

    /// A database written by the `stackdoc` of main before this change (schema 9: its undo and
    /// redo entries copied their changes, format 1; `Fixtures/schema-0009-moves.sd`) upgrades to
    /// schema 10, verifies, reads every past state, and takes new undo/redo entries (format 2,
    /// referring to format 1 operations) that verify and replay too.
    @Test func databaseOfSchema9WithCopiedUndoEntries() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "old.sqlite").path
        try FileManager.default.copyItem(at: try LogFormatStoreTests.fixture("schema-0009-moves", "db"), to: URL(filePath: path))
        let oldMoves = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM log WHERE kind IN ('undo', 'redo') AND format = 1 AND forward IS NOT NULL AND inverse IS NOT NULL") ?? 0
        }
        #expect(oldMoves >= 10)
        let store = try DocumentStore(path: path)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        for name in ["feed", "imp"] {
            let doc = try store.open(name)
            #expect(try doc.verify(replan: true) == [], "\(name)")
            try Self.expectEveryPastStateAgrees(doc, "\(name) as upgraded")
            let history = try doc.history()
            if doc.cursor > 0 { try doc.undo(min(doc.cursor, 2)) }
            if doc.stepCount > doc.cursor { try doc.redo() }
            try doc.perform(.add(ids: ["new1"], spec: [.fixed(7)], position: .top, parent: nil))
            try doc.undo()
            try doc.redo()
            let entry = try #require(try doc.log().last)
            #expect(entry.kind == .redo && entry.moved != nil)
            #expect(try doc.verify(replan: true) == [], "\(name) after new moves")
            #expect(try doc.history().prefix(history.count - 1).map(\.number) == history.prefix(history.count - 1).map(\.number))
            let reopened = try DocumentStore(path: path).open(name)
            #expect(try Verification.compare(stored: reopened.document, replayed: doc.document) == [])
            try Self.expectEveryPastStateAgrees(reopened, "\(name) after new moves")
        }
    }
}
