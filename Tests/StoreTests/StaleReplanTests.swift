import Foundation
import Layout
import OrderStatistics
import Store
import StackDocTestSupport
import Testing

/// Issue 34, item 2 (SPEC §3, "A stale edit is planned again"): two handles of one document on
/// their own connections, writing as two origins. A stale edit that touches nothing the
/// intervening steps changed is planned again on the newest version and committed; one that
/// does is refused naming the step and origin, nothing written. On both backends (PostgreSQL
/// under scripts/with-postgres; skipped with a message without STACKDOC_TEST_POSTGRES).
@Suite(.offThePool) struct StaleReplanTests {
    /// One database, opened by each writer on its own connection.
    struct Shared {
        let url: String
        let dir: URL?

        init(_ backend: TestStores.Backend) throws {
            if backend == .sqlite {
                let dir = temporaryDirectory()
                self.dir = dir
                url = dir.appendingPathComponent("shared.sqlite").path
            } else {
                dir = nil
                url = try TestStores.url(backend)
            }
        }

        func remove() { if let dir { try? FileManager.default.removeItem(at: dir) } }

        /// Alice creates `d` with root rows r1 r2 r3 and a stack s holding s1; bob opens it.
        func alicesDocumentAndBob() throws -> (alice: StoredDocument, bob: StoredDocument) {
            let alice = try DocumentStore(url: url).create("d")
            alice.origin = "alice"
            try alice.perform(.add(ids: ["r1", "r2", "r3"], spec: [.fixed(40)], position: nil, parent: nil))
            try alice.perform(.add(ids: ["s"], spec: [.stack(.vertical)], position: nil, parent: nil))
            try alice.perform(.add(ids: ["s1"], spec: [.fixed(10)], position: nil, parent: "s"))
            let bob = try DocumentStore(url: url).open("d")
            bob.origin = "bob"
            return (alice, bob)
        }

        /// The document as a new connection opens it now.
        func stored() throws -> StoredDocument { try DocumentStore(url: url).open("d") }
    }

    // MARK: The cases, on a backend

    /// A edits r1; B, stale, edits r2: committed, planned on A's version; the stored document is
    /// a replay of the log, which holds both edits by their origins; both handles agree.
    func disjointEditCommits(_ backend: TestStores.Backend) throws {
        let db = try Shared(backend)
        defer { db.remove() }
        let (alice, bob) = try db.alicesDocumentAndBob()
        try alice.perform(.set(id: "r1", spec: [.fixed(50)]))
        var caught: [RemoteChange] = []
        try bob.perform(.set(id: "r2", spec: [.fixed(70)]), planning: { try bob.document.plan(.set(id: "r2", spec: [.fixed(70)])) },
                        caughtUp: { caught += $0 })
        #expect(caught.map(\.entry.origin) == ["alice"], "bob caught up with alice's edit first")
        let stored = try db.stored()
        #expect(stored.document.config(of: "r1")?.size == .fixed(50))
        #expect(stored.document.config(of: "r2")?.size == .fixed(70))
        #expect(bob.document == stored.document)
        #expect(try stored.verify(replan: true) == [])
        let last = try stored.history().suffix(2).map { "\($0.origin ?? "-") \($0.edits.map { "\($0)" })" }
        #expect(last.count == 2 && last[0].hasPrefix("alice") && last[1].hasPrefix("bob"), "\(last)")
        _ = try alice.catchUp()
        #expect(alice.document == stored.document)
    }

