import Foundation
import Testing
import OrderStatistics
@_spi(Reflection) import Swift
@testable import Layout
import StackDocTestSupport

/// `RowConfig` keeps its stack-only fields (`rowInsets`, `scrollOffset`, `rowSeparator`) behind
/// one reference (`stackOnly`): the common row's config is no larger than before those fields
/// came (eeb7ef2, whose layout `Before` repeats), and its equality, hash, `Codable` and
/// reflection are what they were with every field stored in place (`Flat`).
@Suite(.offThePool) struct RowConfigLayoutTests {
    /// RowConfig's stored fields as of eeb7ef2 (before `scrollOffset` and `rowSeparator`).
    struct Before {
        var type: String, size: RowSize, content: Size, insets: Edges?, margin: Edges, grow: Double, shrink: Double
        var alignSelf: AlignSelf, hidden: Bool, separator: SeparatorOverrides, stack: StackSettings?, sticky: Bool
        var minMain: Double?, maxMain: Double?, minCross: Double?, maxCross: Double?, background: String?
        var highlight: String?, text: TextRun?, aspect: Size?, stickyOffset: Double?, rowInsets: Edges?
    }

    /// Every field stored in place, with the synthesized `Codable` and `Hashable`: what
    /// `RowConfig` was before the box.
    struct Flat: Codable, Hashable {
        var type: String, size: RowSize, content: Size, insets: Edges?, margin: Edges, grow: Double, shrink: Double
        var alignSelf: AlignSelf, hidden: Bool, separator: SeparatorOverrides, stack: StackSettings?, sticky: Bool
        var minMain: Double?, maxMain: Double?, minCross: Double?, maxCross: Double?, background: String?
        var highlight: String?, text: TextRun?, aspect: Size?, stickyOffset: Double?, rowInsets: Edges?
        var scrollOffset: Double?, rowSeparator: SeparatorOverrides?

        init(_ c: RowConfig) {
            (type, size, content, insets, margin, grow, shrink) = (c.type, c.size, c.content, c.insets, c.margin, c.grow, c.shrink)
            (alignSelf, hidden, separator, stack, sticky) = (c.alignSelf, c.hidden, c.separator, c.stack, c.sticky)
            (minMain, maxMain, minCross, maxCross, background) = (c.minMain, c.maxMain, c.minCross, c.maxCross, c.background)
            (highlight, text, aspect, stickyOffset, rowInsets) = (c.highlight, c.text, c.aspect, c.stickyOffset, c.rowInsets)
            (scrollOffset, rowSeparator) = (c.scrollOffset, c.rowSeparator)
        }
    }

    static func storedFields(of type: Any.Type) -> [String] {
        var names: [String] = []
        _ = _forEachField(of: type) { name, _, _, _ in
            names.append(String(cString: name))
            return true
        }
        return names
    }

    /// Configs that set the stack-only fields in every combination, over a plain config and
    /// over one that sets every other field too.
    static var samples: [RowConfig] {
        var out: [RowConfig] = []
        let all = EveryRowField.config
        for base in [RowConfig(), all] {
            for mask in 0..<8 {
                var c = base
                if mask & 1 == 0 { c.rowInsets = nil } else { c.rowInsets = all.rowInsets }
                if mask & 2 == 0 { c.scrollOffset = nil } else { c.scrollOffset = all.scrollOffset }
                if mask & 4 == 0 { c.rowSeparator = nil } else { c.rowSeparator = all.rowSeparator }
                out.append(c)
            }
        }
        var rng = SplitMix64(seed: 11)
        for _ in 0..<300 { out.append(ValidationFastPathTests.randomConfig(&rng)) }
        return out
    }

