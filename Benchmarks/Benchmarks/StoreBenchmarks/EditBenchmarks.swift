import Benchmark
import Foundation
import Layout
import Store

/// The single-row write path: one `set` of a random row to a new size, committed, on a stored
/// 1M-row document opened once in setup (the shared `StoreWorkload` database; its first write,
/// which may check the file, is a warm-up iteration). Wall clock and instructions per edit +
/// commit: the instruction count is what to compare on a loaded machine.
func editBenchmarks() {
    let rows = 1_000_000
    let holder = DocumentHolder()
    Benchmark("store edit+commit, set a random row, 1M rows",
              configuration: .init(metrics: [.wallClock, .instructions, .cpuTotal, .throughput],
                                   warmupIterations: 10, scalingFactor: .one,
                                   maxDuration: .seconds(10), maxIterations: 2000),
              closure: { _ in
                  guard let document = holder.document else { return }
                  holder.counter += 1
                  // A size no row has yet (each iteration its own): the edit always changes the row.
                  let size = Double(100 + holder.counter % 100_000) + 0.25
                  try document.perform(.set(id: "r\(Int.random(in: 0..<rows))", spec: [.fixed(size)]))
              },
              setup: {
                  holder.document = try DocumentStore(path: try StoreWorkload.databasePath(rows: rows)).open("bench")
              },
              teardown: { holder.document = nil })
}
