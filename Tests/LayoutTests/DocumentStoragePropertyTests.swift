import Foundation
import OrderStatistics
import Testing
@testable import Layout
import StackDocTestSupport

/// The slot/treap/pool storage of `Document` against a plain reference model (a dictionary of
/// configs and parents plus one child array per stack): seeded random sequences of inserts,
/// removals, moves and updates at random indexes and parents, checked after every step.
@Suite("Document storage vs reference model", .longRunning)
struct DocumentStoragePropertyTests {

    /// The obvious model: what `Document` stored before.
    struct Reference {
        var configs: [RowID: RowConfig] = [:]
        var parents: [RowID: RowID?] = [:]
        var root: [RowID] = []
        var stacks: [RowID: [RowID]] = [:]

        func children(_ p: RowID?) -> [RowID] { p.map { stacks[$0] ?? [] } ?? root }

        mutating func setChildren(_ p: RowID?, _ list: [RowID]) {
            if let p { stacks[p] = list.isEmpty ? nil : list } else { root = list }
        }

        func trees(_ p: RowID?) -> [RowTree] {
            children(p).map { RowTree(id: $0, config: configs[$0]!, rows: trees($0)) }
        }

        func order(_ p: RowID?, into out: inout [(RowID, RowID?, Int)]) {
            for (i, id) in children(p).enumerated() {
                out.append((id, p, i))
                order(id, into: &out)
            }
        }

        func isDescendant(_ id: RowID, of a: RowID) -> Bool {
            var c: RowID? = id
            while let x = c {
                if x == a { return true }
                c = parents[x] ?? nil
            }
            return false
        }
    }

    static let types = ["view", "label", "image"]

    static func randomConfig(_ rng: inout SplitMix64, stack: Bool) -> RowConfig {
        var c = RowConfig()
        if Bool.random(using: &rng) { c.size = .fixed(Double(Int.random(in: 0...200, using: &rng))) }
        if Int.random(in: 0..<4, using: &rng) == 0 { c.content = Size(width: 10, height: Double(Int.random(in: 0...50, using: &rng))) }
        if Int.random(in: 0..<5, using: &rng) == 0 { c.type = types.randomElement(using: &rng)! }
        if Int.random(in: 0..<6, using: &rng) == 0 { c.insets = Edges(all: Double(Int.random(in: 0...3, using: &rng))) }
        if Int.random(in: 0..<8, using: &rng) == 0 { c.grow = 1 }
        if Int.random(in: 0..<6, using: &rng) == 0 { c.hidden = true }
        if Int.random(in: 0..<8, using: &rng) == 0 { c.separator.hidden = true }
        if Int.random(in: 0..<8, using: &rng) == 0 {
            c.sticky = true
            if Bool.random(using: &rng) { c.stickyOffset = 44 }
        }
        if stack { c.stack = StackSettings(axis: Bool.random(using: &rng) ? .vertical : .horizontal) }
        if stack && Int.random(in: 0..<4, using: &rng) == 0 { c.rowInsets = Edges(all: 1) }
        if stack && Int.random(in: 0..<5, using: &rng) == 0 { c.scrollOffset = Double(Int.random(in: 0...80, using: &rng)) }
        if Int.random(in: 0..<8, using: &rng) == 0 { c.minMain = Double(Int.random(in: 0...50, using: &rng)) }
        if Int.random(in: 0..<8, using: &rng) == 0 { c.maxCross = Double(Int.random(in: 0...50, using: &rng)) }
        return c
    }

