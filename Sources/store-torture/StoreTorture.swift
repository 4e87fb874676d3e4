// A writer process for StoreTests only (crash and concurrency tests); not part of the product.
//
//   store-torture crash DB DOC SEED   create DOC, then perform random actions until killed,
//                                     printing "b K" before and "d K" after action K commits
//   store-torture imports DB ROWS     import documents i1, i2, … of ROWS rows until killed
//   store-torture race DB DOC PREFIX N
//                                     add rows PREFIX0…PREFIX(N-1) at the bottom of DOC,
//                                     reloading and retrying on stale-version errors; prints
//                                     "stale S" (how many retries) at the end
import Foundation
import Layout
import Store
import StoreTestSupport

@main
enum StoreTorture {
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("store-torture: \(message)\n".utf8))
        exit(3)
    }

    static func main() {
        let args = Array(CommandLine.arguments.dropFirst())
        do {
            switch args.first {
            case "crash" where args.count == 4:
                guard let seed = UInt64(args[3]) else { fail("bad seed") }
                let store = try DocumentStore(path: args[1])
                let handle = try store.create(args[2])
                var rng = SplitMix64(seed: seed)
                var k = 0
                while true {
                    k += 1
                    let action = RandomOps.action(for: handle, rng: &rng)
                    say("b \(k)")
                    do { try action.run(on: handle) } catch { fail("action \(k) (\(action)): \(error)") }
                    say("d \(k)")
                }
            case "imports" where args.count == 3:
                // Imports documents i1, i2, … of ROWS rows (a nested stack each) until killed.
                guard let rows = Int(args[2]) else { fail("bad row count") }
                let store = try DocumentStore(path: args[1])
                var k = 0
                while true {
                    k += 1
                    var d = Document(name: "i\(k)")
                    try d.appendRow("s", config: RowConfig(stack: StackSettings()), parent: nil)
                    for i in 0..<rows { try d.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(i % 40))), parent: i % 5 == 0 ? "s" : nil) }
                    say("b \(k)")
                    try store.importDocument(d)
                    say("d \(k)")
                }
            case "race" where args.count == 5:
                guard let n = Int(args[4]) else { fail("bad count") }
                let store = try DocumentStore(path: args[1])
                let handle = try store.open(args[2])
                var stale = 0
                for i in 0..<n {
                    let id = "\(args[3])\(i)"
                    while true {
                        let index = handle.document.children(of: nil).count
                        do {
                            try handle.perform(.add(ids: [id], spec: [], position: .bottom, parent: nil),
                                               changes: [.insertRow(id: id, config: RowConfig(), parent: nil, index: index)])
                            break
                        } catch {
                            guard try handle.isStale() else { throw error }
                            stale += 1
                            try handle.reload()
                        }
                    }
                }
                say("stale \(stale)")
            case "open" where args.count == 3:
                let t = Date.timeIntervalSinceReferenceDate
                let doc = try DocumentStore(path: args[1]).open(args[2])
                say("open \(doc.document.rowCount) rows: \(Date.timeIntervalSinceReferenceDate - t) s, RSS \(Bench.rssMB()) MB")
            case "insert" where args.count == 3:
                try InsertBench.run(dir: args[1], rows: Int(args[2]) ?? 100_000)
            case "scan" where args.count == 2:
                try ScanBench.run(path: args[1])
            case "verify" where args.count == 4 || (args.count == 5 && args[4] == "replan"):
                try VerifyBench.run(dir: args[1], rows: Int(args[2]) ?? 1000, steps: Int(args[3]) ?? 100_000,
                                    replanOnly: args.count == 5)
            case "bench" where args.count == 3:
                try Bench.run(dir: args[1], rows: Int(args[2]) ?? 100_000)
            default:
                fail("usage: store-torture crash DB DOC SEED | race DB DOC PREFIX N | verify DIR ROWS STEPS [replan] | bench DIR ROWS")
            }
        } catch {
            fail("\(error)")
        }
    }
}
