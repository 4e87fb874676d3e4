import Testing
import OrderStatistics
@testable import Layout
import StackDocTestSupport

@Suite("Edit planning: random sequences", .longRunning)
struct PlanPropertyTests {
    @Test(arguments: [1, 2, 3, 42, 1234] as [UInt64])
    func planAppliesAndInverseRestores(seed: UInt64) throws {
        var gen = RandomEdits(rng: SplitMix64(seed: seed))
        var doc = Document(name: "d")
        var planned = 0, refused = 0
        for _ in 0..<1500 {
            let edit = gen.edit()
            let before = doc
            let changes: [Change]
            do {
                changes = try doc.plan(edit)
            } catch let error as StackDocError {
                #expect(!error.message.isEmpty)
                refused += 1
                continue
            }
            planned += 1
            try doc.apply(changes)  // a plan always fits the document it was made for
            if changes.isEmpty { #expect(doc == before) }
            var undone = doc
            try undone.apply(changes.inverse)
            #expect(undone == before, "seed \(seed): inverse of \(edit) does not restore")
            try checkInvariants(doc)
        }
        #expect(planned > 300 && refused > 100, "planned \(planned), refused \(refused)")
    }

    /// Every stored value is valid: ids, depth, non-negative finite lengths, upper-case colours.
    func checkInvariants(_ doc: Document) throws {
        var depth: [RowID: Int] = [:]
        doc.forEachRow { id, parent, _, config in
            let d = (parent.flatMap { depth[$0] } ?? 0) + 1
            depth[id] = d
            #expect(d <= DocumentLimits.maxDepth)
            #expect(Validation.isValidRowID(id))
            if case let .fixed(n) = config.size { #expect(n >= 0 && n.isFinite) }
            for v in [config.grow, config.shrink, config.content.width, config.content.height,
                      config.margin.top, config.insets?.left ?? 0, config.separator.thickness ?? 0, config.stack?.spacing ?? 0] {
                #expect(v >= 0 && v.isFinite && v.sign == .plus)
            }
            if let c = config.separator.color { #expect(c == c.uppercased()) }
            if config.stack == nil { #expect(doc.children(of: id).isEmpty) }
        }
        #expect(depth.count == doc.rowCount)
    }
}
