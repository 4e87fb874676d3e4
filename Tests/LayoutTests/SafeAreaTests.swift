import Testing
@testable import Layout
import StackDocTestSupport

/// SPEC §2.5–§2.6, issue 33 item 3: the viewport's safe area — edges that are obscured *and*
/// extend the scroll range (UIScrollView's adjusted content inset). At offset 0 the first row
/// rests below the top bar; at the largest offset the last row ends above the bottom one.
/// `insets` keep their meaning (obscured only: the first row starts under the top bar).
@Suite("The safe area", .offThePool)
struct SafeAreaTests {
    typealias F = DocFixture

    /// Ten rows of 50 in a 100 × 200 viewport (rows 500 long), with a safe area and insets.
    func tenRows(safeArea: Edges = .zero, insets: Edges = .zero, offset: Double = 0,
                 axis: Axis = .vertical) throws -> Document {
        var s = F.bare(axis: axis, viewport: Size(width: 100, height: 200), offset: offset)
        s.safeArea = safeArea
        s.viewportInsets = insets
        return try F.make(s, (0..<10).map { F.leaf("r\($0)", .fixed(50)) })
    }

    static let phone = Edges(top: 47, left: 0, bottom: 34, right: 0)

    @Test func atOffsetZeroTheFirstRowRestsBelowTheTopBar() throws {
        let l = try tenRows(safeArea: Self.phone).layout()
        #expect(l.frame("r0") == R(0, 47, 100, 50))
        #expect(l.at("r0").visibility == .entire)
        #expect(l.contentSize == Size(width: 100, height: 547))
        #expect(l.obscured == Self.phone)
        // `insets` obscure the same edges but move nothing: the first row is under the bar.
        let covered = try tenRows(insets: Self.phone).layout()
        #expect(covered.frame("r0") == R(0, 0, 100, 50))
        #expect(covered.at("r0").visibility == .partial)
    }

    @Test func atTheLargestOffsetTheLastRowEndsAboveTheBottomInset() throws {
        let l = try tenRows(safeArea: Self.phone, offset: 1e9).layout()
        // content 547, the unobscured bottom at 200 − 34: 547 − 166.
        #expect(l.offset == 381)
        #expect(l.frame("r9")?.maxY == l.offset + 200 - 34)
        #expect(l.at("r9").visibility == .entire)
        #expect(l.at("r0").visibility == .offscreen)
    }

    @Test func eachEdgeIsTheLargerOfInsetAndSafeAreaAndTheKeyboard() {
        var s = DocumentSettings()
        s.safeArea = Edges(top: 47, left: 0, bottom: 34, right: 5)
        s.viewportInsets = Edges(top: 20, left: 10, bottom: 50, right: 0)
        #expect(s.obscured == Edges(top: 47, left: 10, bottom: 50, right: 5))
        s.keyboard = 300
        #expect(s.obscured.bottom == 300)
    }

    @Test func theCrossEdgesAreObscuredOnlyAndAHorizontalDocumentUsesTheLeftEdge() throws {
        // Vertical: left and right cover the rows' sides; nothing moves.
        let v = try tenRows(safeArea: Edges(top: 0, left: 10, bottom: 0, right: 20)).layout()
        #expect(v.frame("r0") == R(0, 0, 100, 50))
        #expect(v.at("r0").percent == 70)
        // Horizontal: the left edge is the leading one along the main axis.
        let h = try tenRows(safeArea: Edges(top: 5, left: 30, bottom: 0, right: 20), axis: .horizontal).layout()
        #expect(h.frame("r0") == R(30, 0, 50, 200))
        #expect(h.contentSize == Size(width: 530, height: 200))
        #expect(h.maxOffset == 530 - 80)
    }

    @Test func scrollTargetsAimBelowTheTopBar() throws {
        var doc = try tenRows(safeArea: Self.phone)
        try perform(.scroll(.to("r0", .top)), on: &doc)
        #expect(doc.layout().offset == 0)
        try perform(.scroll(.to("r4", .top)), on: &doc)
        #expect(doc.layout().offset == 200)              // r4 at 247, the bar's end at 47
        try perform(.scroll(.focus("r9")), on: &doc)
        #expect(doc.layout().offset == 381)
    }

    @Test func aStickyRowSticksBelowTheTopBar() throws {
        var s = F.bare(viewport: Size(width: 100, height: 200), offset: 100)
        s.safeArea = Self.phone
        let doc = try F.make(s, [F.leaf("nav", .fixed(44)).with { $0.sticky = true }]
                             + (0..<10).map { F.leaf("r\($0)", .fixed(50)) })
        let l = doc.layout()
        #expect(l.frame("nav") == R(0, 47, 100, 44))
        #expect(l.displaced["nav"].map { $0.moved(R(0, 47, 100, 44)) } == R(0, 147, 100, 44))
        #expect(l.at("nav").visibility == .entire)
    }

    @Test func theSafeAreaIsViewStateAndValidated() throws {
        var doc = try tenRows()
        try perform(.obscured(.safeArea(viewport: Size(width: 90, height: 300), safeArea: Self.phone)), on: &doc)
        #expect(doc.settings.safeArea == Self.phone)
        #expect(doc.settings.viewport == Size(width: 90, height: 300))
        #expect(Edit.obscured(.safeArea(viewport: nil, safeArea: .zero)).isViewState)
        try perform(.viewport(Size(width: 100, height: 200)), on: &doc)      // keeps the safe area
        #expect(doc.settings.safeArea == Self.phone)
        // Undo, redo and restore keep the view: the safe area is part of it.
        #expect(DocumentSettings().withView(of: doc.settings).safeArea == Self.phone)
        let e = Edit.obscured(.safeArea(viewport: nil, safeArea: Edges(top: 0, left: 0, bottom: -1, right: 0)))
        #expect(throws: StackDocError.self) { try doc.plan(e) }
        do { _ = try doc.plan(e) } catch { #expect("\(error)".contains("safeArea.bottom: must be ≥ 0")) }
        #expect(doc.settings.safeArea == Self.phone)
    }

    @Test func liveLayoutAgreesWithTheFullLayout() throws {
        var s = F.bare(viewport: Size(width: 100, height: 200))
        s.defaults.insets = Edges(top: 2, left: 3, bottom: 2, right: 3)
        let stack = F.stack("s", .vertical, (0..<4).map { F.leaf("s\($0)", .fixed(30)) })
        var doc = try F.make(s, [stack] + (0..<10).map { F.leaf("r\($0)", .fixed(50)) })
        let edits: [Edit] = [.obscured(.safeArea(viewport: nil, safeArea: Self.phone)), .scroll(.offset(1000)),
                             .obscured(.insets(viewport: nil, insets: Edges(top: 60, left: 0, bottom: 0, right: 0))),
                             .scroll(.focus("r2")), .obscured(.keyboard(120)),
                             .obscured(.safeArea(viewport: Size(width: 120, height: 300), safeArea: Edges(top: 20, left: 4, bottom: 10, right: 4))),
                             .add(ids: ["n"], spec: [.fixed(40)], position: .index(0), parent: nil),
                             .scroll(.to("s2", .middle)), .obscured(.safeArea(viewport: nil, safeArea: .zero))]
        try expectLiveLayoutFollows(edits, on: &doc)
    }
}