    /// Applies the same random primitive to both; returns false when it was an expected error.
    static func step(_ doc: inout Document, _ ref: inout Reference, _ rng: inout SplitMix64, nextID: inout Int) throws {
        let ids = Array(ref.configs.keys).sorted()
        let stacks = ids.filter { ref.configs[$0]!.stack != nil }
        func randomParent() -> RowID? {
            stacks.isEmpty || Bool.random(using: &rng) ? nil : stacks.randomElement(using: &rng)!
        }
        let choice = ids.isEmpty ? 0 : Int.random(in: 0..<10, using: &rng)
        switch choice {
        case 0..<4:  // insert
            let id = "r\(nextID)"
            nextID += 1
            let parent = randomParent()
            var list = ref.children(parent)
            let index = Int.random(in: 0...list.count, using: &rng)
            let config = randomConfig(&rng, stack: Int.random(in: 0..<3, using: &rng) == 0)
            if Bool.random(using: &rng), index == list.count {
                try doc.appendRow(id, config: config, parent: parent)
            } else {
                try doc.insertRow(id, config: config, parent: parent, at: index)
            }
            list.insert(id, at: index)
            ref.setChildren(parent, list)
            ref.configs[id] = config
            ref.parents[id] = parent
        case 4..<6:  // remove a leaf (or a stack without rows)
            let candidates = ids.filter { ref.children($0).isEmpty }
            let id = candidates.randomElement(using: &rng)!
            try doc.removeRow(id)
            let parent = ref.parents[id]!
            ref.setChildren(parent, ref.children(parent).filter { $0 != id })
            ref.configs[id] = nil
            ref.parents[id] = nil
        case 6..<8:  // move
            let id = ids.randomElement(using: &rng)!
            let to = randomParent()
            if let to, ref.isDescendant(to, of: id) {
                #expect(throws: StackDocError.self) { try doc.moveRow(id, to: to, at: 0) }
                return
            }
            let from = ref.parents[id]!
            ref.setChildren(from, ref.children(from).filter { $0 != id })
            var list = ref.children(to)
            let index = Int.random(in: 0...list.count, using: &rng)
            try doc.moveRow(id, to: to, at: index)
            list.insert(id, at: index)
            ref.setChildren(to, list)
            ref.parents[id] = to
        default:  // update (stacks with rows stay stacks)
            let id = ids.randomElement(using: &rng)!
            let keepStack = !ref.children(id).isEmpty || Bool.random(using: &rng) && ref.configs[id]!.stack != nil
            let config = randomConfig(&rng, stack: keepStack || Int.random(in: 0..<4, using: &rng) == 0)
            try doc.updateRow(id, config: config)
            ref.configs[id] = config
        }
    }

    static func check(_ doc: Document, _ ref: Reference) {
        #expect(doc.rows.orderInvariantViolation() == nil)
        #expect(doc.rowCount == ref.configs.count)
        for parent in [nil] + ref.configs.keys.map(Optional.some) {
            let list = ref.children(parent)
            #expect(doc.children(of: parent) == list)
            #expect(doc.childCount(of: parent) == list.count)
            if !list.isEmpty {
                let k = list.count / 2
                #expect(doc.child(at: k, of: parent) == list[k])
                #expect(doc.child(at: list.count, of: parent) == nil)
            }
            var seen: [RowID] = []
            doc.forEachChild(of: parent) { i, id, config in
                #expect(i == seen.count)
                #expect(config == ref.configs[id])
                seen.append(id)
            }
            #expect(seen == list)
        }
        for (id, config) in ref.configs {
            let parent = ref.parents[id]!
            #expect(doc.config(of: id) == config)
            #expect(doc.parent(of: id) == .some(parent))
            #expect(doc.index(of: id) == ref.children(parent).firstIndex(of: id))
        }
        var expected: [(RowID, RowID?, Int)] = []
        ref.order(nil, into: &expected)
        var walked: [(RowID, RowID?, Int)] = []
        doc.forEachRow { id, parent, index, _ in walked.append((id, parent, index)) }
        #expect(walked.map(\.0) == expected.map(\.0))
        #expect(walked.map(\.1) == expected.map(\.1))
        #expect(walked.map(\.2) == expected.map(\.2))
        #expect(doc.trees == ref.trees(nil))
    }