    /// A edits r1; B, stale, edits r1 too: refused naming A's step and origin; nothing written,
    /// B caught up (its next edit is planned on A's version).
    func overlappingEditIsRefused(_ backend: TestStores.Backend) throws {
        let db = try Shared(backend)
        defer { db.remove() }
        let (alice, bob) = try db.alicesDocumentAndBob()
        try alice.perform(.set(id: "r1", spec: [.fixed(50)]))
        let step = alice.cursor
        let entries = try alice.log().count
        let error = try #require(throws: StoreError.self) { try bob.perform(.set(id: "r1", spec: [.fixed(70)])) }
        #expect(error.kind == .editConflict(name: "d", entry: entries, kind: "op", step: step, origin: "alice", what: "row 'r1' field size"))
        #expect(error.message == "conflict: step \(step) by 'alice' changed row 'r1' field size since you read document 'd'; it is reloaded, nothing was written")
        let stored = try db.stored()
        #expect(try stored.log().count == entries, "nothing was written")
        #expect(stored.document.config(of: "r1")?.size == .fixed(50))
        #expect(bob.document == stored.document, "bob has caught up")
        try bob.perform(.set(id: "r1", spec: [.fixed(70)]))
        #expect(try db.stored().document.config(of: "r1")?.size == .fixed(70))
    }

    /// An insert after (or before) a row another origin moved or removed meanwhile is refused;
    /// after a row it only resized, it is planned again.
    func insertAfterAMovedOrRemovedRow(_ backend: TestStores.Backend) throws {
        for (change, expected) in [(Edit.move(id: "r2", position: .top, parent: nil), "row 'r2' (moved it)"),
                                   (.remove(ids: ["r2"]), "row 'r2' (added or removed it)"),
                                   (.set(id: "r2", spec: [.fixed(90)]), nil)] {
            let db = try Shared(backend)
            defer { db.remove() }
            let (alice, bob) = try db.alicesDocumentAndBob()
            try alice.perform(change)
            let entries = try alice.log().count
            let add = Edit.add(ids: ["x"], spec: [], position: .after("r2"), parent: nil)
            if let expected {
                let error = try #require(throws: StoreError.self) { try bob.perform(add) }
                #expect(error.message.contains("step \(alice.cursor) by 'alice' changed \(expected) since"), "\(change): \(error)")
                #expect(try db.stored().log().count == entries, "\(change): nothing written")
            } else {
                try bob.perform(add)
                let rows = try db.stored().document.children(of: nil)
                #expect(rows.firstIndex(of: "x") == rows.firstIndex(of: "r2")! + 1, "\(rows)")
            }
            #expect(try db.stored().verify(replan: true) == [])
        }
    }

    /// A row another origin put into a stack B removes (or clears) meanwhile: refused, the row
    /// would go with it. Rows added to the root meanwhile do not stop B's add at the bottom.
    func rowsOfAStackAndTheRoot(_ backend: TestStores.Backend) throws {
        for bobs in [Edit.remove(ids: ["s"]), .clear(parent: "s")] {
            let db = try Shared(backend)
            defer { db.remove() }
            let (alice, bob) = try db.alicesDocumentAndBob()
            try alice.perform(.add(ids: ["s2"], spec: [], position: nil, parent: "s"))
            let error = try #require(throws: StoreError.self) { try bob.perform(bobs) }
            #expect(error.message.contains("by 'alice' changed "), "\(bobs): \(error)")
            #expect(try db.stored().document.children(of: "s") == ["s1", "s2"])
        }
        let db = try Shared(backend)
        defer { db.remove() }
        let (alice, bob) = try db.alicesDocumentAndBob()
        try alice.perform(.add(ids: ["a1"], spec: [], position: .top, parent: nil))
        try bob.perform(.add(ids: ["b1"], spec: [], position: .bottom, parent: nil))
        try bob.perform(.add(ids: ["b2"], spec: [], position: nil, parent: "s"))
        try alice.perform(.add(ids: ["a2"], spec: [], position: .top, parent: "s"))
        // An index counts the stack's rows: bob's index plan needs them unchanged.
        let error = try #require(throws: StoreError.self) { try bob.perform(.add(ids: ["b3"], spec: [], position: .index(1), parent: "s")) }
        #expect(error.message.contains("changed the rows of 's'"), "\(error)")
        let stored = try db.stored()
        #expect(stored.document.children(of: nil) == ["a1", "r1", "r2", "r3", "s", "b1"])
        #expect(stored.document.children(of: "s") == ["a2", "s1", "b2"])
        #expect(try stored.verify(replan: true) == [])
    }

