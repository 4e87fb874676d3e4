import Foundation
import Layout
import OrderStatistics
import PropertyBased
import Store
import StackDocTestSupport
import Testing

/// Issue 15: random histories with marks, restores, undo/redo to marks, two origins, compaction
/// (`history compact before REF`) and restarts, with snapshots every 1–8 entries (so time travel
/// starts from snapshots before and after the point, and from the current document). After
/// every action the export is recorded under the log entry it ended at; then `export --at S`
/// must equal it for every S still reachable (and be refused before the compaction's base),
/// `verify(replan:)` must be clean, the replay must equal the stored document, and every diff
/// must agree with a full comparison. After each compaction: `verify` clean, the replay equal
/// to the document, undo past the base refused.
@Suite(.longRunning) struct HistoryTravelPropertyTests {
    /// Runs `length` random actions; returns the handle and the export after each log entry.
    func run(seed: UInt64, length: Int, url path: String) throws -> (StoredDocument, [Int: String]) {
        var rng = SplitMix64(seed: seed)
        let options = StoreOptions(snapshots: SnapshotPolicy(interval: rng.int(1..<9)))
        var store = try DocumentStore(url: path, options: options)
        var doc = try store.create("p")
        var exports: [Int: String] = [1: doc.document.exportJSON()]
        var marks = 0
        for _ in 0..<length {
            if rng.chance(3) { doc.origin = rng.pick(["ann", "bob"]) }
            do {
                switch rng.int(0..<12) {
                case 0:
                    marks += 1
                    try doc.mark("m\(marks)")
                case 1:
                    let last = try doc.status().logEntries
                    let target = rng.int(max(1, doc.historyBase)..<(last + 1))
                    let past = try doc.document(at: .entry(target))
                    try doc.restore(to: rng.chance(2) ? .entry(target) : .now(back: last - target))
                    var expected = past
                    expected.settings = expected.settings.withView(of: doc.document.settings)
                    #expect(doc.document == expected, "restore \(target): rows and settings are the target's")
                case 2:
                    let reachable = try doc.marks().filter(\.reachable)
                    guard !reachable.isEmpty else { break }
                    let mark = rng.pick(reachable)
                    if mark.cursor < doc.cursor { try doc.undo(toMark: mark.name) } else if mark.cursor > doc.cursor { try doc.redo(toMark: mark.name) }
                    #expect(doc.cursor == mark.cursor)
                case 3:
                    let before = doc.document, cursor = doc.cursor
                    do { try doc.undo(mine: rng.int(1..<3)) } catch {
                        #expect(doc.document == before && doc.cursor == cursor, "a refused undo --mine changes nothing")
                    }
                case 5 where rng.chance(3):
                    try compact(doc, rng: &rng, seed: seed)
                case 4 where rng.chance(3):
                    let origin = doc.origin
                    store = try DocumentStore(url: path, options: options)
                    doc = try store.open("p")
                    doc.origin = origin
                default:
                    try RandomOps.action(for: doc, rng: &rng).run(on: doc)
                }
            } catch let error as StackDocError {
                _ = error  // refused (a mark in a group, nothing to undo…): nothing changed
            }
            let last = try doc.status().logEntries
            exports = exports.filter { $0.key <= last && $0.key >= doc.historyBase }  // a rollback deletes its entries
            exports[last] = doc.document.exportJSON()
        }
        return (doc, exports)
    }