    /// The same rows built fresh in document order (another slot layout, no history).
    static func rebuilt(_ ref: Reference, name: String) throws -> Document {
        var fresh = Document(name: name)
        var order: [(RowID, RowID?, Int)] = []
        ref.order(nil, into: &order)
        for (id, parent, index) in order {
            try fresh.insertRow(id, config: ref.configs[id]!, parent: parent, at: index)
        }
        return fresh
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomSequencesAgreeWithReference(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var doc = Document(name: "d")
        var ref = Reference()
        var nextID = 0
        var snapshots: [(Document, [RowTree])] = []
        for n in 0..<400 {
            try Self.step(&doc, &ref, &rng, nextID: &nextID)
            if n % 25 == 0 {
                Self.check(doc, ref)
                let fresh = try Self.rebuilt(ref, name: "d")
                #expect(fresh == doc)
                #expect(fresh.hashValue == doc.hashValue)
                snapshots.append((doc, ref.trees(nil)))
            }
        }
        Self.check(doc, ref)
        // Copies taken along the way were never changed by later edits (copy-on-write).
        for (snapshot, trees) in snapshots { #expect(snapshot.trees == trees) }
    }

    @Test func inverseChangesRestoreAnEqualDocument() throws {
        var rng = SplitMix64(seed: 99)
        var doc = Document(name: "d")
        var ref = Reference()
        var nextID = 0
        for _ in 0..<150 { try Self.step(&doc, &ref, &rng, nextID: &nextID) }
        let before = doc
        // Record a random edit sequence as changes, then apply their inverse.
        var changes: [Change] = []
        var edited = doc
        var ref2 = ref
        for _ in 0..<120 {
            let old = edited
            try Self.step(&edited, &ref2, &rng, nextID: &nextID)
            changes += Self.diff(old, edited)
        }
        var undone = edited
        try undone.apply(changes.inverse)
        #expect(undone == before)
        #expect(undone.hashValue == before.hashValue)
        var redone = undone
        try redone.apply(changes)
        #expect(redone == edited)
    }

    /// The one primitive change between two documents that differ by one `step`.
    static func diff(_ a: Document, _ b: Document) -> [Change] {
        if a == b { return [] }
        var rowsA: [RowID: (RowID?, Int, RowConfig)] = [:]
        a.forEachRow { id, p, i, c in rowsA[id] = (p, i, c) }
        var rowsB: [RowID: (RowID?, Int, RowConfig)] = [:]
        b.forEachRow { id, p, i, c in rowsB[id] = (p, i, c) }
        for (id, x) in rowsB where rowsA[id] == nil {
            return [.insertRow(id: id, config: x.2, parent: x.0, index: x.1)]
        }
        for (id, x) in rowsA where rowsB[id] == nil {
            return [.removeRow(id: id, config: x.2, parent: x.0, index: x.1)]
        }
        for (id, x) in rowsA where rowsB[id]!.2 != x.2 {
            return [.updateRow(id: id, old: x.2, new: rowsB[id]!.2)]
        }
        // A move: find the row whose parent or index changed with the others' shifts explained.
        for (id, x) in rowsA {
            let y = rowsB[id]!
            var moved = a
            try? moved.moveRow(id, to: y.0, at: y.1)
            if moved == b { return [.moveRow(id: id, fromParent: x.0, fromIndex: x.1, toParent: y.0, toIndex: y.1)] }
        }
        Issue.record("no single change explains the step")
        return []
    }

    @Test func equalityIgnoresSlotLayoutAndHistory() throws {
        var a = Document(name: "d")
        var b = Document(name: "d")
        for i in 0..<50 { try a.insertRow("r\(i)", config: RowConfig(size: .fixed(Double(i))), parent: nil, at: i) }
        // b: built backwards with churn, so slots differ and some are reused.
        for i in (0..<50).reversed() {
            try b.insertRow("tmp\(i)", config: RowConfig(type: "junk\(i)"), parent: nil, at: 0)
            try b.insertRow("r\(i)", config: RowConfig(size: .fixed(Double(i))), parent: nil, at: 0)
        }
        #expect(a != b)
        for i in 0..<50 { try b.removeRow("tmp\(i)") }
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        try b.updateRow("r7", config: RowConfig(size: .fit))
        #expect(a != b)
        try b.updateRow("r7", config: RowConfig(size: .fixed(7)))
        #expect(a == b)
        try b.moveRow("r3", to: nil, at: 10)
        #expect(a != b)
    }

    @Test func stylesAreSharedAndFreed() throws {
        var doc = Document(name: "d")
        for i in 0..<1000 {
            try doc.insertRow("r\(i)", config: RowConfig(size: .fixed(Double(i % 7)), content: Size(width: 1, height: Double(i))),
                              parent: nil, at: i)
        }
        #expect(doc.rows.styles.liveCount == 1)
        try doc.updateRow("r5", config: RowConfig(type: "label"))
        #expect(doc.rows.styles.liveCount == 2)
        try doc.updateRow("r5", config: RowConfig())
        #expect(doc.rows.styles.liveCount == 1)
        try doc.insertRow("x", config: RowConfig(margin: Edges(all: 3)), parent: nil, at: 0)
        #expect(doc.rows.styles.liveCount == 2)
        try doc.removeRow("x")
        #expect(doc.rows.styles.liveCount == 1)
        // Freed slots are reused.
        let slots = doc.rows.ids.count
        for i in 0..<10 { try doc.removeRow("r\(i)") }
        for i in 0..<10 { try doc.insertRow("n\(i)", config: RowConfig(), parent: nil, at: 0) }
        #expect(doc.rows.ids.count == slots)
    }

    @Test func jsonRoundTrip() throws {
        var rng = SplitMix64(seed: 7)
        var doc = Document(name: "d")
        var ref = Reference()
        var nextID = 0
        for _ in 0..<200 { try Self.step(&doc, &ref, &rng, nextID: &nextID) }
        let back = try Document(json: doc.exportJSON(), name: doc.name)
        #expect(back == doc)
    }

    @Test func massRemovalCompactsStorage() throws {
        var rng = SplitMix64(seed: 11)
        var doc = Document(name: "d")
        var ref = Reference()
        // Nested: 20 stacks with 500 rows each, plus 2000 root rows.
        for s in 0..<20 {
            let config = RowConfig(stack: StackSettings())
            try doc.appendRow("s\(s)", config: config, parent: nil)
            ref.root.append("s\(s)")
            ref.configs["s\(s)"] = config
            ref.parents["s\(s)"] = .some(nil)
            for i in 0..<500 {
                let id = "s\(s)r\(i)"
                let c = RowConfig(size: .fixed(Double(i % 13)), hidden: i % 7 == 0)
                try doc.appendRow(id, config: c, parent: "s\(s)")
                ref.stacks["s\(s)", default: []].append(id)
                ref.configs[id] = c
                ref.parents[id] = "s\(s)"
            }
        }
        for i in 0..<2000 {
            let c = RowConfig(type: i % 2 == 0 ? "a" : "b")
            try doc.insertRow("r\(i)", config: c, parent: nil, at: ref.root.count)
            ref.root.append("r\(i)")
            ref.configs["r\(i)"] = c
            ref.parents["r\(i)"] = .some(nil)
        }
        let slots = doc.rows.ids.count
        var leaves = ref.configs.keys.filter { ref.configs[$0]!.stack == nil }.sorted()
        leaves.shuffle(using: &rng)
        for id in leaves.prefix(7000) {
            let snapshot = doc
            try doc.removeRow(id)
            #expect(snapshot.contains(id))
            let parent = ref.parents[id]!
            ref.setChildren(parent, ref.children(parent).filter { $0 != id })
            ref.configs[id] = nil
            ref.parents[id] = nil
        }
        #expect(doc.rows.ids.count < slots)  // compacted at least once
        Self.check(doc, ref)
        #expect(doc == (try Self.rebuilt(ref, name: "d")))
        // Still fully usable after compaction.
        for i in 0..<100 { try doc.insertRow("n\(i)", config: RowConfig(), parent: "s3", at: i % 7) }
        for i in 0..<100 { ref.stacks["s3", default: []].insert("n\(i)", at: i % 7); ref.configs["n\(i)"] = RowConfig(); ref.parents["n\(i)"] = "s3" }
        Self.check(doc, ref)
    }

    @Test func copiesCompareEqualAndDivergeOnEdit() throws {
        var a = Document(name: "d")
        for i in 0..<100 { try a.appendRow("r\(i)", config: RowConfig(), parent: nil) }
        var b = a
        #expect(a == b)
        try b.updateRow("r5", config: RowConfig(hidden: true))
        #expect(a != b)
        #expect(a.config(of: "r5")?.hidden == false)
        try b.updateRow("r5", config: RowConfig())
        #expect(a == b)
    }
}