    @Test func theCommonRowIsNoLargerThanBeforeTheStackOnlyFields() {
        #expect(MemoryLayout<RowConfig>.size <= MemoryLayout<Before>.size)
        #expect(MemoryLayout<RowConfig>.stride <= MemoryLayout<Before>.stride)
        #expect(MemoryLayout<RowConfig>.size + 120 < MemoryLayout<Flat>.size, "\(MemoryLayout<RowConfig>.size) vs \(MemoryLayout<Flat>.size)")
        #expect(RowConfig().stackOnly == nil)
    }

    /// A field stored in `RowConfig` must be in its mirror (and its `Codable`); the boxed ones
    /// are the box's fields and nothing else.
    @Test func theMirrorListsEveryStoredFieldAndTheBoxedOnes() {
        let boxed = ["rowInsets", "scrollOffset", "rowSeparator"]
        #expect(Self.storedFields(of: StackOnlyFields.self) == boxed)
        #expect(Self.storedFields(of: RowConfig.self) == Array(Self.storedFields(of: Before.self).dropLast()) + ["stackOnly"])
        #expect(Mirror(reflecting: RowConfig()).children.map(\.label) == Self.storedFields(of: Flat.self))
        #expect(RowConfig.CodingKeys.allCases.map(\.rawValue) == Self.storedFields(of: Flat.self))
        let all = EveryRowField.config
        for (child, flat) in zip(Mirror(reflecting: all).children, Mirror(reflecting: Flat(all)).children) {
            #expect(String(reflecting: child.value) == String(reflecting: flat.value), "\(child.label ?? "?")")
        }
    }

    @Test func codableWritesAndReadsWhatTheSynthesizedOneDid() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // (Foundation's keyed container does not keep the order)
        for c in Self.samples where Validation.isValid(c) {
            let data = try encoder.encode(c)
            #expect(data == (try encoder.encode(Flat(c))))
            #expect(try JSONDecoder().decode(RowConfig.self, from: data) == c)
        }
        let missing = Data(#"{"size":"fit"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RowConfig.self, from: missing) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Flat.self, from: missing) }
    }

    @Test func equalityAndHashAreThoseOfTheFields() {
        let samples = Self.samples
        for a in samples.prefix(40) {
            for b in samples.prefix(40) {
                #expect((a == b) == (Flat(a) == Flat(b)))
                if a == b { #expect(a.hashValue == b.hashValue) }
                #expect(a.hasSameStyle(as: b) == (RowStyle(a) == RowStyle(b)))
            }
        }
        // Clearing what was set leaves no box behind: equal to (and hashed as) a fresh config.
        var c = EveryRowField.config
        (c.rowInsets, c.scrollOffset, c.rowSeparator) = (nil, nil, nil)
        var plain = EveryRowField.config
        plain = RowConfig(type: plain.type, size: plain.size, content: plain.content, insets: plain.insets, margin: plain.margin,
                          grow: plain.grow, shrink: plain.shrink, alignSelf: plain.alignSelf, hidden: plain.hidden,
                          separator: plain.separator, stack: plain.stack, sticky: plain.sticky, minMain: plain.minMain,
                          maxMain: plain.maxMain, minCross: plain.minCross, maxCross: plain.maxCross, background: plain.background,
                          highlight: plain.highlight, text: plain.text, aspect: plain.aspect, stickyOffset: plain.stickyOffset)
        #expect(c.stackOnly == nil)
        #expect(c == plain && c.hashValue == plain.hashValue)
    }

    /// Copies share the box and never see each other's changes (the box is never changed in
    /// place).
    @Test func aCopyDoesNotSeeTheOriginalsChanges() {
        let all = EveryRowField.config
        var a = all
        var b = a
        #expect(a.stackOnly === b.stackOnly)
        b.rowInsets = Edges(all: 1)
        b.scrollOffset = nil
        #expect(a == all && a.rowInsets == all.rowInsets && a.scrollOffset == 25)
        #expect(b.rowInsets == Edges(all: 1) && b.scrollOffset == nil && b.rowSeparator == all.rowSeparator)
        a.rowSeparator = nil
        #expect(b.rowSeparator == all.rowSeparator && a.rowSeparator == nil)
    }
}
