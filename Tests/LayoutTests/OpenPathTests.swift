import Testing
@testable import Layout
import StackDocTestSupport

/// What opening a big document relies on (issue 11, item 1; docs/incremental.md "Building"):
/// a flat load builds the root's order tree without grouping, a flat document's live layout
/// shares the document's id column until either changes it, and the levels of a path lend their
/// lines instead of copying them — each giving exactly what the full layout gives.
@Suite struct OpenPathTests {
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
        var doc2 = try Self.flat(3000)
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
            #expect(live.row(expected.id) == expected, "\(expected.id)")
            #expect(live.position(of: expected.id) == position, "\(expected.id)")
        }
        #expect(deepest == depth + 1, "rows at every depth of lines were looked at")
        #expect(live.visibleRows() == full.rows.filter { $0.visibility == .entire || $0.visibility == .partial })
    }
}
