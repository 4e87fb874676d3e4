import Benchmark

extension Benchmark.Configuration {
    /// The settings of the one-edit benchmarks at 1M rows: many short iterations, wall clock,
    /// CPU time and allocations.
    static func singleEdit(timeUnits: BenchmarkTimeUnits) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
            timeUnits: timeUnits,
            warmupIterations: 10,
            maxDuration: .seconds(3),
            maxIterations: 20_000)
    }
}
