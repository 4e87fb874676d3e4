import Benchmark
import Layout

/// The flat document and its live layout of the last size asked for, kept between iterations.
enum HitWorkload {
    nonisolated(unsafe) static var small: (doc: Document, live: LiveLayout)?
    /// How many points were asked so far (the next point follows on), and how many hit a row.
    nonisolated(unsafe) static var point = 0
    nonisolated(unsafe) static var found = 0

    static func take(rows: Int) -> (Document, LiveLayout) {
        if rows == 1_000_000 { return LiveWorkload.take(rows: rows) }
        if let s = small, s.doc.rowCount == rows { return s }
        let doc = DocumentWorkload.document(rows: rows)
        return (doc, LiveLayout(doc))
    }

    static func put(_ doc: Document, _ live: LiveLayout) {
        if doc.rowCount >= 1_000_000 - 1 { LiveWorkload.put(doc, live) } else { small = (doc, live) }
    }
}

/// Issue 11 item 4: `hit X Y` is a point query on the live layout (O(log n)): one
/// `LiveLayout.hitTest` at a point spread over the whole content, on the flat workload at
/// 10k, 100k and 1M rows (the time must not grow with the rows beyond the tree's depth).
func hitBenchmarks() {
    let config = Benchmark.Configuration.singleEdit(timeUnits: .microseconds)
    for rows in [10_000, 100_000, 1_000_000] {
        let label = rows >= 1_000_000 ? "\(rows / 1_000_000)M" : "\(rows / 1000)k"
        Benchmark("live hit X Y \(label)", configuration: config) { benchmark in
            // Built once per size (the 1M one is the one the `live …` benchmarks share).
            let (doc, live) = HitWorkload.take(rows: rows)
            let height = live.contentSize.height
            var found = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                // Points spread over the content by the golden ratio, inside the rows' width.
                HitWorkload.point += 1
                let y = height * (Double(HitWorkload.point) * 0.618_033_988_749_895).truncatingRemainder(dividingBy: 1)
                if live.hitTest(x: 195, y: y) != nil { found += 1 }
            }
            benchmark.stopMeasurement()
            HitWorkload.found += found
            precondition(HitWorkload.point < 100 || HitWorkload.found * 2 > HitWorkload.point, "most points of the flat workload are on a row")
            HitWorkload.put(doc, live)
        }
    }
}