    /// Compacts before a random point (or now); a refused point changes nothing.
    func compact(_ doc: StoredDocument, rng: inout SplitMix64, seed: UInt64) throws {
        let last = try doc.status().logEntries
        let base = doc.historyBase
        let target = rng.chance(4) ? last : rng.int(max(base, 1)..<(last + 1))
        let before = doc.document, cursor = doc.cursor, steps = doc.stepCount
        do {
            let result = try doc.compactHistory(before: .entry(target))
            #expect(result.base == max(base, target - 1) && doc.historyBase == result.base, "seed \(seed)")
        } catch let error as StackDocError {
            #expect(doc.document == before && doc.cursor == cursor && doc.stepCount == steps, "seed \(seed): a refused compaction changes nothing (\(error))")
            #expect(doc.historyBase == base)
            return
        }
        #expect(doc.document == before, "seed \(seed): compaction keeps the document")
        #expect(try doc.verify(replan: true) == [], "seed \(seed): verify after compacting before \(target)")
        #expect(try doc.replayed() == doc.document, "seed \(seed)")
        let newBase = doc.historyBase
        if newBase > 1 {
            #expect(try doc.document(at: .entry(newBase)) == doc.document(afterEntry: newBase))
            #expect(throws: StackDocError(.compactedEntry(document: "p", entry: newBase - 1, base: newBase))) { try doc.document(at: .entry(newBase - 1)) }
        }
        let undoable = doc.cursor
        if newBase > 0 {
            #expect(throws: StackDocError(.undoPastCompaction(document: "p", count: undoable + 1, available: undoable, base: newBase))) {
                try doc.undo(undoable + 1)
            }
        }
    }

    @Test func everyPastExportIsWhatWasPrintedThen() async throws {
        await propertyCheck(count: 25, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...70)) { seed, length in
            let dir = try Scratch.directory("travel")
            defer { Scratch.remove(dir) }
            try checkPastExports(seed: seed, length: length, url: dir + "/h.sqlite")
        }
    }

    /// The history a fresh-clone CI found with per-session groups (seed 5280664922014721118,
    /// length 22): ann begins and adds n76749; bob sets it (his own step 2, inside ann's open
    /// group); ann's rollback is refused (bob changed a row her group added) and she commits
    /// (step 3); `undo 3` walks the cursor, which once undid step 3 before step 2 (step order),
    /// although step 2 depends on it: a walk takes the operations back in log order
    /// (SPEC §3 "Cursor walks across interleaved steps").
    @Test func aCursorWalkAcrossAnInterleavedGroup() throws {
        let dir = try Scratch.directory("travel")
        defer { Scratch.remove(dir) }
        try checkPastExports(seed: 5280664922014721118, length: 22, url: dir + "/h.sqlite")
    }

    /// The same histories on a PostgreSQL store (fewer: each is a new schema on the server).
    @Test(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)))
    func everyPastExportIsWhatWasPrintedThenOnPostgreSQL() async throws {
        await propertyCheck(count: 6, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...70)) { seed, length in
            try checkPastExports(seed: seed, length: length, url: try TestStores.url(.postgresql))
        }
    }

    /// Every recorded export is `export --at` its entry, verify is clean, the replay and a
    /// reopened handle are the document.
    func checkPastExports(seed: UInt64, length: Int, url: String) throws {
        let (doc, exports) = try run(seed: seed, length: length, url: url)
        for (seq, export) in exports {
            #expect(try doc.document(at: .entry(seq)).exportJSON() == export, "seed \(seed): export --at \(seq)")
        }
        #expect(try doc.verify(replan: true) == [], "seed \(seed)")
        #expect(try doc.replayed() == doc.document)
        let reopened = try DocumentStore(url: url).open("p")
        #expect(reopened.document == doc.document)
        #expect(reopened.historyBase == doc.historyBase && reopened.cursor == doc.cursor && reopened.stepCount == doc.stepCount)
    }

    @Test func diffsAgreeWithAFullComparison() async throws {
        await propertyCheck(count: 25, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...60)) { seed, length in
            let dir = try Scratch.directory("travel")
            defer { Scratch.remove(dir) }
            let (doc, _) = try run(seed: seed, length: length, url: dir + "/h.sqlite")
            let last = try doc.status().logEntries, first = max(1, doc.historyBase)
            var rng = SplitMix64(seed: seed ^ 0x5EED)
            for _ in 0..<6 {
                let a = rng.int(first..<(last + 1)), b = rng.chance(2) ? last : rng.int(first..<(last + 1))
                let old = try doc.document(at: .entry(a)), new = try doc.document(at: .entry(b))
                let diff = try doc.diff(from: .entry(a), to: .entry(b)).diff
                var oldIDs = Set<RowID>(), newIDs = Set<RowID>()
                old.forEachRow { id, _, _, _ in oldIDs.insert(id) }
                new.forEachRow { id, _, _, _ in newIDs.insert(id) }
                #expect(Set(diff.rows.filter { $0.kind == .added }.map(\.id)) == newIDs.subtracting(oldIDs), "seed \(seed) diff \(a) \(b)")
                #expect(Set(diff.rows.filter { $0.kind == .removed }.map(\.id)) == oldIDs.subtracting(newIDs), "seed \(seed) diff \(a) \(b)")
                for id in oldIDs.intersection(newIDs) {
                    let row = diff.rows.first { $0.id == id }
                    #expect((old.config(of: id) != new.config(of: id)) == !(row?.fields.isEmpty ?? true), "seed \(seed) diff \(a) \(b): row \(id)")
                    if old.parent(of: id) != new.parent(of: id) { #expect(row?.moved == true, "seed \(seed) diff \(a) \(b): row \(id) changed stacks") }
                }
                #expect(diff.settings.isEmpty == (old.settings == new.settings))
                #expect(doc.document == (try doc.document(at: .now(back: 0))), "diff leaves the document as it was")
            }
            #expect(try doc.verify(replan: true) == [])
        }
    }
}
