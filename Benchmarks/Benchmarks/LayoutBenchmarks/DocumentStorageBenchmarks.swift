import Benchmark
import Layout

/// Issue 5 model side: single primitive edits and queries on the 1M-row flat `Document`
/// (`DocumentWorkload`), edited in place (the document stays uniquely referenced, so no
/// copy-on-write copy is measured), plus the document-order walk.
func documentStorageBenchmarks() {
    let rows = 1_000_000
    let config = Benchmark.Configuration.singleEdit(timeUnits: .nanoseconds)

    func edit(_ name: String, _ body: @escaping (inout Document, Int) -> Void) {
        Benchmark("document \(name) 1M", configuration: config) { benchmark in
            var doc = DocumentWorkload.take(rows: rows)
            var iteration = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                body(&doc, iteration)
                iteration += 1
            }
            benchmark.stopMeasurement()
            DocumentWorkload.give(doc)
        }
    }

    let row = RowConfig(size: .fixed(44))
    edit("insert at top + remove it") { doc, _ in
        try? doc.insertRow("new", config: row, parent: nil, at: 0)
        try? doc.removeRow("new")
    }
    edit("move top to middle") { doc, _ in
        if let id = doc.child(at: 0, of: nil) { try? doc.moveRow(id, to: nil, at: rows / 2) }
    }
    edit("update (hide or show) middle") { doc, i in
        try? doc.updateRow("r\(rows / 2)", config: RowConfig(size: .fixed(44), hidden: i % 2 == 0))
    }
    edit("index(of:) of a random row") { doc, i in
        blackHole(doc.index(of: "r\((i &* 7919) % rows)"))
    }

    Benchmark("document forEachRow 1M",
              configuration: .init(metrics: [.wallClock, .cpuTotal], warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 10)) { benchmark in
        let doc = DocumentWorkload.cached(rows: rows)
        var count = 0
        benchmark.startMeasurement()
        doc.forEachRow { _, _, _, _ in count += 1 }
        benchmark.stopMeasurement()
        blackHole(count)
    }
}

extension DocumentWorkload {
    /// The cached document of `rows` rows, taken out of the cache so that edits do not copy it.
    static func take(rows: Int) -> Document {
        let doc = cached(rows: rows)
        drop()
        return doc
    }

    /// Puts an edited document back (same rows count after paired edits).
    static func give(_ doc: Document) { put(doc) }
}
