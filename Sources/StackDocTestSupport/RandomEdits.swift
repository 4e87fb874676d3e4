import Layout
import OrderStatistics

/// The one generator of random edits of the tests: every `Edit` case and every case of its
/// parts (positions, ROWSPEC items, separator specs, stack settings, defaults, scrolls), drawn
/// from one seeded `SplitMix64`, so a run reproduces from its seed.
///
/// What an edit is made of — ids, numbers, types, colours, indexes — comes from `Values`:
/// `.hostile` (a small id pool and NaN, -0, 1e300: valid and invalid edits mixed, what the
/// planner must plan or refuse cleanly), `.language(keywords:)` (ids that need quoting, numbers of every
/// magnitude: what the printer and the parser must round-trip), `.lines` (a pool of eight ids
/// and whole lengths: commands that mostly work, for sessions racing on one document) and
/// `.fuzz` (the ids and numbers the command fuzzer aims at its document). Edits aimed at the
/// rows of a given document are `DocumentEdits`; valid edits with their changes, `RandomOps`.
public struct RandomEdits {
    public var rng: SplitMix64
    public var values: Values

    public init(rng: SplitMix64, values: Values = .hostile) {
        self.rng = rng
        self.values = values
    }

    /// How the values of an edit are drawn.
    public struct Values {
        /// A row id (of a row that may or may not exist).
        public var id: (inout SplitMix64) -> RowID
        /// A length, offset, weight or coordinate.
        public var number: (inout SplitMix64) -> Double
        /// A row type.
        public var type: (inout SplitMix64) -> String
        /// A separator colour.
        public var color: (inout SplitMix64) -> String
        /// The index of `at INDEX` / `to INDEX`.
        public var index: (inout SplitMix64) -> Int
        /// How many ids an edit of several rows names.
        public var idCount: ClosedRange<Int> = 1...3
        /// How many ROWSPEC items an `add`, `replace` or `set` has (`set` at least one).
        public var specCount: ClosedRange<Int> = 0...3
        /// Ids that `add` makes stacks (so nested documents arise from context-free edits).
        public var stackIDs: Set<RowID> = []
        /// An edit that may name a parent (`in ROW`) names one once in this many draws.
        public var parentOneIn = 2

        public init(id: @escaping (inout SplitMix64) -> RowID, number: @escaping (inout SplitMix64) -> Double,
                    type: @escaping (inout SplitMix64) -> String, color: @escaping (inout SplitMix64) -> String,
                    index: @escaping (inout SplitMix64) -> Int) {
            self.id = id
            self.number = number
            self.type = type
            self.color = color
            self.index = index
        }

        /// r0…r11 and the stacks s0…s2; NaN, -0, 1e-300, 1e300 and -1 among the numbers; an
        /// invalid type and short colours: about a third of the edits are refused.
        public static var hostile: Values {
            let pool = (0..<12).map { "r\($0)" } + ["s0", "s1", "s2"]
            var v = Values(id: { $0.pick(pool) },
                           number: { $0.pick([0, 1, 10, 44.5, -1, -0.0, 1e-300, 1e300, .nan]) },
                           type: { $0.pick(["view", "label", "bad type"]) },
                           color: { $0.pick(["#aabbcc", "#123", "#00FF00"]) },
                           index: { $0.int(-1..<5) })
            v.stackIDs = ["s0", "s1", "s2"]
            return v
        }

        /// Any word as an id or type (`keywords`, spaces, quotes, escapes, 300 characters,
        /// non-ASCII) and numbers of every magnitude: every edit must print as text that parses
        /// back to it.
        public static func language(keywords: [String]) -> Values {
            let draw: (inout SplitMix64) -> String = { Values.word(&$0, keywords: keywords) }
            var v = Values(id: draw, number: { g in
                switch g.int(0..<6) {
                case 0: return Double(g.int(-1000..<1001))
                case 1: return Double.random(in: -1e6...1e6, using: &g)
                case 2: return g.pick([0, -0.0, 1e308, -1e308, 1e-300, 0.1, 1e15, 1.2345678901234568e17, Double.leastNonzeroMagnitude])
                default: return Double(g.int(0..<501)) / 4
                }
            }, type: draw, color: { g in "#" + String((0..<6).map { _ in g.pick(Array("0123456789abcdefABCDEF")) }) },
                           index: { Int.random(in: 0...Int.max, using: &$0) })
            v.idCount = 1...4
            v.specCount = 0...4
            return v
        }

