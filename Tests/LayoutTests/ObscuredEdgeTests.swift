import Testing
@testable import Layout
import StackDocTestSupport

/// SPEC §2.5–§2.6, issue 14 item 5: the viewport's obscured edges (insets, the keyboard).
/// Visibility uses the unobscured rectangle, scroll targets and `focus` aim at it, the clamp
/// lets the content's end scroll up to its bottom edge.
@Suite("Obscured edges and the keyboard", .offThePool)
struct ObscuredEdgeTests {
    typealias F = DocFixture

    /// Ten rows of 50 in a 100 × 200 viewport (content 500), with obscured edges.
    func tenRows(insets: Edges = .zero, keyboard: Double = 0, offset: Double = 0,
                 axis: Axis = .vertical) throws -> Document {
        var s = F.bare(axis: axis, viewport: Size(width: 100, height: 200), offset: offset)
        s.viewportInsets = insets
        s.keyboard = keyboard
        return try F.make(s, (0..<10).map { F.leaf("r\($0)", .fixed(50)) })
    }

    @Test func theBottomEdgeIsTheLargerOfInsetAndKeyboard() {
        var s = DocumentSettings()
        s.viewportInsets = Edges(top: 47, left: 1, bottom: 34, right: 2)
        #expect(s.obscured == Edges(top: 47, left: 1, bottom: 34, right: 2))
        s.keyboard = 300
        #expect(s.obscured == Edges(top: 47, left: 1, bottom: 300, right: 2))
        s.keyboard = 10
        #expect(s.obscured.bottom == 34)
    }

    @Test func visibilityUsesTheUnobscuredRectangle() throws {
        let l = try tenRows(insets: Edges(top: 20, left: 0, bottom: 0, right: 0), keyboard: 100).layout()
        #expect(l.unobscuredRect == Rect(x: 0, y: 20, width: 100, height: 80))
        #expect(l.at("r0").visibility == .partial)          // 0…50, the top 20 covered
        #expect(l.at("r0").percent == 60)
        #expect(l.at("r1").visibility == .entire)           // 50…100
        #expect(l.at("r2").visibility == .offscreen)        // 100…150: under the keyboard
        // Nothing obscured: the whole viewport, as before.
        let plain = try tenRows().layout()
        #expect(plain.unobscuredRect == Rect(x: 0, y: 0, width: 100, height: 200))
        #expect(plain.at("r3").visibility == .entire)
    }

    @Test func theClampLetsTheContentScrollPastTheKeyboard() throws {
        #expect(try tenRows().layout().maxOffset == 300)
        #expect(try tenRows(keyboard: 120).layout().maxOffset == 420)   // the end can reach the keyboard's top
        #expect(try tenRows(insets: Edges(top: 50, left: 0, bottom: 0, right: 0)).layout().maxOffset == 300)
        let end = try tenRows(keyboard: 120, offset: 1e9).layout()
        #expect(end.offset == 420)
        #expect(end.at("r9").visibility == .entire)    // 450…500 inside 420…500
    }

    @Test func aKeyboardTallerThanTheViewportLeavesAnEmptyRectangle() throws {
        let l = try tenRows(insets: Edges(top: 30, left: 0, bottom: 0, right: 0), keyboard: 500, offset: 100).layout()
        #expect(l.unobscuredRect == Rect(x: 0, y: 130, width: 100, height: 0))
        #expect(l.rows.allSatisfy { $0.visibility == .offscreen })
        #expect(l.maxOffset == 470)                      // content 500 − the unobscured top 30
        // `focus` and `scroll to` still land on a defined offset: the row's top at the unobscured top.
        #expect(try l.scrollOffset(to: "r5", .auto) == 220)
        #expect(try l.scrollOffset(to: "r5", .bottom) == 270)
    }

    @Test func insetsSummingPastTheViewportAreClampedNotNegative() throws {
        let l = try tenRows(insets: Edges(top: 150, left: 80, bottom: 150, right: 80)).layout()
        let u = l.unobscuredRect
        #expect(u == Rect(x: 80, y: 150, width: 0, height: 0))
        #expect(u.width >= 0 && u.height >= 0)
        #expect(l.rows.allSatisfy { $0.visibility == .offscreen })
        let huge = try tenRows(insets: Edges(top: 1e9, left: 0, bottom: 1e9, right: 0)).layout()
        #expect(huge.unobscuredRect.minY == 200 && huge.unobscuredRect.height == 0)
        #expect(huge.maxOffset == 300)
    }

