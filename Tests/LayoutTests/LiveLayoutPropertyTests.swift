import Testing
@testable import Layout
import StackDocTestSupport

/// Random edit sequences on flat and nested documents: after every step a `LiveLayout` fed the
/// planned changes must agree with a fresh `Document.layout()` on every row, and its report with
/// the full comparison of the layouts before and after.
@Suite("LiveLayout: random edit sequences against the full layout")
struct LiveLayoutPropertyTests {
    static func near(_ a: Rect?, _ b: Rect?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (x?, y?):
            return abs(x.x - y.x) == 0 && abs(x.y - y.y) == 0 && abs(x.width - y.width) == 0 && abs(x.height - y.height) == 0
        default: return false
        }
    }

    static func check(_ live: LiveLayout, _ expected: DocumentLayout, _ context: String) {
        let got = live.layout()
        #expect(got.rows.count == expected.rows.count, "\(context): row count")
        #expect(abs(got.contentSize.width - expected.contentSize.width) == 0
                && abs(got.contentSize.height - expected.contentSize.height) == 0,
                "\(context): content \(got.contentSize) vs \(expected.contentSize)")
        #expect(abs(got.offset - expected.offset) == 0, "\(context): offset \(got.offset) vs \(expected.offset)")
        for (a, b) in zip(got.rows, expected.rows) {
            let same = a.id == b.id && a.parent == b.parent && a.index == b.index && a.hidden == b.hidden
                && near(a.frame, b.frame) && near(a.content, b.content) && near(a.separator, b.separator)
                && a.visibility == b.visibility && abs(a.percent - b.percent) == 0
            #expect(same, "\(context): row \(b.id): live \(a) vs full \(b)")
            if !same { return }
        }
        // Per-row queries and the visible rows agree with the materialised layout.
        let visible = expected.rows.filter { $0.visibility == .entire || $0.visibility == .partial }.map(\.id)
        #expect(live.visibleRows().map(\.id) == visible, "\(context): visible rows")
        if let probe = expected.rows.randomElement() {
            #expect(live.row(probe.id).map { $0.visibility == probe.visibility && near($0.frame, probe.frame) } == true,
                    "\(context): row(\(probe.id))")
            #expect(live.position(of: probe.id) == expected.position(of: probe.id))
        }
        // Hit tests (a point query on the live layout) agree with the whole layout's, at frame
        // corners and centres of random rows and at random points of the content.
        var points: [(Double, Double)] = []
        for r in expected.rows.shuffled().prefix(4) {
            guard let f = r.frame else { continue }
            points += [(f.minX, f.minY), (f.x + f.width / 2, f.y + f.height / 2), (f.maxX, f.maxY), (f.minX + 0.5, f.maxY - 0.5)]
        }
        for _ in 0..<4 {
            points.append((Double.random(in: -5...(expected.contentSize.width + 5)),
                           Double.random(in: -5...(expected.contentSize.height + 5))))
        }
        for (x, y) in points {
            #expect(live.hitTest(x: x, y: y) == expected.hitTest(x: x, y: y), "\(context): hit \(x) \(y)")
        }
        let n = expected.rows.count
        if n > 0 {
            let a = n / 3, b = min(n, a + 5)
            #expect(live.rows(inOrder: a..<b).map(\.id) == expected.rows[a..<b].map(\.id), "\(context): rows in order")
        }
    }

    @Test(arguments: [(1, false), (2, false), (3, true), (4, true), (5, true), (6, false), (7, true), (8, true), (9, true), (10, false), (11, true), (12, true)] as [(UInt64, Bool)])
    func agreesWithFullLayout(seed: UInt64, nested: Bool) throws {
        var gen = DocumentEdits(rng: SplitMix64(seed: seed), nested: nested)
        var doc = Document(name: "d", settings: DocumentSettings(viewport: Size(width: 390, height: 600)))
        // Start shorter or longer than the viewport.
        let initial = Int.random(in: 0...40, using: &gen.rng)
        try doc.apply(try doc.plan(.add(ids: (0..<initial).map { "i\($0)" }, spec: [.fixed(20)], position: nil, parent: nil)))
        var live = LiveLayout(doc)
        var previous = doc.layout()
        LiveLayoutPropertyTests.check(live, previous, "seed \(seed) initial")
        var incremental = 0, fallbacks = 0
        for step in 0..<500 {
            let edit = gen.edit(for: doc)
            let changes: [Change]
            do {
                changes = try doc.plan(edit, live: live)
            } catch is StackDocError {
                #expect(throws: StackDocError.self) { try doc.plan(edit) }
                continue
            }
            #expect(changes == (try doc.plan(edit)), "seed \(seed) step \(step) \(edit): planned with the live layout")
            try doc.apply(changes)
            let report = live.apply(changes, to: doc)
            if report.fullRelayout { fallbacks += 1 } else { incremental += 1 }
            let expected = doc.layout()
            if step % 50 == 0 {
                // Built from scratch a few root rows at a time: the same layout.
                let chunk = Int.random(in: 1...4, using: &gen.rng)
                LiveLayoutPropertyTests.check(LiveLayout(doc, chunk: chunk), expected, "seed \(seed) step \(step) built in slices of \(chunk)")
            }
            let context = "seed \(seed) step \(step) \(edit)"
            #expect(live.line.invariantViolation() == nil, "\(context): root line")
            LiveLayoutPropertyTests.check(live, expected, context)
            #expect(report.transitions == expected.transitions(from: previous), "\(context): transitions")
            let full = LayoutChangeReport(before: previous, after: expected)
            #expect(report.changedCount == full.changedCount, "\(context): changed \(report.changedCount) vs \(full.changedCount)")
            #expect(report.changedVisible == full.changedVisible, "\(context): changed visible \(report.changedVisible) vs \(full.changedVisible)")
            #expect(report.removed == full.removed, "\(context): removed")
            #expect(report.moved == full.moved, "\(context): moved frames \(report.moved) vs \(full.moved)")
            previous = expected
        }
        #expect(incremental > 100, "incremental \(incremental), fallbacks \(fallbacks)")
        #expect(fallbacks > 0, "incremental \(incremental), fallbacks \(fallbacks)")
    }
}
