import Testing
import OrderStatistics
@testable import Layout
import StackDocTestSupport

/// `Validation.check(_ change:)` asks the allocation-free `Validation.isValid(_ config:)` first
/// and builds the messages' paths only for a bad row (an `import begin` block of 100k `add`
/// lines checks every row). This holds only if `isValid` is true exactly when `check` would not
/// throw: random configs, good and bad, say so, and a bad row's error is the one `check` gives.
@Suite(.offThePool) struct ValidationFastPathTests {
    static let numbers: [Double] = [0, -0.0, 1, 12.5, -1, -0.5, DocumentLimits.maxLength, DocumentLimits.maxLength + 1, .nan, .infinity, -.infinity, 1e300]
    static let colors = ["#FF0000", "#c6c6c8", "#12345", "red", "#GGGGGG", ""]
    static let types = ["view", "label", "", "a b", String(repeating: "t", count: 300)]

    static func randomConfig(_ rng: inout SplitMix64) -> RowConfig {
        func n() -> Double { rng.pick(numbers) }
        func edges() -> Edges { Edges(top: n(), left: n(), bottom: n(), right: n()) }
        // Mostly good values, so that a config often has one bad field or none.
        func good() -> Double { rng.chance(6) ? n() : Double(rng.int(0..<100)) }
        func goodEdges() -> Edges { rng.chance(4) ? edges() : Edges(all: good()) }
        var c = RowConfig()
        if rng.chance(8) { c.type = rng.pick(types) }
        c.size = rng.chance(2) ? .fixed(good()) : .fit
        c.content = Size(width: good(), height: good())
        if rng.chance(3) { c.insets = goodEdges() }
        c.margin = rng.chance(3) ? goodEdges() : Edges(all: 0)
        c.grow = good()
        c.shrink = good()
        if rng.chance(4) { c.separator.insets = goodEdges() }
        if rng.chance(4) { c.separator.thickness = good() }
        if rng.chance(4) { c.separator.color = rng.pick(colors) }
        if rng.chance(3) { c.stack = StackSettings(spacing: good()) }
        if rng.chance(4) { c.minMain = good() }
        if rng.chance(4) { c.maxCross = good() }
        if rng.chance(4) { c.background = rng.pick(colors) }
        if rng.chance(5) { c.text = TextRun(count: rng.pick([0, 5, -1, DocumentLimits.maxGlyphs + 1]), glyphWidth: good(), lineHeight: good()) }
        if rng.chance(5) { c.aspect = Size(width: good(), height: good()) }
        if rng.chance(5) { c.stickyOffset = good() }
        if rng.chance(5) { c.rowInsets = goodEdges() }
        if rng.chance(5) { c.scrollOffset = good() }
        if rng.chance(6) { c.rowSeparator = SeparatorOverrides(insets: rng.chance(2) ? goodEdges() : nil, thickness: good(), color: rng.pick(colors)) }
        return c
    }

    @Test func isValidIsTrueExactlyWhenCheckDoesNotThrow() {
        var rng = SplitMix64(seed: 0xFA57)
        var valid = 0, invalid = 0
        for _ in 0..<20_000 {
            let config = Self.randomConfig(&rng)
            let checked: String?
            do { try Validation.check(config); checked = nil } catch { checked = "\(error)" }
            #expect(Validation.isValid(config) == (checked == nil), "\(config) \(checked ?? "")")
            // The change's check: the config's own error, or none.
            let change = Change.insertRow(id: "r", config: config, parent: nil, index: 0)
            let viaChange: String?
            do { try Validation.check(change); viaChange = nil } catch { viaChange = "\(error)" }
            #expect(viaChange == checked)
            let update = Change.updateRow(id: "r", old: RowConfig(), new: config)
            #expect((try? Validation.check(update)) != nil || checked != nil)
            if checked == nil { valid += 1 } else { invalid += 1 }
        }
        #expect(valid > 2_000 && invalid > 2_000, "\(valid) valid, \(invalid) invalid")
    }
}