    /// Settings edits conflict with intervening settings edits of the same part (the document's
    /// settings; the view), not with row edits.
    func settingsEdits(_ backend: TestStores.Backend) throws {
        let db = try Shared(backend)
        defer { db.remove() }
        let (alice, bob) = try db.alicesDocumentAndBob()
        try alice.perform(.setStack(.spacing(4)))
        let error = try #require(throws: StoreError.self) { try bob.perform(.defaults(.insets(Edges(top: 1, left: 1, bottom: 1, right: 1)))) }
        #expect(error.message.contains("by 'alice' changed the document settings since"), "\(error)")
        try alice.perform(.set(id: "r1", spec: [.fixed(60)]))
        try bob.perform(.setStack(.spacing(8)))          // after a row edit: planned again
        try alice.perform(.viewport(Size(width: 300, height: 200)))
        try bob.perform(.set(id: "r3", spec: [.fixed(5)]))   // a row edit after a view change: planned again
        try alice.perform(.viewport(Size(width: 310, height: 200)))
        let view = try #require(throws: StoreError.self) { try bob.perform(.viewport(Size(width: 200, height: 100))) }
        #expect(view.message.contains("log entry") && view.message.contains("(view) by 'alice' changed the view"), "\(view)")
        let stored = try db.stored()
        #expect(stored.document.settings.spacing == 8 && stored.document.settings.viewport == Size(width: 310, height: 200))
        #expect(try stored.verify(replan: true) == [])
    }

    /// Groups belong to the session (SPEC §3): a stale edit while another origin's group is open
    /// is planned again as its writer's own step — alice's `commit` covers her entries only, and
    /// her undo takes back hers only — while a stale edit inside the writer's own open group is
    /// refused as before (`staleDocument`), nothing written; catching up then brings the handle
    /// to the stored state.
    func staleWithAGroupOpen(_ backend: TestStores.Backend) throws {
        let db = try Shared(backend)
        defer { db.remove() }
        let (alice, bob) = try db.alicesDocumentAndBob()
        try alice.begin("g")
        try alice.perform(.set(id: "r1", spec: [.fixed(50)]))
        try bob.perform(.set(id: "r2", spec: [.fixed(70)]))  // planned again: alice's group is not bob's
        _ = try alice.refreshIfStale()  // a commit is not planned again: alice catches up first
        #expect(try alice.commit() != nil)
        _ = try alice.undoOwn()
        var stored = try db.stored()
        #expect(stored.document.config(of: "r1")?.size == .fixed(40), "alice's group taken back")
        #expect(stored.document.config(of: "r2")?.size == .fixed(70), "bob's edit is his own step, not in alice's group")
        #expect(try stored.verify(replan: true) == [])

        _ = try bob.refreshIfStale()
        try bob.begin("h")
        try alice.perform(.set(id: "r3", spec: [.fixed(60)]))
        let entries = try db.stored().log().count
        let error = try #require(throws: StoreError.self) { try bob.perform(.set(id: "r2", spec: [.fixed(80)])) }
        guard case .staleDocument = error.kind else { Issue.record("expected a stale error: \(error)"); return }
        stored = try db.stored()
        #expect(try stored.log().count == entries, "nothing written")
        _ = try bob.refreshIfStale()
        #expect(bob.document == stored.document)
    }

