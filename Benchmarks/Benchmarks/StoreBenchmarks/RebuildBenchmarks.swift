import Benchmark
import Foundation
import Layout
import StackDocScript
import Store

/// Issue 15 item 8, "rebuilding a 100k-row imported document from its `log export` script
/// ≤ 2 s": the script `log export` writes right after an import of the flat 100k-row workload
/// (one `import begin … import commit` block of 100,000 `add` lines), parsed and run line by
/// line on a fresh in-memory database, as `stackdoc --db :memory: FILE` runs it (without
/// printing the results). `scripts/measure-undo`'s `rebuild-import` step is the same work as a
/// whole process.
func rebuildBenchmarks() {
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .cpuTotal, .peakMemoryResident], warmupIterations: 1,
                                                scalingFactor: .one, maxDuration: .seconds(20), maxIterations: 10)
    let script = ScriptHolder()
    Benchmark("script rebuild of an imported document from its log export, 100k rows", configuration: configuration,
              closure: { benchmark in
                  for _ in benchmark.scaledIterations {
                      let parsed = try Script(script.text)
                      let session = Session(store: try DocumentStore(path: ":memory:"))
                      for line in parsed.lines { blackHole(try session.run(line.command)) }
                      precondition(session.current?.document.rowCount == UndoWorkload.rows, "the rebuilt document has every row")
                  }
              },
              setup: {
                  let directory = FileManager.default.temporaryDirectory
                  let path = directory.appending(path: "stackdoc-rebuild-bench.sqlite").path
                  try StoreWorkload.importFlat(rows: UndoWorkload.rows, name: "rebuilt", at: path)
                  let exported = directory.appending(path: "stackdoc-rebuild-bench.sd").path
                  let session = Session(store: try DocumentStore(path: path))
                  try session.run(line: "open rebuilt")
                  try session.run(line: "log export \(exported)")
                  script.text = try String(contentsOfFile: exported, encoding: .utf8)
              })
}

/// The script a benchmark runs (read in setup).
final class ScriptHolder: @unchecked Sendable {
    var text = ""
}
