import Testing
import OrderStatistics
@testable import Layout
import StackDocRuntime
import StackDocTestSupport

/// What opening a big document relies on (issue 11, item 1; docs/incremental.md "Building"):
/// a flat load builds the root's order tree without grouping, a flat document's live layout
/// shares the document's id column until either changes it, and the levels of a path lend their
/// lines instead of copying them — each giving exactly what the full layout gives.
@Suite(.offThePool) struct OpenPathTests {
    /// `count` root rows of a few sizes, some hidden.
    static func flat(_ count: Int) throws -> Document {
        var doc = Document(name: "flat", settings: DocumentSettings(viewport: Size(width: 390, height: 844), spacing: 2))
        for i in 0..<count {
            try doc.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(20 + i % 9)), hidden: i % 11 == 5), parent: nil)
        }
        return doc
    }

    @Test func flatLoadsBuildTheRootTreeInOrderBelowAndAboveTheHelperSize() throws {
        for count in [0, 1, 2, 100, DocumentLoader.helperRows + 500] {
            var document = try Self.flat(count)
            var loaded = try DocumentLoaderTests.load(document).get()
            #expect(loaded == document, "\(count) rows")
            #expect(loaded.rows.orderInvariantViolation() == nil, "\(count) rows")
            guard count > 1 else { continue }
            // The trees take edits as the document's own do.
            for edit: Edit in [.add(ids: ["n"], spec: [.fixed(5)], position: .index(1), parent: nil),
                               .move(id: "r0", position: .bottom, parent: nil), .remove(ids: ["r1"])] {
                try document.apply(try document.plan(edit))
                try loaded.apply(try loaded.plan(edit))
                #expect(loaded == document, "\(count) rows, \(edit)")
                #expect(loaded.rows.orderInvariantViolation() == nil, "\(count) rows, \(edit)")
            }
        }
    }

    /// True when `a` and `b` are one buffer.
    static func sameBuffer(_ a: [RowID], _ b: [RowID]) -> Bool {
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress && x.count == y.count } }
    }

    @Test func aFlatLiveLayoutSharesTheDocumentsIDsUntilEitherChangesThem() throws {
        var doc = try Self.flat(3000)
        var live = LiveLayout(doc)
        #expect(live.isIncremental)
        #expect(Self.sameBuffer(live.line.entries.ids, doc.rows.ids), "the layout's ids are the document's column")
        let before = doc.layout()
        #expect(live.layout() == before)

        // The document changes first (a row inserted: its id column grows): the layout keeps its rows.
        let insert = try doc.plan(.add(ids: ["new"], spec: [.fixed(33)], position: .index(7), parent: nil), live: live)
        try doc.apply(insert)
        #expect(!Self.sameBuffer(live.line.entries.ids, doc.rows.ids))
        #expect(live.layout() == before, "changing the document leaves the layout as it was")
        _ = live.apply(insert, to: doc)
        #expect(live.layout() == doc.layout())
        #expect(live.invariantViolation() == nil)

        // The layout changes first (a resize lays an entry out again, writing its id): the
        // document keeps its ids.
        let doc2 = try Self.flat(3000)
        var live2 = LiveLayout(doc2)
        let resize = try doc2.plan(.set(id: "r1500", spec: [.fixed(90)]), live: live2)
        var resized = doc2
        try resized.apply(resize)
        #expect(Self.sameBuffer(live2.line.entries.ids, resized.rows.ids), "a resize leaves the document's ids alone")
        _ = live2.apply(resize, to: resized)
        #expect(!Self.sameBuffer(live2.line.entries.ids, resized.rows.ids))
        #expect(resized.rows.ids == doc2.rows.ids)
        #expect(live2.layout() == resized.layout())
        #expect(live2.invariantViolation() == nil)

        // Then random edits of every kind, as the property tests make them.
        var rng = SplitMix64(seed: 11)
        for step in 0..<60 {
            let (_, changes) = RandomOps.edit(for: doc, rng: &rng)
            try doc.apply(changes)
            _ = live.apply(changes, to: doc)
            #expect(live.layout() == doc.layout(), "step \(step)")
        }
    }

    @Test(arguments: [1, 3])
    func levelsLendEveryLineAndAgreeWithTheFullLayout(depth: Int) throws {
        let doc = try StackLineTests().chain(depth: depth, rows: 200)
        let live = LiveLayout(doc, chunk: LiveLayout.defaultChunk, stackLineMinRows: 64)
        let full = doc.layout()
        var deepest = 0
        for (position, expected) in full.rows.enumerated() {
            guard let (path, k) = live.path(of: expected.id) else {
                Issue.record("no path to \(expected.id)")
                continue
            }
            deepest = max(deepest, path.count)
            let levels = live.levels(path)
            #expect(levels.count == path.count, "\(expected.id)")
            #expect(levels.map(\.node) == Array(path.prefix(levels.count)), "\(expected.id)")
            var visited: [Int32] = []
            live.forEachLevel(path[...]) { line, level, isLast in
                visited.append(level.node)
                #expect(line.locate(level.node).index == level.index)
                #expect(isLast == (visited.count == levels.count))
                return true
            }
            #expect(visited == levels.map(\.node))
            #expect(live.withLastLevel(path) { _, v in v.rowsBefore + k } == position, "\(expected.id)")
            #expect(live.row(expected.id)?.layout == expected, "\(expected.id)")
            #expect(live.position(of: expected.id) == position, "\(expected.id)")
        }
        #expect(deepest == depth + 1, "rows at every depth of lines were looked at")
        #expect(live.visibleRows() == full.rows.filter { $0.visibility == .entire || $0.visibility == .partial })
    }

    /// The leaf keys of a flat document of whole sizes (`fixed 20…200`, as the measured 1M-row
    /// one): their mixes spread over the cache's buckets (the mix before put them all in one, so
    /// every row hashed its key with `Hasher`), nearly all stay cached side by side, and the
    /// cache never answers a value set for another key.
    @Test func theLeafKeyCacheHoldsTheKeysOfWholeSizes() {
        for (style, flags) in [(Int32(0), DocumentRows.live), (1, DocumentRows.live), (2, DocumentRows.live | DocumentRows.hidden)] {
            let keys = (20...200).map {
                LiveLayout.LeafKey(style: style, flags: flags, size: Double($0).bitPattern, contentWidth: 0, contentHeight: 0)
            }
            let buckets = Set(keys.map { LiveLayout.LeafKeyCache.bucket($0) })
            #expect(buckets.count >= 150, "style \(style): \(buckets.count) buckets for \(keys.count) keys")
            var cache = LiveLayout.LeafKeyCache()
            for (n, key) in keys.enumerated() {
                #expect(cache.value(key) == nil)
                cache.set(key, Int32(n))
            }
            var hits = 0
            for (n, key) in keys.enumerated() {
                guard let value = cache.value(key) else { continue }
                #expect(value == Int32(n), "style \(style), size \(Double(bitPattern: key.size))")
                hits += 1
            }
            #expect(hits >= 170, "style \(style): \(hits) of \(keys.count) keys cached")
        }
        // Random keys (fractional sizes, content, styles) against a dictionary: a hit is always right.
        var random = SplitMix64(seed: 11)
        var cache = LiveLayout.LeafKeyCache()
        var truth: [LiveLayout.LeafKey: Int32] = [:]
        for n in 0..<20_000 {
            let key = LiveLayout.LeafKey(style: Int32(random.next() % 5), flags: UInt8(random.next() % 3),
                                         size: (Double(random.next() % 400) / 4).bitPattern,
                                         contentWidth: Double(random.next() % 3).bitPattern, contentHeight: 0)
            if let value = cache.value(key) {
                #expect(truth[key] == value)
            } else {
                let value = truth[key] ?? Int32(n)
                truth[key] = value
                cache.set(key, value)
            }
        }
    }

    /// A live layout of root rows that leave their own slots partway (a row moved to the end,
    /// rows removed and added, one stack among them) equals the full layout: the build keeps no
    /// column of slots while root row i is slot i, and makes it at the first that is not.
    @Test func rootRowsOffTheirSlotsPartwayBuildTheFullLayout() throws {
        var doc = try Self.flat(400)
        try doc.apply(try doc.plan(.move(id: "r150", position: .bottom, parent: nil)))
        var expected = doc.layout()
        #expect(LiveLayout(doc).layout() == expected)
        #expect(LiveLayout(doc).invariantViolation() == nil)
        try doc.apply(try doc.plan(.remove(ids: ["r3", "r399"])))
        try doc.appendRow("s", config: RowConfig(stack: StackSettings(axis: .vertical, spacing: 1)), parent: nil)
        try doc.appendRow("s1", config: RowConfig(size: .fixed(10)), parent: "s")
        try doc.appendRow("s2", config: RowConfig(size: .fixed(12)), parent: "s")
        try doc.apply(try doc.plan(.add(ids: ["late"], spec: [.fixed(40)], position: .index(0), parent: nil)))
        expected = doc.layout()
        for chunk in [1, 7, LiveLayout.defaultChunk] {
            let live = LiveLayout(doc, chunk: chunk)
            #expect(live.layout() == expected, "chunk \(chunk)")
            #expect(live.invariantViolation() == nil, "chunk \(chunk)")
        }
    }

    /// A flat line big enough for two threads (`Halves.defaultMinimum` root rows and more: the
    /// leaves' columns, the summaries and the root tree made a half each) gives the full layout,
    /// row for row, and an edit at each end and in the middle keeps it so.
    @Test func aLineBuiltByTwoThreadsIsTheFullLayout() throws {
        var doc = try Self.flat(Halves.defaultMinimum + 333)
        var live = LiveLayout(doc)
        #expect(live.isIncremental)
        #expect(live.invariantViolation() == nil)
        #expect(live.layout() == doc.layout())
        for edit: Edit in [.add(ids: ["a"], spec: [.fixed(31)], position: .index(0), parent: nil),
                           .move(id: "r40000", position: .index(3), parent: nil),
                           .remove(ids: ["r\(Halves.defaultMinimum + 332)", "r32768"])] {
            let changes = try doc.plan(edit, live: live)
            try doc.apply(changes)
            _ = live.apply(changes, to: doc)
        }
        #expect(live.invariantViolation() == nil)
        #expect(live.layout() == doc.layout())
    }
}
