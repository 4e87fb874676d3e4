import Benchmark
import Layout

/// Documents whose changes happen below the root (issue 11, item 5).
enum NestedLiveWorkload {
    /// root → stack `s` (vertical, `fit`) → `rows` rows `fixed h` (the flat workload's heights).
    static func nestedStack(rows: Int) -> Document {
        var doc = Document(name: "nested", settings: DocumentSettings(viewport: Size(width: 390, height: 844)))
        try? doc.appendRow("s", config: RowConfig(stack: StackSettings(axis: .vertical)), parent: nil)
        for (i, h) in FlatWorkload.heights(rows).enumerated() {
            try? doc.appendRow("x\(i)", config: RowConfig(size: .fixed(h)), parent: "s")
        }
        precondition(doc.rowCount == rows + 1, "NestedLiveWorkload: expected \(rows + 1) rows")
        return doc
    }

    /// root → `s1` → … → `sN` (`depth` vertical `fit` stacks, each also holding two rows `fixed
    /// 44` before the next stack) → `rows` rows `fixed h` (the flat workload's heights) in `sN`.
    /// With `outerAlign`, the outermost stack is aligned that way instead of stretched: it is no
    /// line, so a change below it lays its whole subtree out (the cost before stack lines went
    /// below the first level).
    static func deepStack(depth: Int, rows: Int, outerAlign: AlignSelf = .auto) -> Document {
        var doc = Document(name: "deep", settings: DocumentSettings(viewport: Size(width: 390, height: 844)))
        var parent: RowID?
        for level in 1...depth {
            let id = "s\(level)"
            try? doc.appendRow("h\(level)a", config: RowConfig(size: .fixed(44)), parent: parent)
            try? doc.appendRow("h\(level)b", config: RowConfig(size: .fixed(44)), parent: parent)
            try? doc.appendRow(id, config: RowConfig(alignSelf: level == 1 ? outerAlign : .auto,
                                                     stack: StackSettings(axis: .vertical)), parent: parent)
            parent = id
        }
        for (i, h) in FlatWorkload.heights(rows).enumerated() {
            try? doc.appendRow("x\(i)", config: RowConfig(size: .fixed(h)), parent: parent)
        }
        precondition(doc.rowCount == rows + 3 * depth, "NestedLiveWorkload: expected \(rows + 3 * depth) rows")
        return doc
    }
}

/// One edit below the root, as `live … + visible 1M` does at the root: plan, apply to the
/// Document, `LiveLayout.apply` with its change report, then the visible rows.
func nestedLiveBenchmarks() {
    let config = Benchmark.Configuration(metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .microseconds,
                                         warmupIterations: 2, maxDuration: .seconds(5), maxIterations: 2_000)

    func edit(_ name: String, _ make: @escaping () -> Document, _ makeEdit: @escaping (Int) -> Edit) {
        Benchmark("live \(name) + visible", configuration: config) { benchmark in
            var doc = make()
            var live = LiveLayout(doc)
            // Two edits before the clock starts: the first insert grows the tables (row index,
            // document storage) once, an amortised cost that would be most of a 2-sample run.
            var iteration = -2
            while iteration < 0 {
                if let changes = try? doc.plan(makeEdit(iteration + 2), live: live), (try? doc.apply(changes)) != nil {
                    live.apply(changes, to: doc)
                }
                iteration += 1
            }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                if let changes = try? doc.plan(makeEdit(iteration), live: live), (try? doc.apply(changes)) != nil {
                    let report = live.apply(changes, to: doc)
                    blackHole(report.transitions.count)
                }
                blackHole(live.visibleRows().count)
                iteration += 1
            }
            benchmark.stopMeasurement()
            blackHole(live.isIncremental)
        }
    }

    edit("nested 100k: resize the middle row of the stack", { NestedLiveWorkload.nestedStack(rows: 100_000) }) { i in
        .set(id: "x50000", spec: [.fixed(Double(50 + i % 20))])
    }
    // root → stack → stack → 100k rows, and a stack of 100k rows at depth 4: stack lines below
    // the first level.
    edit("nested depth 2 100k: resize the middle row of the deepest stack", { NestedLiveWorkload.deepStack(depth: 2, rows: 100_000) }) { i in
        .set(id: "x50000", spec: [.fixed(Double(50 + i % 20))])
    }
    edit("nested depth 2 100k, outer stack aligned start (no line): resize the middle row", {
        NestedLiveWorkload.deepStack(depth: 2, rows: 100_000, outerAlign: .start)
    }) { i in
        .set(id: "x50000", spec: [.fixed(Double(50 + i % 20))])
    }
    edit("nested depth 4 100k: resize the middle row of the deepest stack", { NestedLiveWorkload.deepStack(depth: 4, rows: 100_000) }) { i in
        .set(id: "x50000", spec: [.fixed(Double(50 + i % 20))])
    }
    edit("nested depth 4 100k: insert or remove a row of the deepest stack", { NestedLiveWorkload.deepStack(depth: 4, rows: 100_000) }) { i in
        i % 2 == 0 ? .add(ids: ["n\(i)"], spec: [.fixed(33)], position: .index(50_000), parent: "s4") : .remove(ids: ["n\(i - 1)"])
    }
    // DeepWorkload.chain: every level `fit`, grow and shrink, axes alternating; `l62` is a
    // leaf of the deepest stack.
    edit("chain depth 32: resize a leaf of the deepest stack", { DeepWorkload.chain(depth: 32, leaves: 2) }) { i in
        .set(id: "l62", spec: [.fixed(Double(20 + i % 20))])
    }
}

/// Issue 11 item 4 inside a nested stack: `hit X Y` at points spread over a root stack of
/// 100k rows (a stack line of the live layout: a point query, not a walk of the stack's rows).
func nestedHitBenchmarks() {
    Benchmark("live hit X Y nested 100k", configuration: .singleEdit(timeUnits: .microseconds)) { benchmark in
        let live = LiveLayout(NestedLiveWorkload.nestedStack(rows: 100_000))
        let height = live.contentSize.height
        var found = 0
        var point = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            point += 1
            let y = height * (Double(point) * 0.618_033_988_749_895).truncatingRemainder(dividingBy: 1)
            if live.hitTest(x: 195, y: y) != nil { found += 1 }
        }
        benchmark.stopMeasurement()
        precondition(point < 100 || found * 2 > point, "most points of the nested stack are on a row")
    }
}