    @Test func scrollTargetsAimAtTheUnobscuredPart() throws {
        // Unobscured 20…100 of the viewport (top bar 20, keyboard 100).
        let l = try tenRows(insets: Edges(top: 20, left: 0, bottom: 0, right: 0), keyboard: 100).layout()
        #expect(try l.scrollOffset(to: "r4", .top) == 180)      // 200 − 20
        #expect(try l.scrollOffset(to: "r4", .bottom) == 150)   // 250 − 100
        #expect(try l.scrollOffset(to: "r4", .middle) == 165)   // 225 − 60
        #expect(try l.scrollOffset(to: "r4", .auto) == 150)     // below: its bottom at the keyboard
        #expect(try l.scrollOffset(to: "r1", .auto) == 0)       // already inside: stays
        #expect(try l.scrollOffset(to: "r0", .auto) == 0)       // above (under the bar): top, clamped
    }

    @Test func focusIsTheAutoRuleAndAvoidsTheKeyboard() throws {
        var doc = try tenRows()
        try perform(.obscured(.keyboard(120)), on: &doc)
        // r3 (150…200) lies under the keyboard (80…200): focus brings its bottom to 80.
        try perform(.scroll(.focus("r3")), on: &doc)
        #expect(doc.settings.offset == 120)
        #expect(doc.layout().at("r3").visibility == .entire)
        // Focusing it again changes nothing.
        #expect(try doc.plan(.scroll(.focus("r3"))).isEmpty)
        // A row longer than the unobscured part: its top at the unobscured top.
        try perform(.obscured(.keyboard(170)), on: &doc)
        try perform(.scroll(.focus("r9")), on: &doc)
        #expect(doc.settings.offset == 450)
        #expect(throws: StackDocError.self) { try doc.plan(.scroll(.focus("nope"))) }
    }

    @Test func horizontalDocumentsUseLeftAndRightAlongTheMainAxis() throws {
        let l = try tenRows(insets: Edges(top: 10, left: 20, bottom: 0, right: 30), keyboard: 50, axis: .horizontal).layout()
        #expect(l.unobscuredRect == Rect(x: 20, y: 10, width: 50, height: 140))
        #expect(l.maxOffset == 430)      // content 500 − (100 − 30)
        #expect(try l.scrollOffset(to: "r2", .top) == 80)
        #expect(l.at("r0").visibility == .partial)
    }

    @Test func obscuredEdgesAreViewStateAndValidated() throws {
        var doc = try tenRows()
        #expect(Edit.obscured(.keyboard(3)).isViewState)
        #expect(Edit.obscured(.insets(viewport: nil, insets: .zero)).isViewState)
        try perform(.obscured(.insets(viewport: Size(width: 90, height: 300), insets: Edges(top: 1, left: 2, bottom: 3, right: 4))), on: &doc)
        #expect(doc.settings.viewport == Size(width: 90, height: 300))
        #expect(doc.settings.viewportInsets == Edges(top: 1, left: 2, bottom: 3, right: 4))
        try perform(.viewport(Size(width: 100, height: 200)), on: &doc)      // keeps the insets
        #expect(doc.settings.viewportInsets == Edges(top: 1, left: 2, bottom: 3, right: 4))
        try perform(.obscured(.keyboard(200)), on: &doc)
        #expect(doc.settings.keyboard == 200)
        try perform(.obscured(.keyboard(nil)), on: &doc)
        #expect(doc.settings.keyboard == 0)
        func message(_ e: Edit) -> String? {
            do { _ = try doc.plan(e); return nil } catch { return "\(error)" }
        }
        #expect(message(.obscured(.keyboard(-1)))?.contains("keyboard: must be ≥ 0") == true)
        #expect(message(.obscured(.keyboard(.nan)))?.contains("keyboard: must be a finite number") == true)
        #expect(message(.obscured(.insets(viewport: nil, insets: Edges(top: 0, left: -1, bottom: 0, right: 0))))?
            .contains("viewportInsets.left: must be ≥ 0") == true)
        #expect(message(.obscured(.insets(viewport: Size(width: -1, height: 1), insets: .zero)))?
            .contains("viewport.width") == true)
    }

    @Test func liveLayoutAgreesWithTheFullLayout() throws {
        var doc = try tenRows()
        let edits: [Edit] = [.obscured(.keyboard(120)), .scroll(.offset(1000)), .scroll(.focus("r2")),
                             .obscured(.insets(viewport: nil, insets: Edges(top: 40, left: 5, bottom: 30, right: 5))),
                             .scroll(.to("r6", .middle)), .obscured(.keyboard(nil)), .scroll(.by(500)),
                             .obscured(.keyboard(900)), .scroll(.focus("r9"))]
        try expectLiveLayoutFollows(edits, on: &doc, incrementally: true)
    }
}