    /// Two writers interleave random edits, each on its own (often stale) handle: every edit
    /// acknowledged is in the log, as that origin's, in the order made; nothing else is; a
    /// refused edit wrote nothing; the stored document is a replay of the log, and both handles
    /// hold it after catching up.
    func randomWriters(_ backend: TestStores.Backend, seed: UInt64, length: Int) throws -> (replanned: Int, conflicts: Int) {
        let db = try Shared(backend)
        defer { db.remove() }
        var rng = SplitMix64(seed: seed)
        let (alice, bob) = try db.alicesDocumentAndBob()
        let writers = [alice, bob]
        var acknowledged: [(seq: Int, edit: Edit, origin: String)] = []
        var replanned = 0, conflicts = 0
        let base = try alice.log().count
        var entries = base
        for _ in 0..<length {
            let w = rng.int(0..<2)
            let doc = writers[w]
            let edit = RandomOps.randomEdit(for: doc.document, rng: &rng)
            var caught = 0
            do {
                try doc.perform(edit, planning: { try doc.document.plan(edit) }, caughtUp: { caught += $0.count })
                entries += 1
                acknowledged.append((entries, edit, doc.origin!))
                if caught > 0 { replanned += 1 }
            } catch let error as StoreError {
                guard case let .editConflict(_, entry, _, step, origin, _) = error.kind else { throw error }
                conflicts += 1
                #expect(origin == writers[1 - w].origin && entry <= entries, "seed \(seed): \(error)")
                if let step { #expect(try doc.history()[step - 1].origin == origin, "seed \(seed): \(error)") }
            } catch is StackDocError {
                // An edit that does not plan (a missing row, a bad value…): nothing written.
            }
            #expect(try db.stored().log().count == entries, "seed \(seed): the log holds exactly the acknowledged edits")
        }
        let stored = try db.stored()
        let log = try stored.log().dropFirst(base)
        #expect(log.map(\.seq) == acknowledged.map(\.seq), "seed \(seed)")
        #expect(log.map { $0.edit } == acknowledged.map { Optional($0.edit) }, "seed \(seed): the logged edits are the acknowledged ones")
        #expect(log.map(\.origin) == acknowledged.map { Optional($0.origin) }, "seed \(seed): by their origins")
        #expect(try stored.verify(replan: true) == [], "seed \(seed)")
        for doc in writers {
            _ = try doc.catchUp()
            #expect(doc.document == stored.document, "seed \(seed)")
        }
        return (replanned, conflicts)
    }

    // MARK: SQLite

    @Test func disjointEditCommits() throws { try disjointEditCommits(.sqlite) }
    @Test func overlappingEditIsRefused() throws { try overlappingEditIsRefused(.sqlite) }
    @Test func insertAfterAMovedOrRemovedRow() throws { try insertAfterAMovedOrRemovedRow(.sqlite) }
    @Test func rowsOfAStackAndTheRoot() throws { try rowsOfAStackAndTheRoot(.sqlite) }
    @Test func settingsEdits() throws { try settingsEdits(.sqlite) }
    @Test func staleWithAGroupOpen() throws { try staleWithAGroupOpen(.sqlite) }

    /// Over the seeds the writers both re-planned edits and met conflicts (a fact about the
    /// fixed seeds, so both paths were checked).
    @Test func randomWriters() throws {
        var replanned = 0, conflicts = 0
        for seed in 0..<6 as Range<UInt64> {
            let counts = try randomWriters(.sqlite, seed: seed, length: 80)
            replanned += counts.replanned
            conflicts += counts.conflicts
        }
        #expect(replanned > 20 && conflicts > 5, "replanned \(replanned), conflicts \(conflicts)")
    }

    // MARK: PostgreSQL

    static let postgres = ConditionTrait.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason))

    @Test(postgres) func disjointEditCommitsOnPostgreSQL() throws { try disjointEditCommits(.postgresql) }
    @Test(postgres) func overlappingEditIsRefusedOnPostgreSQL() throws { try overlappingEditIsRefused(.postgresql) }
    @Test(postgres) func insertAfterAMovedOrRemovedRowOnPostgreSQL() throws { try insertAfterAMovedOrRemovedRow(.postgresql) }
    @Test(postgres) func rowsOfAStackAndTheRootOnPostgreSQL() throws { try rowsOfAStackAndTheRoot(.postgresql) }
    @Test(postgres) func settingsEditsOnPostgreSQL() throws { try settingsEdits(.postgresql) }
    @Test(postgres) func staleWithAGroupOpenOnPostgreSQL() throws { try staleWithAGroupOpen(.postgresql) }
    @Test(postgres) func randomWritersOnPostgreSQL() throws {
        var replanned = 0, conflicts = 0
        for seed in 0..<3 as Range<UInt64> {
            let counts = try randomWriters(.postgresql, seed: seed, length: 60)
            replanned += counts.replanned
            conflicts += counts.conflicts
        }
        #expect(replanned > 10 && conflicts > 2, "replanned \(replanned), conflicts \(conflicts)")
    }
}
