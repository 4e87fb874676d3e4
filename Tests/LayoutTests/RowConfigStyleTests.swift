import Testing
import OrderStatistics
@testable import Layout
import StackDocTestSupport

/// `RowConfig.hasSameStyle(as:)` compares a config's style in place (the import compares every
/// row with the previous row's style so): it must say exactly what comparing the two styles
/// (`RowStyle`) says, for every field.
@Suite(.offThePool) struct RowConfigStyleTests {
    /// Each field of `RowConfig`, copied from one config into another.
    static let fields: [(name: String, copy: @Sendable (inout RowConfig, RowConfig) -> Void)] = [
        ("type", { $0.type = $1.type }), ("size", { $0.size = $1.size }), ("content", { $0.content = $1.content }),
        ("insets", { $0.insets = $1.insets }), ("margin", { $0.margin = $1.margin }), ("grow", { $0.grow = $1.grow }),
        ("shrink", { $0.shrink = $1.shrink }), ("alignSelf", { $0.alignSelf = $1.alignSelf }),
        ("hidden", { $0.hidden = $1.hidden }), ("separator", { $0.separator = $1.separator }),
        ("stack", { $0.stack = $1.stack }), ("sticky", { $0.sticky = $1.sticky }), ("minMain", { $0.minMain = $1.minMain }),
        ("maxMain", { $0.maxMain = $1.maxMain }), ("minCross", { $0.minCross = $1.minCross }),
        ("maxCross", { $0.maxCross = $1.maxCross }), ("background", { $0.background = $1.background }),
        ("highlight", { $0.highlight = $1.highlight }), ("text", { $0.text = $1.text }), ("aspect", { $0.aspect = $1.aspect }),
        ("stickyOffset", { $0.stickyOffset = $1.stickyOffset }), ("rowInsets", { $0.rowInsets = $1.rowInsets }),
        ("scrollOffset", { $0.scrollOffset = $1.scrollOffset }),
        ("rowSeparator", { $0.rowSeparator = $1.rowSeparator }),
    ]

    @Test func everyFieldIsListed() {
        // A field added to `RowConfig` fails this first: add it here and to `hasSameStyle(as:)`.
        #expect(Mirror(reflecting: RowConfig()).children.map(\.label) == Self.fields.map(\.name))
    }

    @Test func sameStyleIsTheStylesEquality() {
        var rng = SplitMix64(seed: 5)
        var other = RowConfig(alignSelf: .center, highlight: "#00FF00")
        other.maxMain = 3
        other.text = TextRun(count: 2)
        for _ in 0..<5_000 {
            let a = ValidationFastPathTests.randomConfig(&rng)
            let c = rng.chance(3) ? other : ValidationFastPathTests.randomConfig(&rng)
            var b = a
            for field in Self.fields where rng.chance(8) { field.copy(&b, c) }
            #expect(a.hasSameStyle(as: b) == (RowStyle(a) == RowStyle(b)))
            #expect(a.hasSameStyle(as: a) == (RowStyle(a) == RowStyle(a)))
        }
    }

    /// Every field, one at a time, from `EveryRowField.config` (which sets every field, checked by
    /// reflection): `hasSameStyle` tells each one apart but `size`, `content` and `hidden`, as
    /// `RowStyle`'s equality does.
    @Test func sameStyleTellsEveryFieldApart() {
        let all = EveryRowField.config
        #expect(EveryRowField.unsetFields(all) == [])
        let alike: Set = ["size", "content", "hidden"]
        for field in Self.fields {
            var one = RowConfig()
            field.copy(&one, all)
            #expect(RowConfig().hasSameStyle(as: one) == alike.contains(field.name), "\(field.name)")
            #expect(one.hasSameStyle(as: RowConfig()) == (RowStyle(one) == RowStyle(RowConfig())), "\(field.name)")
            var allButOne = all
            field.copy(&allButOne, RowConfig())
            #expect(all.hasSameStyle(as: allButOne) == alike.contains(field.name), "\(field.name)")
            #expect(all.hasSameStyle(as: allButOne) == (RowStyle(all) == RowStyle(allButOne)), "\(field.name)")
        }
    }

    /// Each entry of `fields` copies the field it names and no other (found by reflection):
    /// a copy closure that names one field and copies another fails here.
    @Test func eachListedCopyCopiesItsField() {
        let unsetByDefault = Set(EveryRowField.unsetFields(RowConfig()))
        for field in Self.fields {
            var one = RowConfig()
            field.copy(&one, EveryRowField.config)
            let nowSet = unsetByDefault.subtracting(EveryRowField.unsetFields(one))
            #expect(Set(nowSet.map { String($0.prefix { $0 != "." }) }) == [field.name], "\(field.name): \(nowSet.sorted())")
        }
    }
}