        /// r0…r7 and whole multiples of 10: edits that mostly apply, so that sessions sharing one
        /// document collide.
        public static var lines: Values {
            var v = Values(id: { "r\($0.int(0..<8))" }, number: { Double($0.int(0..<50) * 10) },
                           type: { $0.pick(["view", "cell"]) }, color: { $0.pick(["#C6C6C8", "#A1B2C3"]) },
                           index: { $0.int(0..<5) })
            v.stackIDs = ["r7"]
            v.parentOneIn = 6
            return v
        }

        /// The command fuzzer's document (a…e, a stack s with s1, s2) and numbers from 0 to 1e308,
        /// negative, fractional and -0.
        public static var fuzz: Values {
            var v = Values(id: { $0.pick(["a", "b", "c", "d", "e", "s", "s1", "s2", "t", "x", "zz"]) },
                           number: { $0.pick([0, 1, 10, 50, 0.5, 100, 390, 844, -5, 1e308, 1e-300, -0.0, 1e9]) },
                           type: { $0.pick(["view", "label", "cell", "x;y"]) }, color: { _ in "#A1B2C3" },
                           index: { $0.int(-2..<8) })
            v.stackIDs = ["s"]
            v.parentOneIn = 3
            return v
        }

        /// A word of the language: one of `keywords`, odd characters, long and ordinary ones.
        public static func word(_ g: inout SplitMix64, keywords: [String]) -> String {
            switch g.int(0..<10) {
            case 0: return g.pick(keywords)
            case 1: return g.pick(["two words", "", "quo\"te", "back\\slash", "tab\t", "#hash", "ünï", "semi;colon", "'single'", "new\nline", "#A1B2C3"])
            case 2: return String(repeating: "x", count: g.int(1..<301))
            default:
                let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789.-")
                return String((0..<g.int(1..<13)).map { _ in g.pick(letters) })
            }
        }
    }

    // MARK: Values

    public mutating func id() -> RowID { values.id(&rng) }
    public mutating func ids() -> [RowID] { (0..<rng.int(values.idCount.lowerBound..<values.idCount.upperBound + 1)).map { _ in id() } }
    public mutating func number() -> Double { values.number(&rng) }
    public mutating func bool() -> Bool { rng.chance(2) }
    public mutating func edges() -> Edges { Edges(top: number(), left: number(), bottom: number(), right: number()) }
    public mutating func size() -> Size { Size(width: number(), height: number()) }
    /// The parent of `in ROW`, or the root (nil).
    public mutating func parent() -> RowID? { rng.chance(values.parentOneIn) ? id() : nil }

    // MARK: Parts

    public mutating func position() -> Position {
        switch rng.int(0..<5) {
        case 0: return .top
        case 1: return .bottom
        case 2: return .index(values.index(&rng))
        case 3: return .after(id())
        default: return .before(id())
        }
    }

    public mutating func sepSpec() -> SeparatorSpec {
        switch rng.int(0..<6) {
        case 0: return .hidden
        case 1: return .shown
        case 2: return .insets(edges())
        case 3: return .thickness(number())
        case 4: return .color(values.color(&rng))
        default: return .default
        }
    }

