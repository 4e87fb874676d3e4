import Testing
import Layout
import OrderStatistics
import Store
import StackDocTestSupport
@testable import repl
@testable import StackDocScript

/// The session keeps a LiveLayout instead of laying out after every command: on random edit
/// sequences its summaries, `layout --visible`, `layout --range`, `visible` and `draw` must print
/// exactly what they print from a fresh full layout.
@Suite(.offThePool) struct LiveSessionTests {
    func randomEdit(_ rng: inout SplitMix64, _ doc: Document, _ fresh: inout Int) -> Edit {
        var ids: [RowID] = []
        var stacks: [RowID] = []
        doc.forEachRow { id, _, _, c in
            ids.append(id)
            if c.stack != nil { stacks.append(id) }
        }
        func any() -> RowID { ids.isEmpty ? "none" : ids[rng.int(0..<ids.count)] }
        func parent() -> RowID? { stacks.isEmpty || rng.int(0..<3) > 0 ? nil : stacks[rng.int(0..<stacks.count)] }
        let lengths: [Double] = [0, 20, 44, 100, 300]
        switch rng.int(0..<12) {
        case 0, 1, 2:
            fresh += 1
            var spec: [RowSpecItem] = [.fixed(lengths[rng.int(0..<lengths.count)])]
            if rng.int(0..<4) == 0 { spec.append(.stack(rng.int(0..<2) == 0 ? .vertical : .horizontal)) }
            let p = parent()
            return .add(ids: ["n\(fresh)"], spec: spec, position: rng.int(0..<2) == 0 ? .top : nil, parent: p)
        case 3: return .remove(ids: [any()])
        case 4: return .move(id: any(), position: .index(rng.int(0..<3)), parent: parent())
        case 5: return .hide(ids: [any()])
        case 6: return .show(ids: [any()])
        case 7: return .set(id: any(), spec: [.fixed(lengths[rng.int(0..<lengths.count)])])
        case 8: return .scroll(.by(Double(rng.int(0..<900)) - 300))
        case 9: return .scroll(.to(any(), .middle))
        case 10: return .viewport(Size(width: 390, height: [200, 844][rng.int(0..<2)]))
        default: return .setStack(.justify(rng.int(0..<3) == 0 ? .center : .start))
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func outputsMatchTheFullLayout(seed: UInt64) throws {
        let store = try DocumentStore(path: ":memory:")
        let session = Session(store: store)
        _ = try session.run(.new(name: "d", axis: nil, viewport: Size(width: 390, height: 400)))
        var rng = SplitMix64(seed: seed)
        var fresh = 0
        var previous = try session.open().document.layout()
        var performed = 0
        for step in 0..<250 {
            let edit = randomEdit(&rng, try session.open().document, &fresh)
            guard let outcome = try? session.run(.edit(edit)) else { continue }
            performed += 1
            let full = try session.open().document.layout()
            let context = "seed \(seed) step \(step) \(Printer.text(edit))"
            let expected = ChangeReport(before: previous, after: full)
            #expect(Array(outcome.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()).map(String.init)
                    == expected.textLines, "\(context)")
            #expect(outcome.events == expected.transitions, "\(context)")

            let visible = full.rows.filter { $0.visibility == .entire || $0.visibility == .partial }
            #expect(try session.run(.layout(LayoutSelection(visibleOnly: true))).text
                    == LayoutOutput.table(full, rows: visible), "\(context): layout --visible")
            let n = full.rows.count
            if n > 2 {
                let range = (n / 3)...(n - 2)
                #expect(try session.run(.layout(LayoutSelection(range: range))).text
                        == LayoutOutput.table(full, rows: Array(full.rows[range])), "\(context): layout --range")
            }
            #expect(try session.drawing() == (try Drawing.lines(full)), "\(context): draw")
            #expect(try session.liveLayout().layout() == full, "\(context): live layout")
            previous = full
        }
        #expect(performed > 150, "seed \(seed): only \(performed) edits succeeded")
        #expect(previous.rows.count > 10, "seed \(seed): the document stayed small")
    }
}
