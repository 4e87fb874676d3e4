import Benchmark
import Layout

/// The flat workload as a `FlexLineIndex` (outer lengths h + 24), built once and edited in
/// place by the benchmarks; benchmarks run one at a time.
enum LineIndexWorkload {
    nonisolated(unsafe) private static var index: FlexLineIndex?
    nonisolated(unsafe) private static var rows = 0

    static func shared(rows n: Int) -> FlexLineIndex {
        if let index, rows == n { return index }
        let built = FlexLineIndex(lengths: FlatWorkload.heights(n).map { $0 + 24 })
        index = built
        rows = n
        return built
    }

    static func store(_ edited: FlexLineIndex) { index = edited }
}

/// Issue 5 engine side: one edit of a 1M-row line, then the position of the last row and the
/// rows visible in an 844-point viewport in the middle of the content.
func lineIndexBenchmarks() {
    let rows = 1_000_000
    let config = Benchmark.Configuration.singleEdit(timeUnits: .nanoseconds)

    Benchmark("line index build 1M",
              configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(5), maxIterations: 5)) { benchmark in
        let lengths = FlatWorkload.heights(rows).map { $0 + 24 }
        benchmark.startMeasurement()
        let index = FlexLineIndex(lengths: lengths)
        benchmark.stopMeasurement()
        blackHole(index.totalLength)
    }

    func edit(_ name: String, _ body: @escaping (inout FlexLineIndex, Int) -> Void) {
        Benchmark("line index \(name) 1M", configuration: config) { benchmark in
            var index = LineIndexWorkload.shared(rows: rows)
            LineIndexWorkload.store(FlexLineIndex()) // keep `index` uniquely referenced
            var iteration = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                body(&index, iteration)
                let last = index.offset(at: index.count - 1)
                let mid = index.totalLength / 2
                let visible = index.visibleItems(from: mid, to: mid + 844)
                blackHole(last)
                blackHole(visible.count)
                iteration += 1
            }
            benchmark.stopMeasurement()
            LineIndexWorkload.store(index)
        }
    }

    edit("resize middle + last offset + visible") { index, i in
        index.setLength(Double(50 + i % 20), at: index.count / 2)
    }
    edit("insert or remove at top + last offset + visible") { index, i in
        if i % 2 == 0 { index.insert(length: 68, at: 0) } else { index.remove(at: 0) }
    }
    edit("move top to middle + last offset + visible") { index, _ in
        index.move(from: 0, to: index.count / 2)
    }
    edit("hide or show middle + last offset + visible") { index, i in
        index.setHidden(i % 2 == 0, at: index.count / 2)
    }
}