    public mutating func specItem() -> RowSpecItem {
        switch rng.int(0..<25) {
        case 0: return .type(values.type(&rng))
        case 1: return .fixed(number())
        case 2: return .fit
        case 3: return .content(size())
        case 4: return rng.chance(4) ? .rowInsets(bool() ? nil : edges()) : .insets(edges())
        case 5: return .insetsDefault
        case 6: return .margin(edges())
        case 7: return .grow(number())
        case 8: return .shrink(number())
        case 9: return .align(rng.pick(AlignSelf.allCases))
        case 10: return .alignItems(rng.pick(Align.allCases))
        case 11: return .hidden
        case 12:
            if rng.chance(5) { return rng.chance(2) ? .scrolls(bool()) : .scrollOffset(bool() ? nil : number()) }
            return rng.chance(6) ? .unstack : .stack(rng.pick(Axis.allCases))
        case 13: return .justify(rng.pick(Justify.allCases))
        case 14: return .spacing(number())
        case 15: return rng.chance(3) ? .stickyOffset(bool() ? nil : number()) : .sticky(bool())
        case 16: return .min(bool() ? nil : number())
        case 17: return .max(bool() ? nil : number())
        case 18: return .minCross(bool() ? nil : number())
        case 19: return .maxCross(bool() ? nil : number())
        case 20: return .background(bool() ? nil : ["#aabbcc", "red", "#00FF00"][rng.int(0..<3)])
        case 21: return .highlight(bool() ? nil : ["#123", "#FF8800"][rng.int(0..<2)])
        case 22: return .text(bool() ? nil : TextRun(count: rng.int(0..<50), glyphWidth: number(), lineHeight: number()))
        case 23: return .aspect(bool() ? nil : size())
        default: return rng.chance(4) ? .rowSeparator(sepSpec()) : .separator(sepSpec())
        }
    }

    public mutating func spec(min: Int = 0) -> [RowSpecItem] {
        let count = rng.int(Swift.max(min, values.specCount.lowerBound)..<Swift.max(min, values.specCount.upperBound) + 1)
        return (0..<count).map { _ in specItem() }
    }

    public mutating func stackSetting() -> StackSettingSpec {
        switch rng.int(0..<5) {
        case 0: return .axis(rng.pick(Axis.allCases))
        case 1: return .padding(edges())
        case 2: return .spacing(number())
        case 3: return .justify(rng.pick(Justify.allCases))
        default: return .align(rng.pick(Align.allCases))
        }
    }

    public mutating func defaults() -> DefaultsSpec {
        switch rng.int(0..<3) {
        case 0: return .insets(edges())
        case 1: return .separator((0..<rng.int(1..<4)).map { _ in sepSpec() })
        default: return .autoHide(bool())
        }
    }

    public mutating func scroll() -> ScrollSpec {
        switch rng.int(0..<5) {
        case 4: return .stack(id(), bool() ? -number() : number())
        case 0: return .offset(number())
        case 1: return .by(bool() ? -number() : number())
        case 2: return .focus(id())
        default: return .to(id(), rng.pick(ScrollPosition.allCases))
        }
    }

    public mutating func obscured() -> ObscuredSpec {
        switch rng.int(0..<5) {
        case 0: return .insets(viewport: size(), insets: edges())
        case 1: return .insets(viewport: nil, insets: edges())
        case 2: return .safeArea(viewport: size(), safeArea: edges())
        case 3: return .safeArea(viewport: nil, safeArea: edges())
        default: return .keyboard(bool() ? number() : nil)
        }
    }

    // MARK: Edits

    /// A random edit of any case.
    public mutating func edit() -> Edit {
        switch rng.int(0..<18) {
        case 0, 1, 2:
            let ids = ids()
            let stack: [RowSpecItem] = ids.contains(where: values.stackIDs.contains) ? [.stack(.vertical)] : []
            return .add(ids: ids, spec: stack + spec(), position: bool() ? position() : nil, parent: parent())
        case 3: return .remove(ids: ids())
        case 4: return .clear(parent: parent())
        case 5: return .replace(id: id(), newID: id(), spec: spec())
        case 6, 7: return .move(id: id(), position: position(), parent: parent())
        case 8: return .hide(ids: ids())
        case 9: return .show(ids: ids())
        case 10: return .set(id: id(), spec: spec(min: 1))
        case 11: return .setStack(stackSetting())
        case 12: return .defaults(defaults())
        case 13: return .scroll(scroll())
        case 14: return .obscured(obscured())
        case 15:
            // Two ids at least: `set` with one id is `.set` (the printer writes both alike).
            let first = id()
            let rest = ids().filter { $0 != first }
            return .setRows(ids: [first] + (rest.isEmpty ? [first + "2"] : rest), spec: spec(min: 1))
        default: return .viewport(size())
        }
    }
}
