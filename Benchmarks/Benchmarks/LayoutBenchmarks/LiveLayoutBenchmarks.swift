import Benchmark
import Layout

/// The flat 1M-row document with its `LiveLayout`, built once and edited in place by the
/// benchmarks (they run one at a time).
enum LiveWorkload {
    nonisolated(unsafe) static var state: (doc: Document, live: LiveLayout)?

    static func take(rows: Int) -> (Document, LiveLayout) {
        if let s = state, s.doc.rowCount >= rows - 1 {
            state = nil  // keep both uniquely referenced while a benchmark edits them
            return s
        }
        let doc = DocumentWorkload.document(rows: rows)
        return (doc, LiveLayout(doc))
    }

    static func put(_ doc: Document, _ live: LiveLayout) { state = (doc, live) }
}

/// Issue 5: one edit of a 1M-row document (plan, apply to the Document, `LiveLayout.apply`
/// with its change report), then the rows visible in the viewport.
func liveLayoutBenchmarks() {
    let rows = 1_000_000
    let config = Benchmark.Configuration.singleEdit(timeUnits: .microseconds)

    Benchmark("live layout build 1M",
              configuration: .init(metrics: [.wallClock, .cpuTotal, .peakMemoryResident], timeUnits: .milliseconds,
                                   maxDuration: .seconds(10), maxIterations: 3)) { benchmark in
        let (doc, _) = LiveWorkload.take(rows: rows)
        benchmark.startMeasurement()
        let live = LiveLayout(doc)
        benchmark.stopMeasurement()
        blackHole(live.contentSize)
        LiveWorkload.put(doc, live)
    }

    func edit(_ name: String, _ makeEdit: @escaping (Document, Int) -> Edit) {
        Benchmark("live \(name) + visible 1M", configuration: config) { benchmark in
            var (doc, live) = LiveWorkload.take(rows: rows)
            var iteration = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let edit = makeEdit(doc, iteration)
                if let changes = try? doc.plan(edit, live: live), (try? doc.apply(changes)) != nil {
                    let report = live.apply(changes, to: doc)
                    blackHole(report.transitions.count)
                }
                blackHole(live.visibleRows().count)
                iteration += 1
            }
            benchmark.stopMeasurement()
            precondition(live.isIncremental, "the flat workload must stay incremental")
            LiveWorkload.put(doc, live)
        }
    }

    edit("resize middle") { doc, i in
        .set(id: "r\(rows / 2)", spec: [.fixed(Double(50 + i % 20))])
    }
    edit("insert or remove at top") { _, i in
        i % 2 == 0 ? .add(ids: ["top"], spec: [.fixed(44)], position: .top, parent: nil) : .remove(ids: ["top"])
    }
    edit("move top to middle") { doc, _ in
        .move(id: doc.child(at: 0, of: nil) ?? "r0", position: .index(rows / 2), parent: nil)
    }
    edit("hide or show middle") { _, i in
        i % 2 == 0 ? .hide(ids: ["r\(rows / 3)"]) : .show(ids: ["r\(rows / 3)"])
    }
    edit("scroll by 500") { _, i in
        .scroll(.by(i % 2 == 0 ? 500 : -400))
    }
}
