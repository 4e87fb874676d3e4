import Foundation
import Layout
import Store
import Testing
import StackDocTestSupport

/// Logs written before `justify`, `align-items` and `spacing` were refused on a leaf (issue 13
/// item 20) hold edits in which such a word made a leaf a stack. They replay as logged, and
/// `verify` re-plans them under the rule they were written with instead of calling them broken.
@Suite(.offThePool) struct LegacyStackWordsTests {
    @Test func anOlderLogsStackWordOnALeafVerifiesClean() throws {
        let doc = try DocumentStore(path: ":memory:").create("legacy")
        try doc.run(Ops.add("a", at: 0))
        let edit = Edit.set(id: "a", spec: [.spacing(8)])
        #expect(throws: StackDocError.self) { try doc.document.plan(edit) }
        // What the older planner made of it: a vertical stack with spacing 8.
        let older = try RowConfig.$leafStackWords.withValue(.makeStack) { try doc.document.plan(edit) }
        #expect(older == [.updateRow(id: "a", old: RowConfig(), new: { var c = RowConfig(); c.stack = StackSettings(spacing: 8); return c }())])
        try doc.perform(edit, changes: older)
        #expect(try doc.verify(replan: true) == [])
    }

    @Test func aStackWordEntryWithOtherChangesIsStillReported() throws {
        let doc = try DocumentStore(path: ":memory:").create("legacy")
        try doc.run(Ops.add("a", at: 0))
        let edit = Edit.set(id: "a", spec: [.spacing(8)])
        // Changes no planner ever made for this edit: spacing 9.
        var nine = RowConfig(); nine.stack = StackSettings(spacing: 9)
        try doc.perform(edit, changes: [.updateRow(id: "a", old: RowConfig(), new: nine)])
        let problems = try doc.verify(replan: true)
        #expect(problems.count == 1 && problems[0].contains("no longer plans"), "\(problems)")
    }
}
