import Benchmark
import Layout

/// Edit planning and the stackdoc/1 format at scale (model area). Planning one edit must not
/// cost O(document): each planning benchmark runs on a flat document of 999k rows (and a nested
/// one of 1M rows for subtree edits) built once; an iteration plans one edit. Run from
/// Benchmarks/: `swift package --allow-writing-to-package-directory benchmark --target ModelBenchmarks`.
let benchmarks: @Sendable () -> Void = {
    let planConfig = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        warmupIterations: 3, maxDuration: .seconds(3), maxIterations: 1000)
    // Just under the 1M-row limit, so that `add` still plans.
    let flat = ModelWorkload.flat(rows: 999_000)

    let edits: [(String, Edit)] = [
        ("add at bottom", .add(ids: ["new"], spec: [.fixed(40)], position: nil, parent: nil)),
        ("add at top", .add(ids: ["new"], spec: [.fixed(40)], position: .top, parent: nil)),
        ("add 3 after a middle row", .add(ids: ["n1", "n2", "n3"], spec: [], position: .after("r500000"), parent: nil)),
        ("hide 3 rows", .hide(ids: ["r1", "r500000", "r998999"])),
        ("set fixed + insets", .set(id: "r123456", spec: [.fixed(77), .insets(Edges(all: 4))])),
        ("move last to top", .move(id: "r998999", position: .top, parent: nil)),
        ("remove 2 rows", .remove(ids: ["r10", "r998990"])),
        ("replace a row", .replace(id: "r42", newID: "fresh", spec: [.type("cell")])),
        ("defaults separator", .defaults(.separator([.thickness(2), .color("#FF0000")]))),
        ("viewport", .viewport(Size(width: 320, height: 568))),
    ]
    for (name, edit) in edits {
        Benchmark("plan \(name) (999k rows)", configuration: planConfig) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try flat.plan(edit))
            }
        }
    }

    let nested = ModelWorkload.nested(stacks: 10_000, rowsPerStack: 99)
    Benchmark("plan remove a stack of 99 rows (1M rows nested)", configuration: planConfig) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try nested.plan(.remove(ids: ["s5000"])))
        }
    }
    Benchmark("plan move a stack into another (1M rows nested)", configuration: planConfig) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try nested.plan(.move(id: "s5000", position: .bottom, parent: "s17")))
        }
    }

    let formatConfig = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 5)
    for rows in [100_000, 1_000_000] {
        let label = rows >= 1_000_000 ? "1M" : "\(rows / 1000)k"
        let doc = ModelWorkload.flat(rows: rows)
        let text = Array(doc.exportJSON(pretty: false).utf8)
        Benchmark("export stackdoc/1 pretty (\(label) rows)", configuration: formatConfig) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(doc.exportJSON()) }
        }
        Benchmark("import stackdoc/1 (\(label) rows, \(text.count / 1_000_000) MB)", configuration: formatConfig) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try Document(jsonBytes: text)) }
        }
        Benchmark("parse JSON only (\(label) rows, \(text.count / 1_000_000) MB)", configuration: formatConfig) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try JSONParser.parse(text)) }
        }
    }
}

/// Documents for the model benchmarks, built with the store's fast path (`appendRow`).
enum ModelWorkload {
    /// A vertical document of `rows` rows `r0…`, fixed 20…199.
    static func flat(rows: Int) -> Document {
        var doc = Document(name: "bench")
        doc.reserveCapacity(rows: rows, rootRows: rows)
        for i in 0..<rows {
            try? doc.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(20 + (i &* 7919) % 180))), parent: nil)
        }
        precondition(doc.rowCount == rows)
        return doc
    }

    /// `stacks` root stacks `s…`, each holding `rowsPerStack` rows `s…r…`.
    static func nested(stacks: Int, rowsPerStack: Int) -> Document {
        var doc = Document(name: "bench")
        doc.reserveCapacity(rows: stacks * (rowsPerStack + 1), rootRows: stacks)
        for s in 0..<stacks {
            try? doc.appendRow("s\(s)", config: RowConfig(stack: StackSettings()), parent: nil)
            for r in 0..<rowsPerStack {
                try? doc.appendRow("s\(s)r\(r)", config: RowConfig(size: .fixed(30)), parent: "s\(s)")
            }
        }
        precondition(doc.rowCount == stacks * (rowsPerStack + 1))
        return doc
    }
}
