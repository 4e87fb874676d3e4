import Benchmark
import Layout

/// Benchmarks on the flat workload of peer_bench.py (see FlatWorkload), at 10k, 100k and 1M
/// rows: the engine (building the tree; one full layout of a built tree) and the document
/// (`Document.layout()` of a built document: compile onto the engine, layout, frames,
/// separators, visibility).
let benchmarks: @Sendable () -> Void = {
    let sizes = [10_000, 100_000, 1_000_000]
    for rows in sizes {
        let config = Benchmark.Configuration(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
            warmupIterations: 1,
            maxDuration: .seconds(5),
            maxIterations: rows >= 1_000_000 ? 10 : 50)
        let label = rows >= 1_000_000 ? "\(rows / 1_000_000)M" : "\(rows / 1000)k"

        Benchmark("engine build flat \(label)", configuration: config) { benchmark in
            let heights = FlatWorkload.heights(rows)
            benchmark.startMeasurement()
            let tree = FlatWorkload.tree(heights: heights)
            benchmark.stopMeasurement()
            blackHole(tree)
        }

        Benchmark("engine layout flat \(label)", configuration: config) { benchmark in
            var tree = FlatWorkload.tree(heights: FlatWorkload.heights(rows))
            benchmark.startMeasurement()
            tree.computeLayout(root: 0, availableWidth: nil, availableHeight: nil)
            benchmark.stopMeasurement()
            blackHole(tree.frame(of: rows))
        }

        Benchmark("document layout flat \(label)", configuration: config) { benchmark in
            let doc = DocumentWorkload.cached(rows: rows)
            benchmark.startMeasurement()
            let layout = doc.layout()
            benchmark.stopMeasurement()
            blackHole(layout)
        }
    }

    Benchmark("engine layout nested 1M (10k stacks x 33 cells x 2 rows)",
              configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
                                   warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 10)) { benchmark in
        var tree = NestedWorkload.tree(stacks: 10_000, rowsPerStack: 33)
        benchmark.startMeasurement()
        tree.computeLayout(root: 0, availableWidth: nil, availableHeight: nil)
        benchmark.stopMeasurement()
        blackHole(tree.frame(of: tree.nodeCount - 1))
    }

    liveLayoutBenchmarks()
    documentStorageBenchmarks()
    deepNestingBenchmarks()
    nestedLiveBenchmarks()
    nestedHitBenchmarks()
    hitBenchmarks()
    deepScalingBenchmarks()
}
