import Testing
import OrderStatistics
@testable import Layout
import StackDocTestSupport

/// Issue 9 item 4: layout positions are a function of the document, whatever path computed
/// them. The incremental `LiveLayout` (treap sums, rows laid out on their own) and the full
/// `Document.layout()` (the engine's sequential sums) must agree bit for bit, also for
/// fractional lengths, so that everything planned from a layout (scroll targets, clamped
/// offsets) is the same in a long-running process and after a restart (docs/layout.md,
/// "Determinism").
@Suite("Layout determinism: live and full layouts agree bit for bit", .longRunning)
struct LayoutDeterminismTests {
    /// Lengths that are not binary fractions, so that sums in different orders round differently.
    static let fractional: [Double] = [0, 0.1, 0.7, 10.01, 17.77, 20.3, 33.3, 44.444, 62.244, 99.99, 1.0 / 3, 250.123]

    @Test(arguments: [(21, false), (22, true), (23, false), (24, true), (25, true), (26, false)] as [(UInt64, Bool)])
    func randomFractionalEditsAgreeBitForBit(seed: UInt64, nested: Bool) throws {
        var gen = DocumentEdits(rng: SplitMix64(seed: seed), nested: nested, lengths: Self.fractional)
        var settings = DocumentSettings(viewport: Size(width: 390.3, height: 600.7))
        settings.spacing = 0.3
        settings.padding = Edges(top: 1.1, left: 2.2, bottom: 3.3, right: 4.4)
        var doc = Document(name: "d", settings: settings)
        let initial = Int.random(in: 0...40, using: &gen.rng)
        let ids = (0..<initial).map { "i\($0)" }
        try doc.apply(try doc.plan(.add(ids: ids, spec: [.fixed(20.3), .margin(Edges(top: 0.1, left: 0, bottom: 0.7, right: 0))],
                                        position: nil, parent: nil)))
        var live = LiveLayout(doc)
        var mismatches = 0
        for step in 0..<300 {
            let edit = gen.edit(for: doc)
            let changes: [Change]
            do { changes = try doc.plan(edit, live: live) } catch is StackDocError { continue }
            #expect(changes == (try doc.plan(edit)), "seed \(seed) step \(step) \(edit): planned with the live layout")
            try doc.apply(changes)
            _ = live.apply(changes, to: doc)
            let full = doc.layout()
            let got = live.layout()
            if got != full {
                mismatches += 1
                let diff = zip(got.rows, full.rows).first { $0 != $1 }
                Issue.record("seed \(seed) step \(step) \(edit): live \(diff.map { "\($0.0)" } ?? "\(got.contentSize)") vs full \(diff.map { "\($0.1)" } ?? "\(full.contentSize)")")
                if mismatches > 3 { return }
            }
            // A restart builds its LiveLayout from the document: the same layout again.
            if step % 50 == 49 { #expect(LiveLayout(doc).layout() == got, "seed \(seed) step \(step): restart") }
            // Every scroll target is the same from the long-lived, the restarted and the full layout.
            if step % 10 == 0, let probe = full.rows.randomElement(using: &gen.rng), probe.frame != nil {
                for position in [ScrollPosition.top, .middle, .bottom, .auto] {
                    let edit = Edit.scroll(.to(probe.id, position))
                    let long = try doc.plan(edit, live: live)
                    #expect(long == (try doc.plan(edit)), "seed \(seed) step \(step): scroll to \(probe.id) \(position)")
                    #expect(long == (try doc.plan(edit, live: LiveLayout(doc))), "seed \(seed) step \(step): after a restart")
                }
            }
        }
    }

    /// The issue's case: fractional sizes edited in one long process, then `scroll to r1 top`;
    /// a restart (a new LiveLayout from the stored document) must plan the same offset.
    @Test func scrollAfterFractionalEditsIsTheSameAfterARestart() throws {
        var settings = DocumentSettings(viewport: Size(width: 390, height: 100))
        settings.spacing = 0.3
        settings.padding = Edges(top: 1.1, left: 0, bottom: 0, right: 0)
        var doc = Document(name: "d", settings: settings)
        try doc.apply(try doc.plan(.add(ids: (0..<8).map { "r\($0)" }, spec: [.fixed(20.3)], position: nil, parent: nil)))
        var live = LiveLayout(doc)
        var differing: [String] = []
        for (k, size) in [62.244, 17.77, 0.1, 33.3, 44.444, 10.01, 99.99, 0.7].enumerated() {
            let changes = try doc.plan(.set(id: "r0", spec: [.fixed(size), .margin(Edges(top: 0.1 * Double(k), left: 0, bottom: 0.7, right: 0))]), live: live)
            try doc.apply(changes)
            _ = live.apply(changes, to: doc)
            for target in (1..<8).map({ "r\($0)" }) {
                let edit = Edit.scroll(.to(target, .top))
                let longProcess = try doc.plan(edit, live: live)
                let restarted = try doc.plan(edit, live: LiveLayout(doc))
                let full = try doc.plan(edit)
                if longProcess != restarted || longProcess != full {
                    differing.append("after set r0 fixed \(size): scroll to \(target) top plans \(longProcess) in the long process, \(restarted) after a restart")
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(3))")
    }
}
