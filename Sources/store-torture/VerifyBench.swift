import Foundation
import Layout
import OrderStatistics
import Store

/// `store-torture verify DIR ROWS STEPS`: how long `verify` takes on a history of STEPS
/// operations (edits, scrolls, undo/redo) of a ROWS-row document with fractional sizes:
/// `verify()` (replay + compare) and `verify(replan: true)` (also re-plans every edit, as the
/// REPL's `verify` does); with `replanOnly` just the latter. The database is built once in DIR.
enum VerifyBench {
    static func run(dir: String, rows: Int, steps: Int, replanOnly: Bool = false) throws {
        let path = dir + "/verify-\(rows)-\(steps).sqlite"
        if !FileManager.default.fileExists(atPath: path) {
            var d = Document(name: "v", settings: DocumentSettings(viewport: Size(width: 390, height: 844)))
            for i in 0..<rows {
                try d.appendRow("r\(i)", config: RowConfig(size: .fixed(20 + Double(i % 97) * 1.37)), parent: nil)
            }
            var t = Bench.now()
            let doc = try DocumentStore(path: path).importDocument(d)
            print("import \(rows) rows: \(String(format: "%.2f", Bench.now() - t)) s")
            t = Bench.now()
            var rng = SplitMix64(seed: 9)
            var hidden: [String] = []
            var live = LiveLayout(doc.document) // plans scrolls in O(log n), as the REPL does
            for k in 0..<steps {
                let r = "r\(Int(rng.next() % UInt64(rows)))"
                let edit: Edit
                switch k % 10 {
                case 0, 1: edit = .set(id: r, spec: [.fixed(Double(rng.next() % 10_000) / 100)])
                case 2, 3: edit = .scroll(.to(r, [.top, .middle, .bottom, .auto][k % 4]))
                case 4: edit = .scroll(.by(Double(rng.next() % 1000) - 500.5))
                case 5:
                    edit = .hide(ids: [r])
                    hidden.append(r)
                case 6: edit = hidden.isEmpty ? .scroll(.offset(0)) : .show(ids: [hidden.removeLast()])
                case 7: edit = .move(id: r, position: .index(Int(rng.next() % UInt64(rows))), parent: nil)
                default: edit = .set(id: r, spec: [.margin(Edges(top: 0.3, left: 0, bottom: 1.1, right: 0))])
                }
                do {
                    let changes = try doc.document.plan(edit, live: live)
                    try doc.perform(edit, changes: changes)
                    _ = live.apply(changes, to: doc.document)
                } catch is StackDocError { continue } // e.g. a scroll to a hidden row
                if k % 50 == 49 {
                    _ = live.apply(try doc.undo(2).changes, to: doc.document)
                    _ = live.apply(try doc.redo(1).changes, to: doc.document)
                }
            }
            print("\(steps) operations: \(String(format: "%.1f", Bench.now() - t)) s")
        }
        let doc = try DocumentStore(path: path).open("v")
        let entries = try doc.status().logEntries
        var t = Bench.now()
        let replanned = try doc.verify(replan: true)
        print("verify(replan: true) of \(entries) log entries, \(doc.document.rowCount) rows: \(String(format: "%.2f", Bench.now() - t)) s, \(replanned.count) problems")
        guard !replanOnly else { return }
        t = Bench.now()
        let plain = try doc.verify()
        print("verify(): \(String(format: "%.2f", Bench.now() - t)) s, \(plain.count) problems")
    }
}
