import Testing
@testable import Layout

typealias SeededGenerator = SplitMix64

/// Random edits over a small id pool, valid and invalid ones mixed (scroll is left out: it needs
/// the layout, tested where the layout is).
struct RandomEdits {
    var rng: SeededGenerator
    let pool = (0..<12).map { "r\($0)" } + ["s0", "s1", "s2"]

    mutating func id() -> RowID { pool.randomElement(using: &rng)! }
    mutating func ids() -> [RowID] { (0..<Int.random(in: 1...3, using: &rng)).map { _ in id() } }
    mutating func number() -> Double {
        [0, 1, 10, 44.5, -1, -0.0, 1e-300, 1e300, .nan].randomElement(using: &rng)!
    }
    mutating func edges() -> Edges { Edges(top: number(), left: number(), bottom: number(), right: number()) }
    mutating func position() -> Position? {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return nil
        case 1: return .top
        case 2: return .bottom
        case 3: return .index(Int.random(in: -1...4, using: &rng))
        case 4: return .after(id())
        default: return .before(id())
        }
    }
    mutating func parent() -> RowID? { Bool.random(using: &rng) ? nil : ["s0", "s1", "s2", "r0"].randomElement(using: &rng)! }
    mutating func sepSpec() -> SeparatorSpec {
        [.hidden, .shown, .insets(edges()), .thickness(number()), .color(["#aabbcc", "#123", "#00FF00"].randomElement(using: &rng)!), .default]
            .randomElement(using: &rng)!
    }
    mutating func specItem() -> RowSpecItem {
        switch Int.random(in: 0..<17, using: &rng) {
        case 0: return .type(["view", "label", "bad type"].randomElement(using: &rng)!)
        case 1: return .fixed(number())
        case 2: return .fit
        case 3: return .content(Size(width: number(), height: number()))
        case 4: return .insets(edges())
        case 5: return .insetsDefault
        case 6: return .margin(edges())
        case 7: return .grow(number())
        case 8: return .shrink(number())
        case 9: return .align(AlignSelf.allCases.randomElement(using: &rng)!)
        case 10: return .hidden
        case 11: return .stack(Axis.allCases.randomElement(using: &rng)!)
        case 12: return .justify(Justify.allCases.randomElement(using: &rng)!)
        case 13: return .alignItems(Align.allCases.randomElement(using: &rng)!)
        case 14: return .spacing(number())
        default: return .separator(sepSpec())
        }
    }
    mutating func spec() -> [RowSpecItem] { (0..<Int.random(in: 0...3, using: &rng)).map { _ in specItem() } }

    mutating func edit() -> Edit {
        switch Int.random(in: 0..<14, using: &rng) {
        case 0, 1, 2:
            let ids = ids()
            let stackSpec: [RowSpecItem] = ids.contains(where: { $0.hasPrefix("s") }) ? [.stack(.vertical)] : []
            return .add(ids: ids, spec: stackSpec + spec(), position: position(), parent: parent())
        case 3: return .remove(ids: ids())
        case 4: return .clear(parent: parent())
        case 5: return .replace(id: id(), newID: id(), spec: spec())
        case 6, 7: return .move(id: id(), position: position() ?? .top, parent: parent())
        case 8: return .hide(ids: ids())
        case 9: return .show(ids: ids())
        case 10: return .set(id: id(), spec: spec())
        case 11:
            return .setStack([.axis(.horizontal), .padding(edges()), .spacing(number()), .justify(.center), .align(.end)]
                .randomElement(using: &rng)!)
        case 12:
            return .defaults([.insets(edges()), .separator([sepSpec(), sepSpec()]), .autoHide(Bool.random(using: &rng))]
                .randomElement(using: &rng)!)
        default: return .viewport(Size(width: number(), height: number()))
        }
    }
}

@Suite("Edit planning: random sequences")
struct PlanPropertyTests {
    @Test(arguments: [1, 2, 3, 42, 1234] as [UInt64])
    func planAppliesAndInverseRestores(seed: UInt64) throws {
        var gen = RandomEdits(rng: SeededGenerator(seed: seed))
        var doc = Document(name: "d")
        var planned = 0, refused = 0
        for _ in 0..<1500 {
            let edit = gen.edit()
            let before = doc
            let changes: [Change]
            do {
                changes = try doc.plan(edit)
            } catch let error as StackDocError {
                #expect(!error.message.isEmpty)
                refused += 1
                continue
            }
            planned += 1
            try doc.apply(changes)  // a plan always fits the document it was made for
            if changes.isEmpty { #expect(doc == before) }
            var undone = doc
            try undone.apply(changes.inverse)
            #expect(undone == before, "seed \(seed): inverse of \(edit) does not restore")
            try checkInvariants(doc)
        }
        #expect(planned > 300 && refused > 100, "planned \(planned), refused \(refused)")
    }

    /// Every stored value is valid: ids, depth, non-negative finite lengths, upper-case colours.
    func checkInvariants(_ doc: Document) throws {
        var depth: [RowID: Int] = [:]
        doc.forEachRow { id, parent, _, config in
            let d = (parent.flatMap { depth[$0] } ?? 0) + 1
            depth[id] = d
            #expect(d <= DocumentLimits.maxDepth)
            #expect(Validation.isValidRowID(id))
            if case let .fixed(n) = config.size { #expect(n >= 0 && n.isFinite) }
            for v in [config.grow, config.shrink, config.content.width, config.content.height,
                      config.margin.top, config.insets?.left ?? 0, config.separator.thickness ?? 0, config.stack?.spacing ?? 0] {
                #expect(v >= 0 && v.isFinite && v.sign == .plus)
            }
            if let c = config.separator.color { #expect(c == c.uppercased()) }
            if config.stack == nil { #expect(doc.children(of: id).isEmpty) }
        }
        #expect(depth.count == doc.rowCount)
    }
}
