import OrderStatistics
import Layout
import StackDocTestSupport

/// Random changes of every case, with configs using every field and hostile values: strings
/// needing escapes, doubles of every magnitude, negative zero, 2^53, subnormals.
struct RandomChanges {
    var rng: SplitMix64
    let alphabet = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + ["é", "😀", "\u{2028}", "\u{7F}", "中"]

    mutating func string() -> String {
        if rng.chance(3) { return String((0..<rng.int(0..<8)).map { _ in rng.pick(alphabet) }) }
        return "r\(rng.int(0..<100_000))"
    }

    mutating func double() -> Double {
        switch rng.int(0..<7) {
        case 0: return Double(rng.int(0..<1000))
        case 1: return Double(rng.int(-1000..<1000)) / 64
        case 2: return Double(bitPattern: UInt64.random(in: 0..<0x7FF0_0000_0000_0000, using: &rng)) * (rng.chance(2) ? 1 : -1)
        case 3: return rng.pick([0, -0.0, 1e-300, Double.leastNonzeroMagnitude, 1e308, 1e16, 1e15, 1e15 - 1, -(1e15 - 1),
                                 9_007_199_254_740_992, 123456789012345680, 0.1 + 0.2, 1e-7, 100, 844, 390])
        case 4: return Double(rng.int(-1_000_000_000_000_000..<1_000_000_000_000_000))
        default: return Double.random(in: -1e6...1e6, using: &rng)
        }
    }

    mutating func edges() -> Edges { Edges(top: double(), left: double(), bottom: double(), right: double()) }

    mutating func config() -> RowConfig {
        var c = RowConfig(type: rng.chance(2) ? "view" : string(), size: rng.chance(3) ? .fit : .fixed(double()),
                          content: Size(width: double(), height: double()), insets: rng.chance(2) ? nil : edges(),
                          margin: edges(), grow: double(), shrink: double(), alignSelf: rng.pick(AlignSelf.allCases),
                          hidden: rng.chance(2),
                          separator: SeparatorOverrides(hidden: rng.chance(2) ? nil : rng.chance(2), insets: rng.chance(2) ? nil : edges(),
                                                        thickness: rng.chance(2) ? nil : double(), color: rng.chance(2) ? nil : string()),
                          stack: rng.chance(3) ? StackSettings(axis: rng.pick(Axis.allCases), justify: rng.pick(Justify.allCases),
                                                               align: rng.pick(Align.allCases), spacing: double()) : nil,
                          sticky: rng.chance(3))
        for field in RowField.optional where rng.chance(3) {
            switch field.kind {
            case .format1: break
            case .number: field.setNumber(double(), &c)
            case .text:
                // A valid value (text runs and ratios keep only valid words) or any string.
                let valid = field == .text ? "12 char 8 line 20" : field == .aspect ? "16 9" : "#A0B1C2"
                field.setText(rng.chance(2) ? valid : string(), &c)
            }
        }
        return c
    }

    mutating func parent() -> RowID? { rng.chance(2) ? nil : string() }

    mutating func change() -> Change {
        switch rng.int(0..<9) {
        case 0, 1: return .insertRow(id: string(), config: config(), parent: parent(), index: rng.int(0..<100_000))
        case 2, 3: return .removeRow(id: string(), config: config(), parent: parent(), index: rng.int(0..<100_000))
        case 4, 5: return .updateRow(id: string(), old: config(), new: config())
        case 6, 7: return .moveRow(id: string(), fromParent: parent(), fromIndex: rng.int(0..<1000), toParent: parent(), toIndex: rng.int(0..<1000))
        default:
            var settings = DocumentSettings(axis: rng.pick(Axis.allCases), viewport: Size(width: double(), height: double()), offset: double())
            settings.keyboard = rng.chance(2) ? 0 : double()
            return .updateSettings(old: DocumentSettings(), new: settings)
        }
    }
}
