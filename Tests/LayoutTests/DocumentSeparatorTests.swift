import Testing
@testable import Layout
import StackDocTestSupport

/// SPEC §2.4: separators overlay a row's bottom (vertical parent) or trailing (horizontal parent)
/// edge, per-field overrides over live defaults, the last non-hidden row of each stack has none
/// while autoHideLastSeparator is on, and both frames must have positive width and height.
@Suite("Document layout: separators (SPEC §2.4)", .offThePool)
struct DocumentSeparatorTests {
    typealias F = DocFixture

    func threeRows(_ extra: [RowTree] = []) throws -> Document {
        try F.make([F.leaf("a", .fixed(20)), F.leaf("b", .fixed(20)), F.leaf("c", .fixed(20))] + extra)
    }

    @Test func defaultSeparatorOverlaysTheBottomEdge() throws {
        let l = try threeRows().layout()
        // Rows are 390 × 44; separator (x + 15, maxY − 1, 390 − 15, 1); it adds no size.
        #expect(l.at("a").separator == R(15, 43, 375, 1))
        #expect(l.at("b").separator == R(15, 87, 375, 1))
        #expect(l.frame("b") == R(0, 44, 390, 44))
        #expect(l.at("c").separator == nil)  // last row, autoHideLastSeparator on
    }

    @Test func autoHideOffKeepsTheLastSeparator() throws {
        var doc = try threeRows()
        doc.settings.defaults.autoHideLastSeparator = false
        #expect(doc.layout().at("c").separator == R(15, 131, 375, 1))
    }

    @Test func lastVisibleRowIsTheLastNonHiddenOne() throws {
        var doc = try threeRows()
        var c = doc.config(of: "c")!
        c.hidden = true
        try doc.updateRow("c", config: c)
        let l = doc.layout()
        #expect(l.at("a").separator != nil)
        #expect(l.at("b").separator == nil)  // now the last non-hidden row
        #expect(l.at("c").separator == nil)
    }

    /// Each stack hides the separator of its own last visible row; a stack row itself follows the
    /// rule among its siblings.
    @Test func lastVisibleRowPerStack() throws {
        let doc = try F.make(F.bare(viewport: Size(width: 100, height: 400)), [
            F.stack("S", .vertical, [
                F.leaf("s1", .fixed(10)), F.leaf("s2", .fixed(10)), F.leaf("s3", .fixed(10), hidden: true),
            ]),
            F.leaf("a", .fixed(10)),
            F.stack("T", .vertical, [F.leaf("t1", .fixed(10))]),
        ])
        var l = doc.layout()
        #expect(l.at("S").separator == R(15, 19, 85, 1))
        #expect(l.at("s1").separator == R(15, 9, 85, 1))
        #expect(l.at("s2").separator == nil)   // last non-hidden of S
        #expect(l.at("a").separator == R(15, 29, 85, 1))
        #expect(l.at("T").separator == nil)    // last of the root
        #expect(l.at("t1").separator == nil)   // last (only) of T

        var off = doc
        off.settings.defaults.autoHideLastSeparator = false
        l = off.layout()
        #expect(l.at("s2").separator == R(15, 19, 85, 1))
        #expect(l.at("T").separator == R(15, 39, 85, 1))
        #expect(l.at("t1").separator == R(15, 39, 85, 1))
        #expect(l.at("s3").separator == nil)   // hidden rows never have one
    }

