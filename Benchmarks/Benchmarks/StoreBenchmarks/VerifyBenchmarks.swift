import Benchmark
import Foundation
import Layout
import Store

/// Issue 35 item 8: `verify` (the REPL's: `verify(replan: true)`) per kind of row, at 10k rows,
/// so that a cliff in one kind shows beside the others. Each document is one `add` of the rows,
/// its undo and its redo (the moves whose change-by-change replay was quadratic for sticky rows
/// and for rows in nested stacks), in a database of its own made in setup.
enum VerifyWorkload {
    static let rows = 10_000

    /// The kinds: a name and the `add`'s ROWSPEC (nested: the rows inside `s1` inside `s0`).
    static let kinds: [(name: String, spec: [RowSpecItem], nested: Bool)] = [
        ("plain", [.fixed(20)], false),
        ("sticky", [.fixed(20), .sticky(true)], false),
        ("text", [.text(TextRun(count: 60))], false),
        ("aspect", [.aspect(Size(width: 4, height: 1))], false),
        ("nested", [.fixed(20)], true),
    ]

    /// A fresh database whose document "verify" holds `rows` rows of `spec`, added, undone and redone.
    static func database(_ name: String, spec: [RowSpecItem], nested: Bool) throws -> String {
        let path = FileManager.default.temporaryDirectory.appending(path: "stackdoc-verify-bench-\(name).sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let document = try DocumentStore(path: path).create("verify")
        var parent: RowID?
        if nested {
            try document.perform(.add(ids: ["s0"], spec: [.stack(.vertical)], position: nil, parent: nil))
            try document.perform(.add(ids: ["s1"], spec: [.stack(.horizontal)], position: nil, parent: "s0"))
            parent = "s1"
        }
        try document.perform(.add(ids: (0..<rows).map { "x\($0)" }, spec: spec, position: nil, parent: parent))
        try document.undo()
        try document.redo()
        return path
    }
}

func verifyBenchmarks() {
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .cpuTotal, .peakMemoryResident], warmupIterations: 1,
                                                scalingFactor: .one, maxDuration: .seconds(20), maxIterations: 10)
    for kind in VerifyWorkload.kinds {
        let path = PathHolder()
        Benchmark("store verify \(kind.name), 10k rows after undo and redo", configuration: configuration,
                  closure: { benchmark in
                      let document = try DocumentStore(path: path.path).open("verify")
                      benchmark.startMeasurement()
                      let problems = try document.verify(replan: true)
                      benchmark.stopMeasurement()
                      precondition(problems.isEmpty, "\(kind.name): \(problems.prefix(3))")
                  },
                  setup: { path.path = try VerifyWorkload.database(kind.name, spec: kind.spec, nested: kind.nested) })
    }
}
