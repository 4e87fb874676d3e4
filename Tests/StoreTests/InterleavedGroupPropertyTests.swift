import Foundation
import Layout
import OrderStatistics
import PropertyBased
import Store
import StackDocTestSupport
import Testing

/// SPEC §3 "Groups belong to the session" and "Cursor walks across interleaved steps", as an
/// adversary: two connections (`ann`, `bob`, as two processes) on one document open groups that
/// interleave, edit inside and outside them, commit, roll back, walk the cursor (`undo N`,
/// `redo N`, `--all`) and undo and redo their own steps, in random order. After every action
/// the acting handle's export is recorded under the log entry it ended at; a refused action
/// must change nothing; an exact cursor undo followed by the same redo must give the rows back
/// exactly. At the end, for both handles: `export --at S` is the recorded export for every S,
/// `verify(replan:)` is clean, the replay and a reopened handle are the document.
@Suite(.longRunning) struct InterleavedGroupPropertyTests {
    /// The rows and settings without the view (the offsets, which walks keep and clamp).
    static func content(_ document: Document) -> [String] {
        var rows: [String] = []
        document.forEachRow { id, parent, _, config in
            var config = config
            if config.scrollOffset != nil { config.scrollOffset = 0 }
            rows.append("\(id) in \(parent ?? "-"): \(config)")
        }
        var settings = document.settings
        settings = settings.withView(of: DocumentSettings())
        return rows + ["\(settings)"]
    }

    /// Runs `length` random actions; returns what each did (`origin: action`, refused ones with their error).
    @discardableResult
    func run(seed: UInt64, length: Int, url: String) throws -> [String] {
        var rng = SplitMix64(seed: seed)
        let ann = try DocumentStore(url: url, options: StoreOptions(snapshots: SnapshotPolicy(interval: rng.int(1..<9)))).create("p")
        ann.origin = "ann"
        try ann.perform(.add(ids: ["a", "b", "c"], spec: [], position: nil, parent: nil))
        let bob = try DocumentStore(url: url).open("p")
        bob.origin = "bob"
        var exports: [Int: String] = [:]
        var trail: [String] = []
        for i in 0..<length {
            let doc = rng.chance(2) ? ann : bob
            _ = try doc.refreshIfStale()
            let before = doc.document, cursor = doc.cursor, steps = doc.stepCount, entries = try doc.status().logEntries
            // Groups open long enough for the other to write inside them, then closed, then walks.
            let roll = rng.int(0..<100), own = doc.openGroup != nil, others = !doc.othersOpenGroups.isEmpty
            var action = ""
            do {
                if own ? roll < 35 : (!others && roll < 12) || (others && roll < 8) {
                    action = own ? "commit" : "begin"
                    if own { try doc.commit() } else { try doc.begin(rng.chance(2) ? "g\(i)" : nil) }
                } else if own && roll < 47 {
                    action = "rollback"
                    do { try doc.rollback() } catch let error as StackDocError {
                        // Refused (another origin changed what it would set back): she commits.
                        let entriesAfter = try doc.status().logEntries
                        #expect(doc.document == before && entriesAfter == entries, "seed \(seed): \(trail) a refused rollback changes nothing")
                        action += " refused (\(error)), commit"
                        try doc.commit()
                    }
                } else if !own && roll >= 12 && roll < 42 {
                    let n = rng.chance(5) ? max(doc.cursor, 1) : rng.int(1..<4)
                    action = "undo \(n)"
                    try doc.undo(n)
                    if rng.chance(2) {
                        action += ", redo \(n)"
                        try doc.redo(n)
                        #expect(Self.content(doc.document) == Self.content(before), "seed \(seed): \(trail) \(action): redo restores exactly")
                    }
                } else if !own && roll >= 42 && roll < 56 {
                    let n = rng.chance(5) ? max(doc.stepCount - doc.cursor, 1) : rng.int(1..<4)
                    action = "redo \(n)"
                    try doc.redo(n)
                } else if !own && roll >= 56 && roll < 64 {
                    action = "undo (own)"
                    try doc.undoOwn(rng.int(1..<3))
                } else if !own && roll >= 64 && roll < 68 {
                    action = "redo (own)"
                    try doc.redoOwn()
                } else {
                    let (edit, changes) = RandomOps.edit(for: doc.document, rng: &rng)
                    action = "\(edit)"
                    try doc.perform(edit, changes: changes)
                }
            } catch let error as StackDocError {
                action += " refused (\(error))"
                let entriesAfter = try doc.status().logEntries
                #expect(doc.document == before && doc.cursor == cursor && doc.stepCount == steps && entriesAfter == entries,
                        "seed \(seed): \(trail) \(action): a refused action changes nothing")
            }
            trail.append("\(doc.origin ?? "-"): \(action)")
            let last = try doc.status().logEntries
            exports = exports.filter { $0.key <= last }  // a rollback deletes its entries
            exports[last] = doc.document.exportJSON()
        }
        for doc in [ann, bob] {
            _ = try doc.refreshIfStale()
            for (seq, export) in exports.sorted(by: { $0.key < $1.key }) {
                #expect(try doc.document(at: .entry(seq)).exportJSON() == export, "seed \(seed): export --at \(seq) after \(trail)")
            }
            let problems = try doc.verify(replan: true)
            #expect(problems.isEmpty, "seed \(seed): \(problems) after \(trail)")
            #expect(try doc.replayed() == doc.document, "seed \(seed): the replay is the document after \(trail)")
        }
        let reopened = try DocumentStore(url: url).open("p")
        #expect(reopened.document == ann.document && reopened.cursor == ann.cursor && reopened.stepCount == ann.stepCount)
        return trail
    }

    @Test func interleavedGroupsKeepTheLogTheTruth() async throws {
        await propertyCheck(count: 40, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...60)) { seed, length in
            let dir = try Scratch.directory("interleaved")
            defer { Scratch.remove(dir) }
            try run(seed: seed, length: length, url: dir + "/i.sqlite")
        }
    }

    /// The same histories on a PostgreSQL store (fewer: each is a new schema on the server).
    @Test(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)))
    func interleavedGroupsKeepTheLogTheTruthOnPostgreSQL() async throws {
        await propertyCheck(count: 6, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...60)) { seed, length in
            try run(seed: seed, length: length, url: try TestStores.url(.postgresql))
        }
    }
}
