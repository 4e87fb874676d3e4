import Testing
@testable import Layout
import StackDocTestSupport

/// Stacks kept as lines of their own at every depth (docs/incremental.md "Stack lines"): which
/// stacks become lines, where a batch is applied, and that the result is the full layout's.
@Suite(.offThePool) struct StackLineTests {
    /// root → `r0`, then a chain of `depth` vertical `fit` stacks `l1` … `lN`, each with two rows
    /// of its own, the deepest holding `rows` rows `x0…`; then root rows `z0…z9`.
    func chain(depth: Int, rows: Int) throws -> Document {
        var doc = Document(name: "d", settings: DocumentSettings(viewport: Size(width: 390, height: 600)))
        try doc.appendRow("r0", config: RowConfig(size: .fixed(30)), parent: nil)
        var parent: RowID?
        for level in 1...depth {
            let id = "l\(level)"
            try doc.appendRow(id, config: RowConfig(stack: StackSettings(axis: .vertical, spacing: Double(level))), parent: parent)
            try doc.appendRow("\(id)a", config: RowConfig(size: .fixed(11)), parent: id)
            try doc.appendRow("\(id)b", config: RowConfig(size: .fixed(13)), parent: id)
            parent = id
        }
        for i in 0..<rows { try doc.appendRow("x\(i)", config: RowConfig(size: .fixed(Double(20 + i % 7))), parent: parent) }
        for i in 0..<10 { try doc.appendRow("z\(i)", config: RowConfig(size: .fixed(40)), parent: nil) }
        return doc
    }

    /// Plans `edit`, applies it to the document and the layout, and checks the layout, the
    /// index and the report against the full layout.
    @discardableResult
    func edit(_ doc: inout Document, _ live: inout LiveLayout, _ edit: Edit) throws -> (report: LayoutChangeReport, depth: Int) {
        let before = doc.layout()
        let changes = try doc.plan(edit, live: live)
        try doc.apply(changes)
        let depth = live.lineHolding(changes).count
        let report = live.apply(changes, to: doc)
        let after = doc.layout()
        #expect(live.layout() == after, "\(edit)")
        #expect(live.invariantViolation() == nil, "\(edit): \(live.invariantViolation() ?? "")")
        let full = LayoutChangeReport(before: before, after: after)
        #expect(report.changedCount == full.changedCount, "\(edit): changed \(report.changedCount) vs \(full.changedCount)")
        #expect(report.moved == full.moved, "\(edit): moved")
        #expect(report.transitions == after.transitions(from: before), "\(edit): transitions")
        #expect(report.removed == full.removed, "\(edit): removed")
        return (report, depth)
    }

    /// The number of stack lines from the root line down the chain `l1 → l2 → …`.
    func lineDepth(_ live: LiveLayout) -> Int {
        var depth = 0
        var l = live.line
        while let node = (0..<l.entries.count).first(where: { l.entries.isLine($0) && l.entries.isFilled($0) }) {
            depth += 1
            l = l.entries.stackLine(node).line
        }
        return depth
    }

    @Test(arguments: [2, 4])
    func changesDeepInsideApplyToTheDeepestLine(depth: Int) throws {
        var doc = try chain(depth: depth, rows: 300)
        var live = LiveLayout(doc, chunk: LiveLayout.defaultChunk, stackLineMinRows: 64)
        #expect(lineDepth(live) == depth)
        #expect(live.invariantViolation() == nil)
        // A resize, a hide, a show, an insert, a remove and a move among the deepest stack's rows.
        for e: Edit in [.set(id: "x150", spec: [.fixed(55)]), .hide(ids: ["x10"]), .show(ids: ["x10"]),
                        .add(ids: ["n"], spec: [.fixed(17)], position: .index(3), parent: "l\(depth)"),
                        .remove(ids: ["x200"]), .move(id: "x5", position: .index(250), parent: "l\(depth)")] {
            let (report, at) = try edit(&doc, &live, e)
            #expect(at == depth, "\(e): applied at depth \(at)")
            #expect(!report.fullRelayout)
        }
        // A row of an outer stack: applied to that stack's line.
        let (_, outer) = try edit(&doc, &live, .set(id: "l1a", spec: [.fixed(99)]))
        #expect(outer == 1)
        // A move between levels: applied to the line holding both.
        let (_, across) = try edit(&doc, &live, .move(id: "x7", position: .top, parent: "l1"))
        #expect(across == 1)
        #expect(lineDepth(live) == depth)
    }

    @Test func aStackStopsAndStartsBeingALine() throws {
        var doc = try chain(depth: 3, rows: 200)
        var live = LiveLayout(doc, chunk: LiveLayout.defaultChunk, stackLineMinRows: 64)
        #expect(lineDepth(live) == 3)
        // `fixed`: its free space is shared, so it is laid out as one subtree.
        try edit(&doc, &live, .set(id: "l3", spec: [.fixed(900)]))
        #expect(lineDepth(live) == 2)
        let (_, at) = try edit(&doc, &live, .set(id: "x3", spec: [.fixed(31)]))
        #expect(at == 2) // the entry holding `l3` in `l2`'s line is laid out again
        try edit(&doc, &live, .set(id: "l3", spec: [.fit]))
        #expect(lineDepth(live) == 3)
        // Aligned rather than stretched: its width follows its rows.
        try edit(&doc, &live, .set(id: "l2", spec: [.align(.start)]))
        #expect(lineDepth(live) == 1)
        try edit(&doc, &live, .set(id: "l2", spec: [.align(.auto)]))
        #expect(lineDepth(live) == 3)
        // `min`, hidden, shown.
        try edit(&doc, &live, .set(id: "l2", spec: [.min(10)]))
        #expect(lineDepth(live) == 1)
        try edit(&doc, &live, .set(id: "l2", spec: [.min(nil)]))
        #expect(lineDepth(live) == 3)
        try edit(&doc, &live, .hide(ids: ["l1"]))
        #expect(lineDepth(live) == 0)
        try edit(&doc, &live, .show(ids: ["l1"]))
        #expect(lineDepth(live) == 3)
        // Rows found at every depth, and hit tests inside the deepest line.
        for id in ["x0", "x199", "l3a", "l2b", "z9"] {
            #expect(live.row(id) == doc.layout().row(id), "row \(id)")
            #expect(live.position(of: id) == doc.layout().position(of: id), "position \(id)")
        }
        let x100 = try #require(live.row("x100")?.frame)
        #expect(live.hitTest(x: x100.x + x100.width / 2, y: x100.y + x100.height / 2) == "x100")
    }
}
