import Layout

/// Random edits over a small id pool, valid and invalid ones mixed, with hostile numbers (NaN,
/// -0, 1e300): what the planner must plan or refuse cleanly. Scroll is left out (it needs the
/// layout, tested where the layout is). `RandomOps` makes only valid edits for a given document.
public struct RandomEdits {
    public var rng: SplitMix64

    public init(rng: SplitMix64) { self.rng = rng }
    public let pool = (0..<12).map { "r\($0)" } + ["s0", "s1", "s2"]

    public mutating func id() -> RowID { pool.randomElement(using: &rng)! }
    public mutating func ids() -> [RowID] { (0..<Int.random(in: 1...3, using: &rng)).map { _ in id() } }
    public mutating func number() -> Double {
        [0, 1, 10, 44.5, -1, -0.0, 1e-300, 1e300, .nan].randomElement(using: &rng)!
    }
    public mutating func edges() -> Edges { Edges(top: number(), left: number(), bottom: number(), right: number()) }
    public mutating func position() -> Position? {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return nil
        case 1: return .top
        case 2: return .bottom
        case 3: return .index(Int.random(in: -1...4, using: &rng))
        case 4: return .after(id())
        default: return .before(id())
        }
    }
    public mutating func parent() -> RowID? { Bool.random(using: &rng) ? nil : ["s0", "s1", "s2", "r0"].randomElement(using: &rng)! }
    public mutating func sepSpec() -> SeparatorSpec {
        [.hidden, .shown, .insets(edges()), .thickness(number()), .color(["#aabbcc", "#123", "#00FF00"].randomElement(using: &rng)!), .default]
            .randomElement(using: &rng)!
    }
    public mutating func specItem() -> RowSpecItem {
        switch Int.random(in: 0..<18, using: &rng) {
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
        case 15: return .sticky(Bool.random(using: &rng))
        default: return .separator(sepSpec())
        }
    }
    public mutating func spec() -> [RowSpecItem] { (0..<Int.random(in: 0...3, using: &rng)).map { _ in specItem() } }

    public mutating func edit() -> Edit {
        switch Int.random(in: 0..<16, using: &rng) {
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
        case 13: return .obscured(.insets(viewport: Bool.random(using: &rng) ? Size(width: number(), height: number()) : nil,
                                          insets: edges()))
        case 14: return .obscured(.keyboard(Bool.random(using: &rng) ? number() : nil))
        default: return .viewport(Size(width: number(), height: number()))
        }
    }
}