    /// Per-field overrides win; every other field follows the live default, also after it changes.
    @Test func overridesOverLiveDefaults() throws {
        var doc = try F.make(F.bare(viewport: Size(width: 100, height: 400)), [
            F.leaf("plain", .fixed(10)),
            F.leaf("ins", .fixed(10), separator: SeparatorOverrides(insets: Edges(top: 0, left: 5, bottom: 0, right: 7))),
            F.leaf("thick", .fixed(10), separator: SeparatorOverrides(thickness: 3)),
            F.leaf("shown", .fixed(10), separator: SeparatorOverrides(hidden: false)),
            F.leaf("off", .fixed(10), separator: SeparatorOverrides(hidden: true)),
            F.leaf("last", .fixed(10)),
        ])
        var l = doc.layout()
        #expect(l.at("plain").separator == R(15, 9, 85, 1))
        #expect(l.at("ins").separator == R(5, 19, 88, 1))
        #expect(l.at("thick").separator == R(15, 27, 85, 3))
        #expect(l.at("shown").separator == R(15, 39, 85, 1))
        #expect(l.at("off").separator == nil)

        // Change the live default: non-overridden fields follow it.
        doc.settings.defaults.separator = SeparatorStyle(hidden: false, insets: Edges(top: 0, left: 10, bottom: 0, right: 10),
                                                         thickness: 2, color: "#000000")
        l = doc.layout()
        #expect(l.at("plain").separator == R(10, 8, 80, 2))
        #expect(l.at("ins").separator == R(5, 18, 88, 2))      // own insets, default thickness
        #expect(l.at("thick").separator == R(10, 27, 80, 3))   // own thickness, default insets
        #expect(l.at("off").separator == nil)

        // Hide by default: only the row that overrides `hidden: false` keeps one.
        doc.settings.defaults.separator.hidden = true
        l = doc.layout()
        #expect(l.rows.filter { $0.separator != nil }.map(\.id) == ["shown"])
    }

    @Test func horizontalParentUsesTheTrailingEdge() throws {
        let l = try F.make(DocumentSettings(axis: .horizontal, viewport: Size(width: 300, height: 200)), [
            F.leaf("a", .fixed(100)),
            F.leaf("b", content: Size(width: 40, height: 60), align: .end,
                   separator: SeparatorOverrides(insets: Edges(top: 4, left: 0, bottom: 6, right: 0), thickness: 2)),
            F.leaf("c", .fixed(200)),
        ]).layout()
        // (maxX − t, y + s.top, t, height − s.top − s.bottom); default insets 0,15,0,0.
        #expect(l.at("a").separator == R(129, 0, 1, 200))
        #expect(l.at("b").separator == R(198, 120, 2, 74))
        #expect(l.at("c").separator == nil)
    }

    /// Nested stacks: the parent's axis decides the edge (Chromium-checked frames, see
    /// DocumentCompileTests.nestingThreeDeepVertical).
    @Test func nestedHorizontalAndVerticalParents() throws {
        let doc = try F.threeDeepNested()
        let l = doc.layout()
        #expect(l.at("S1").separator == nil)
        #expect(l.at("x1").separator == R(54, 45, 1, 20))
        #expect(l.at("S2").separator == R(297, 5, 1, 100))
        #expect(l.at("x2").separator == nil)
        #expect(l.at("y1").separator == R(109, 59, 15, 1))
        #expect(l.at("S3").separator == nil)  // y2 after it is hidden
        #expect(l.at("z1").separator == R(263, 94, 1, 8))
        #expect(l.at("z2").separator == nil)
    }

    @Test func positiveSizeRule() throws {
        var s = F.bare(viewport: Size(width: 100, height: 400))
        s.defaults.autoHideLastSeparator = false
        let l = try F.make(s, [
            F.leaf("flat", .fixed(0)),                                                     // row height 0
            F.leaf("narrow", .fixed(10), content: Size(width: 15, height: 0), align: .start), // 15 − 15 = 0 wide
            F.leaf("thin", .fixed(10), separator: SeparatorOverrides(thickness: 0)),
            F.leaf("eaten", .fixed(10), separator: SeparatorOverrides(insets: Edges(top: 0, left: 60, bottom: 0, right: 50))),
            F.leaf("ok", .fixed(10), content: Size(width: 16, height: 0), align: .start),
        ]).layout()
        #expect(l.at("flat").separator == nil)
        #expect(l.at("narrow").separator == nil)
        #expect(l.at("thin").separator == nil)
        #expect(l.at("eaten").separator == nil)
        #expect(l.at("ok").separator == R(15, 39, 1, 1))
    }
}
