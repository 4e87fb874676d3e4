import Testing
import OrderStatistics
@testable import Layout
import StackDocTestSupport

/// Random edit sequences on flat and nested documents: after every step a `LiveLayout` fed the
/// planned changes must agree with a fresh `Document.layout()` on every row, and its report with
/// the full comparison of the layouts before and after.
@Suite("LiveLayout: random edit sequences against the full layout", .longRunning)
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
        try Self.randomSession(seed: seed, nested: nested, stackLineMinRows: LiveLayout.defaultStackLineMinRows)
    }

    /// Nested documents whose stacks of one row or more are kept as lines of their own
    /// (`StackLine`): changes inside them are applied to their line (issue 11, item 5). `deep`:
    /// the stacks nest 2 to 4 levels below the root, and the edits also change the stacks'
    /// configuration (so that they stop or start being lines).
    @Test(arguments: [(3, false), (4, false), (5, false), (7, false), (8, false), (9, false), (11, false), (12, false),
                      (21, false), (22, false), (23, false), (24, false),
                      (31, true), (32, true), (33, true), (34, true), (35, true), (36, true), (37, true), (38, true)]
          as [(UInt64, Bool)])
    func agreesWithFullLayoutWithStackLines(seed: UInt64, deep: Bool) throws {
        try Self.randomSession(seed: seed, nested: true, stackLineMinRows: 1, deep: deep)
    }

    /// Stacks nested `depth` levels below the root (`s0` → `s0x` → `s0xx` → `s0xxx`, `s1` →
    /// `s1x`, `s2`), each with rows of its own.
    static func appendDeepStacks(_ doc: inout Document) throws {
        for (s, depth) in [(0, 4), (1, 2), (2, 1)] {
            var parent: RowID? = nil
            var id = "s\(s)"
            for level in 0..<depth {
                try doc.appendRow(id, config: RowConfig(stack: StackSettings(axis: .vertical, spacing: Double(level))), parent: parent)
                for k in 0..<(3 + 2 * level + s) {
                    try doc.appendRow("\(id)r\(k)", config: RowConfig(size: .fixed(Double(10 + k % 4 * 7))), parent: id)
                }
                parent = id
                id += "x"
            }
        }
    }

    static func randomSession(seed: UInt64, nested: Bool, stackLineMinRows: Int, deep: Bool = false) throws {
        var gen = DocumentEdits(rng: SplitMix64(seed: seed), nested: nested)
        var doc = Document(name: "d", settings: DocumentSettings(viewport: Size(width: 390, height: 600)))
        // Start shorter or longer than the viewport.
        let initial = Int.random(in: 0...40, using: &gen.rng)
        try doc.apply(try doc.plan(.add(ids: (0..<initial).map { "i\($0)" }, spec: [.fixed(20)], position: nil, parent: nil)))
        if deep {
            try appendDeepStacks(&doc)
        } else if stackLineMinRows < LiveLayout.defaultStackLineMinRows {
            // Root stacks that qualify for a line (vertical, `fit`, stretched), one inside another.
            for s in 0..<3 {
                try doc.appendRow("s\(s)", config: RowConfig(stack: StackSettings(axis: .vertical, spacing: Double(s))), parent: nil)
                for k in 0..<(12 + 9 * s) {
                    try doc.appendRow("s\(s)r\(k)", config: RowConfig(size: .fixed(Double(10 + k % 4 * 7))), parent: "s\(s)")
                }
            }
            try doc.appendRow("s0x", config: RowConfig(stack: StackSettings(axis: .vertical)), parent: "s0")
            try doc.appendRow("s0x0", config: RowConfig(size: .fixed(12)), parent: "s0x")
        }
        var live = LiveLayout(doc, chunk: LiveLayout.defaultChunk, stackLineMinRows: stackLineMinRows)
        var lines = 0, insideLines = 0, deepLines = 0
        var previous = doc.layout()
        LiveLayoutPropertyTests.check(live, previous, "seed \(seed) initial")
        var incremental = 0, fallbacks = 0
        for step in 0..<500 {
            // The last step changes the root's spacing, a settings change that moves every row:
            // every session meets a full relayout whatever its random edits were.
            let edit = step == 499 ? Edit.setStack(.spacing(doc.settings.spacing + 1))
                : stackLineMinRows == 1 && !gen.rng.chance(deep ? 16 : 8) ? Self.editInsideStacks(&gen, doc, configs: deep) : gen.edit(for: doc)
            let changes: [Change]
            do {
                changes = try doc.plan(edit, live: live)
            } catch is StackDocError {
                #expect(throws: StackDocError.self) { try doc.plan(edit) }
                continue
            }
            #expect(changes == (try doc.plan(edit)), "seed \(seed) step \(step) \(edit): planned with the live layout")
            try doc.apply(changes)
            if !live.needsFullRelayout(changes, doc) {
                let depth = live.lineHolding(changes).count
                if depth >= 1 { insideLines += 1 }
                if depth >= 2 { deepLines += 1 }
            }
            let report = live.apply(changes, to: doc)
            if report.fullRelayout { fallbacks += 1 } else { incremental += 1 }
            let expected = doc.layout()
            if step % 50 == 0 {
                // Built from scratch a few root rows at a time: the same layout.
                let chunk = Int.random(in: 1...4, using: &gen.rng)
                LiveLayoutPropertyTests.check(LiveLayout(doc, chunk: chunk, stackLineMinRows: stackLineMinRows), expected, "seed \(seed) step \(step) built in slices of \(chunk)")
            }
            let context = "seed \(seed) step \(step) \(edit)"
            #expect(live.invariantViolation() == nil, "\(context): \(live.invariantViolation() ?? "")")
            lines += (0..<live.line.entries.count).filter { live.line.entries.isLine($0) && live.line.entries.isFilled($0) }.count
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
        if stackLineMinRows == 1 {
            #expect(lines > 0, "no stack line was made")
            #expect(insideLines >= 5, "\(insideLines) changes applied inside a stack line")
        }
        if deep { #expect(deepLines >= 5, "\(deepLines) changes applied inside a stack line below the first level") }
    }

    /// An edit of the rows below the root stacks `s0`…`s2` (the stack lines of
    /// `agreesWithFullLayoutWithStackLines`): new sizes, specs, hides and shows, rows added,
    /// removed and moved between every stack below them, the stacks themselves and the root.
    /// With `configs`, a stack's own configuration changes too (fixed or fit, aligned, `min`,
    /// spacing, insets, hidden), and new rows are stacks more often: stacks stop and start being
    /// lines at every level.
    static func editInsideStacks(_ gen: inout DocumentEdits, _ doc: Document, configs: Bool = false) -> Edit {
        var rows: [RowID] = [], stacks: [RowID] = []
        var pending = ["s0", "s1", "s2"].filter { doc.contains($0) }
        stacks = pending
        while let x = pending.popLast() {
            for c in doc.children(of: x) {
                rows.append(c)
                if doc.config(of: c)?.stack != nil { stacks.append(c) }
                pending.append(c)
            }
        }
        guard let id = rows.isEmpty ? nil : gen.rng.pick(rows), let target = stacks.isEmpty ? nil : gen.rng.pick(stacks) else {
            return gen.edit(for: doc)
        }
        let index = Position.index(gen.rng.int(0..<doc.childCount(of: target) + 1))
        if configs, gen.rng.chance(5) {
            let stack = gen.rng.pick(stacks)
            switch gen.rng.int(0..<13) {
            case 10, 11:
                // Back to a stack that qualifies (vertical, fit, stretched, no limits).
                return .set(id: stack, spec: [.stack(.vertical), .fit, .align(.auto), .min(nil), .max(nil), .minCross(nil),
                                              .maxCross(nil), .sticky(false), .scrolls(false)])
            case 12: return .show(ids: stacks)
            case 0: return .set(id: stack, spec: [.fixed(gen.length() * 4)])
            case 1: return .set(id: stack, spec: [.fit])
            case 2: return .set(id: stack, spec: [.align(gen.rng.pick(AlignSelf.allCases))])
            case 3: return .set(id: stack, spec: [.min(gen.rng.chance(2) ? nil : gen.length())])
            case 4: return .set(id: stack, spec: [.spacing(gen.length() / 10)])
            case 5: return .set(id: stack, spec: [.insets(Edges(top: 3, left: 4, bottom: 5, right: 6))])
            case 6: return .hide(ids: [stack])
            case 7: return .show(ids: [stack])
            case 8: return .add(ids: [gen.freshID(in: doc)], spec: [.stack(.vertical)], position: index, parent: target)
            default: return .set(id: stack, spec: [.alignItems(gen.rng.pick(Align.allCases))])
            }
        }
        switch gen.rng.int(0..<12) {
        case 0, 1, 2: return .set(id: id, spec: [.fixed(gen.length())])
        case 3, 4: return .set(id: id, spec: gen.spec())
        case 5: return .hide(ids: [id])
        case 6: return .show(ids: [id])
        case 7, 8:
            var spec: [RowSpecItem] = [.fixed(gen.length())]
            if gen.rng.chance(4) { spec += [.stack(gen.rng.pick(Axis.allCases))] }
            return .add(ids: [gen.freshID(in: doc)], spec: spec, position: index, parent: target)
        case 9: return .remove(ids: [id])
        default:
            return .move(id: id, position: index, parent: gen.rng.chance(8) ? nil : target)
        }
    }
}
