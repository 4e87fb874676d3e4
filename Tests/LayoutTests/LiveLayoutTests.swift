import Testing
@testable import Layout
import StackDocTestSupport

/// Which changes LiveLayout applies incrementally and which lay everything out (docs/incremental.md).
@Suite(.offThePool) struct LiveLayoutTests {
    func document(rows: Int, height: Double, justify: Justify = .start) throws -> Document {
        var doc = Document(name: "d", settings: DocumentSettings(viewport: Size(width: 390, height: 844), justify: justify))
        try doc.apply(try doc.plan(.add(ids: (0..<rows).map { "r\($0)" }, spec: [.fixed(height)], position: nil, parent: nil)))
        return doc
    }

    func edit(_ doc: inout Document, _ live: inout LiveLayout, _ edit: Edit) throws -> LayoutChangeReport {
        let changes = try doc.plan(edit, live: live)
        try doc.apply(changes)
        let report = live.apply(changes, to: doc)
        #expect(live.layout() == doc.layout(), "\(edit)")
        return report
    }

    /// The build lays out one leaf root row per distinct (style, size, content, hidden) and
    /// reuses its frame for the others: leaves sharing a size but not a style, content, hidden
    /// flag, margin or min/max, mixed with stacks (empty and not), in slices of every size.
    @Test func leavesSharingALayoutBuildAsTheFullLayout() throws {
        var doc = Document(name: "d", settings: DocumentSettings(viewport: Size(width: 390, height: 300), spacing: 3))
        let configs: [RowConfig] = [
            RowConfig(size: .fixed(20)), RowConfig(size: .fixed(30)), RowConfig(size: .fixed(20), hidden: true),
            RowConfig(size: .fixed(20), margin: Edges(top: 2, left: 5, bottom: 1, right: 0)),
            RowConfig(type: "label", size: .fit, content: Size(width: 50, height: 17)),
            RowConfig(size: .fit, content: Size(width: 50, height: 18)),
            RowConfig(size: .fixed(20), alignSelf: .center, maxMain: 15, maxCross: 100),
            RowConfig(size: .fixed(40), stack: StackSettings(axis: .horizontal)),
        ]
        for i in 0..<300 {
            try doc.appendRow("r\(i)", config: configs[(i * 7 + i / 13) % configs.count], parent: nil)
            if i % 41 == 0 {
                try doc.appendRow("s\(i)", config: RowConfig(stack: StackSettings(axis: .vertical)), parent: nil)
                try doc.appendRow("c\(i)", config: configs[i % 4], parent: "s\(i)")
            }
        }
        let expected = doc.layout()
        for chunk in [1, 2, 5, 64, LiveLayout.defaultChunk] {
            let live = LiveLayout(doc, chunk: chunk)
            #expect(live.isIncremental)
            #expect(live.layout() == expected, "built in slices of \(chunk)")
            #expect(live.line.invariantViolation() == nil)
        }
    }

    @Test func rootLineInvariantCheckerFindsBrokenRules() throws {
        var doc = try document(rows: 50, height: 40)
        var live = LiveLayout(doc)
        _ = try edit(&doc, &live, .remove(ids: ["r3"]))
        _ = try edit(&doc, &live, .move(id: "r7", position: .top, parent: nil))
        #expect(live.line.invariantViolation() == nil)
        let line = live.line
        let node = line.node(at: 10)
        // An entry changed without telling the tree: its ancestors' totals are stale.
        var broken = line
        broken.contribution[Int(node)] += 1
        #expect(broken.invariantViolation()?.contains("stale total") == true)
        broken = line
        broken.touched[Int(node)] = true
        broken.elementChanged(node)
        #expect(broken.invariantViolation()?.contains("still touched") == true)
        broken = line
        broken.contribution.removeLast()
        #expect(broken.invariantViolation()?.contains("contributions") == true)
        // A freed entry that keeps its row.
        broken = line
        let detached = broken.detach(at: 0)
        broken.release(detached)
        #expect(broken.invariantViolation() == nil)
        broken.touched[Int(detached)] = true
        #expect(broken.invariantViolation()?.contains("free node") == true)
    }

    @Test func longDocumentsStayIncrementalEvenWithJustifyAndGrow() throws {
        var doc = try document(rows: 100, height: 40, justify: .center)
        var live = LiveLayout(doc)
        #expect(live.isIncremental)
        #expect(try !edit(&doc, &live, .set(id: "r50", spec: [.grow(1)])).fullRelayout)
        #expect(try !edit(&doc, &live, .add(ids: ["x"], spec: [.fixed(10)], position: .top, parent: nil)).fullRelayout)
        #expect(try !edit(&doc, &live, .viewport(Size(width: 390, height: 500))).fullRelayout)
        // The cross size changes every row: a full relayout.
        #expect(try edit(&doc, &live, .viewport(Size(width: 300, height: 500))).fullRelayout)
        #expect(try edit(&doc, &live, .defaults(.autoHide(false))).fullRelayout)
    }

    @Test func shortDocumentsWithJustifyFallBack() throws {
        var doc = try document(rows: 3, height: 40, justify: .center)
        var live = LiveLayout(doc)
        #expect(!live.isIncremental)
        #expect(try edit(&doc, &live, .set(id: "r1", spec: [.fixed(50)])).fullRelayout)
        // Long enough: the free space is gone and updates become incremental again.
        _ = try edit(&doc, &live, .add(ids: (0..<40).map { "n\($0)" }, spec: [.fixed(40)], position: nil, parent: nil))
        #expect(live.isIncremental)
        #expect(try !edit(&doc, &live, .set(id: "r1", spec: [.fixed(60)])).fullRelayout)
        // Removing rows until the content is shorter than the viewport falls back again.
        #expect(try edit(&doc, &live, .remove(ids: (0..<40).map { "n\($0)" })).fullRelayout)
    }

    @Test func lastRowSeparatorFollowsTheLastShownRow() throws {
        var doc = try document(rows: 3, height: 40)
        var live = LiveLayout(doc)
        #expect(live.row("r2")?.separator == nil)
        #expect(live.row("r1")?.separator != nil)
        _ = try edit(&doc, &live, .hide(ids: ["r2"]))
        #expect(live.row("r1")?.separator == nil)
        _ = try edit(&doc, &live, .add(ids: ["z"], spec: [.fixed(10)], position: .bottom, parent: nil))
        #expect(live.row("r1")?.separator != nil)
        #expect(live.row("z")?.separator == nil)
    }

    @Test func nestedChangesRelayOnlyTheirRootRow() throws {
        var doc = try document(rows: 30, height: 40)
        var live = LiveLayout(doc)
        let report = try edit(&doc, &live, .add(ids: ["s"], spec: [.stack(.horizontal)], position: .index(1), parent: nil))
        #expect(!report.fullRelayout)
        let inner = try edit(&doc, &live, .add(ids: ["a", "b"], spec: [.content(Size(width: 50, height: 70))], position: nil, parent: "s"))
        #expect(!inner.fullRelayout)
        #expect(inner.changedCount == 3 + 29)   // a, b, s grows, and r1…r29 below it move
        #expect(live.row("b")?.frame == doc.layout().row("b")?.frame)
    }
}
