import Benchmark
import Layout

/// Deeply nested documents (issue 11, item 6): Yoga's issue #2007 reports layout time doubling
/// per level through the CSS automatic minimum size. Every stack is `fit` with grow 1 and
/// shrink 1 and the axes alternate level by level, so every level both sizes its content and
/// distributes free space.
enum DeepWorkload {
    /// A stack row at `depth` of axis `axis`: `fit`, grow and shrink.
    static func stack(_ axis: Axis) -> RowConfig {
        RowConfig(size: .fit, grow: 1, shrink: 1, stack: StackSettings(axis: axis, align: .stretch, spacing: 2))
    }

    /// A leaf: content that must fit, grow and shrink.
    static func leaf(_ i: Int) -> RowConfig {
        RowConfig(size: .fit, content: Size(width: Double(20 + i % 7 * 10), height: Double(10 + i % 5 * 8)),
                  grow: Double(i % 3), shrink: 1)
    }

    /// A chain `depth` stacks deep; every stack also holds `leaves` leaves. Rows: depth × (1 + leaves).
    static func chain(depth: Int, leaves: Int) -> Document {
        var doc = Document(name: "deep", settings: DocumentSettings(viewport: Size(width: 390, height: 844)))
        var parent: RowID? = nil
        var n = 0
        for level in 0..<depth {
            let id = "s\(level)"
            try? doc.appendRow(id, config: stack(level % 2 == 0 ? .horizontal : .vertical), parent: parent)
            for _ in 0..<leaves {
                try? doc.appendRow("l\(n)", config: leaf(n), parent: id)
                n += 1
            }
            parent = id
        }
        return doc
    }

    /// A tree `depth` levels deep with `fanout` rows per stack: stacks down to the last level,
    /// leaves there. Rows: fanout + fanout² + … + fanout^depth.
    static func tree(depth: Int, fanout: Int) -> Document {
        var doc = Document(name: "tree", settings: DocumentSettings(viewport: Size(width: 390, height: 844)))
        var n = 0
        func fill(_ parent: RowID?, level: Int) {
            for _ in 0..<fanout {
                let id = "t\(n)"
                n += 1
                if level == depth - 1 {
                    try? doc.appendRow(id, config: leaf(n), parent: parent)
                } else {
                    try? doc.appendRow(id, config: stack(level % 2 == 0 ? .horizontal : .vertical), parent: parent)
                    fill(id, level: level + 1)
                }
            }
        }
        fill(nil, level: 0)
        return doc
    }
}

/// Full layout of deep documents: the time per row must stay flat as depth grows (linear in
/// rows, not exponential in depth).
func deepNestingBenchmarks() {
    let config = Benchmark.Configuration(metrics: [.wallClock, .cpuTotal, .peakMemoryResident], timeUnits: .microseconds,
                                         warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 200)
    for depth in [8, 16, 32] {
        let doc = DeepWorkload.chain(depth: depth, leaves: 2)
        Benchmark("document layout chain depth \(depth) (\(doc.rowCount) rows, fit+grow+shrink, alternating axes)",
                  configuration: config) { benchmark in
            benchmark.startMeasurement()
            let layout = doc.layout()
            benchmark.stopMeasurement()
            blackHole(layout)
        }
    }
    // 3 + 3² + … + 3⁸ = 9,840 rows at depth 8; 10 + … + 10⁴ = 11,110 rows at depth 4 (the same rows, shallower).
    for (depth, fanout) in [(8, 3), (4, 10)] {
        let doc = DeepWorkload.tree(depth: depth, fanout: fanout)
        Benchmark("document layout tree depth \(depth) fanout \(fanout) (\(doc.rowCount) rows)", configuration: config) { benchmark in
            benchmark.startMeasurement()
            let layout = doc.layout()
            benchmark.stopMeasurement()
            blackHole(layout)
        }
    }
}
