import Testing
@testable import Layout
import StackDocTestSupport

/// `RowConfig.hasSameStyle(as:)` compares a config's style in place (the import compares every
/// row with the previous row's style so): it must say exactly what comparing the two styles
/// (`RowStyle`) says, for every field.
@Suite struct RowConfigStyleTests {
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
        for field in Self.fields {
            var b = RowConfig()
            field.copy(&b, Self.everyFieldSet)
            let alike = ["size", "content", "hidden"].contains(field.name)
            #expect(RowConfig().hasSameStyle(as: b) == alike, "\(field.name)")
        }
    }

    /// A config that differs from the default in every field.
    static let everyFieldSet = RowConfig(
        type: "label", size: .fixed(3), content: Size(width: 1, height: 2), insets: Edges(all: 1), margin: Edges(all: 2),
        grow: 1, shrink: 1, alignSelf: .end, hidden: true, separator: SeparatorOverrides(hidden: true),
        stack: StackSettings(), sticky: true, minMain: 1, maxMain: 2, minCross: 3, maxCross: 4,
        background: "#000000", highlight: "#FFFFFF", text: TextRun(count: 1), aspect: Size(width: 1, height: 1),
        stickyOffset: 5, rowInsets: Edges(all: 3))
}
