import Testing
@testable import Layout

/// Random edit sequences on flat and nested documents: after every step a `LiveLayout` fed the
/// planned changes must agree with a fresh `Document.layout()` on every row, and its report with
/// the full comparison of the layouts before and after.
@Suite("LiveLayout: random edit sequences against the full layout")
struct LiveLayoutPropertyTests {
    struct Gen {
        var rng: SplitMix64
        var next = 0
        let nested: Bool
        /// The lengths sizes, contents and margins are drawn from.
        var lengths: [Double] = [0, 10, 20.5, 44, 68, 100, 200, 400]

        mutating func freshID() -> RowID {
            next += 1
            return "n\(next)"
        }
        mutating func pick(_ doc: Document, stacksOnly: Bool = false) -> RowID? {
            var ids: [RowID] = []
            doc.forEachRow { id, _, _, c in if !stacksOnly || c.stack != nil { ids.append(id) } }
            return ids.randomElement(using: &rng)
        }
        mutating func length() -> Double { lengths.randomElement(using: &rng)! }
        mutating func spec() -> [RowSpecItem] {
            var items: [RowSpecItem] = []
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                switch Int.random(in: 0..<12, using: &rng) {
                case 0, 1, 2: items.append(.fixed(length()))
                case 3: items.append(.content(Size(width: length(), height: length())))
                case 4: items.append(.fit)
                case 5: items.append(.margin(Edges(top: length() / 8, left: length() / 16, bottom: length() / 4, right: 0)))
                case 6: items.append(.grow(Double(Int.random(in: 0...2, using: &rng))))
                case 7: items.append(.insets(Edges(top: 2, left: 3, bottom: 4, right: 5)))
                case 8: items.append(.align([.auto, .start, .center, .stretch].randomElement(using: &rng)!))
                case 9: items.append(.separator([.hidden, .shown, .thickness(3), .insets(Edges(top: 0, left: 400, bottom: 0, right: 0))].randomElement(using: &rng)!))
                case 10: items.append(.shrink(1))
                default: items.append(.hidden)
                }
            }
            return items
        }
        mutating func position(_ doc: Document, in parent: RowID?) -> Position? {
            let n = doc.childCount(of: parent)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: return nil
            case 1: return .top
            case 2: return .bottom
            default: return .index(Int.random(in: 0...n, using: &rng))
            }
        }
        mutating func parent(_ doc: Document) -> RowID? {
            guard nested, Int.random(in: 0..<3, using: &rng) == 0 else { return nil }
            return pick(doc, stacksOnly: true)
        }

        mutating func edit(_ doc: Document) -> Edit? {
            switch Int.random(in: 0..<30, using: &rng) {
            case 0..<6:
                let p = parent(doc)
                let ids = (0..<Int.random(in: 1...3, using: &rng)).map { _ in freshID() }
                var s = spec()
                if nested, Int.random(in: 0..<4, using: &rng) == 0 {
                    s.append(.stack([.vertical, .horizontal].randomElement(using: &rng)!))
                    if Bool.random(using: &rng) { s.append(.justify(.center)) }
                }
                return .add(ids: ids, spec: s, position: position(doc, in: p), parent: p)
            case 6, 7: return pick(doc).map { .remove(ids: [$0]) }
            case 8..<11:
                guard let id = pick(doc) else { return nil }
                let p = parent(doc)
                return .move(id: id, position: position(doc, in: p) ?? .top, parent: p)
            case 11, 12: return pick(doc).map { .hide(ids: [$0]) }
            case 13, 14: return pick(doc).map { .show(ids: [$0]) }
            case 15..<19: return pick(doc).map { .set(id: $0, spec: spec()) }
            case 19: return pick(doc).map { .replace(id: $0, newID: freshID(), spec: spec()) }
            case 20: return Int.random(in: 0..<4, using: &rng) == 0 ? .clear(parent: parent(doc)) : nil
            case 21, 22: return .scroll(.offset(Double(Int.random(in: -100...3000, using: &rng))))
            case 23: return .scroll(.by(Double(Int.random(in: -500...500, using: &rng))))
            case 24:
                guard let id = pick(doc) else { return nil }
                return .scroll(.to(id, [.top, .middle, .bottom, .auto].randomElement(using: &rng)!))
            case 25:
                let w = Bool.random(using: &rng) ? doc.settings.viewport.width : 300
                return .viewport(Size(width: w, height: [100, 400, 844, 5000].randomElement(using: &rng)!))
            case 26:
                return .defaults([.insets(Edges(top: 1, left: 2, bottom: 3, right: 4)), .autoHide(Bool.random(using: &rng)),
                                  .separator([.thickness(2)])].randomElement(using: &rng)!)
            case 27:
                return .setStack([.justify([.start, .center, .end, .spaceBetween].randomElement(using: &rng)!),
                                  .spacing([0, 8].randomElement(using: &rng)!),
                                  .padding(Edges(top: 5, left: 6, bottom: 7, right: 8)),
                                  .axis([.vertical, .horizontal].randomElement(using: &rng)!),
                                  .align([.start, .stretch].randomElement(using: &rng)!)].randomElement(using: &rng)!)
            default: return pick(doc).map { .set(id: $0, spec: [.fixed(length())]) }
            }
        }
    }

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
        var gen = Gen(rng: SplitMix64(seed: seed), nested: nested)
        var doc = Document(name: "d", settings: DocumentSettings(viewport: Size(width: 390, height: 600)))
        // Start shorter or longer than the viewport.
        let initial = Int.random(in: 0...40, using: &gen.rng)
        try doc.apply(try doc.plan(.add(ids: (0..<initial).map { _ in gen.freshID() }, spec: [.fixed(20)], position: nil, parent: nil)))
        var live = LiveLayout(doc)
        var previous = doc.layout()
        LiveLayoutPropertyTests.check(live, previous, "seed \(seed) initial")
        var incremental = 0, fallbacks = 0
        for step in 0..<500 {
            guard let edit = gen.edit(doc) else { continue }
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
