import Benchmark
import Foundation
import Layout

/// Issue 11 item 6: full layout of deep documents at growing sizes, to read the time per row.
/// A chain 32 stacks deep (every level `fit` with grow and shrink, axes alternating:
/// `DeepWorkload.chain`) with more leaves per level, and trees 8 levels deep with a growing
/// fanout (`DeepWorkload.tree`). Linear in rows means the same time per row at every size.
func deepScalingBenchmarks() {
    let config = Benchmark.Configuration(metrics: [.wallClock, .cpuTotal, .peakMemoryResident], timeUnits: .microseconds,
                                         warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 100)
    // 32 × (1 + leaves) rows: 1,024, 10,016 and 100,000.
    // Documents are built in the benchmark (not measured), not when every benchmark registers.
    for leaves in [31, 312, 3_124] {
        Benchmark("document layout chain depth 32 x \(leaves) leaves (\(32 * (1 + leaves)) rows)", configuration: config) { benchmark in
            let doc = DeepWorkload.chain(depth: 32, leaves: leaves)
            benchmark.startMeasurement()
            let layout = doc.layout()
            benchmark.stopMeasurement()
            blackHole(layout)
        }
    }
    // fanout + … + fanout⁸ rows: 510, 9,840 and 87,380.
    for fanout in [2, 4] {
        let rows = (1...8).reduce(0) { sum, level in sum + Int(pow(Double(fanout), Double(level))) }
        Benchmark("document layout tree depth 8 fanout \(fanout) (\(rows) rows)", configuration: config) { benchmark in
            let doc = DeepWorkload.tree(depth: 8, fanout: fanout)
            precondition(doc.rowCount == rows, "DeepWorkload.tree: expected \(rows) rows")
            benchmark.startMeasurement()
            let layout = doc.layout()
            benchmark.stopMeasurement()
            blackHole(layout)
        }
    }
}
