import Benchmark
import Foundation
import Layout
import Store

/// `import` (issue 11 item 3): a flat JSON file of 100k and 1M rows — the workload of
/// `scripts/measure-open`: ids `r0…`, `fixed 20…200`, every other field omitted — imported into a
/// fresh database the way the REPL's `import PATH` does it (`importDocument(reading:)`: the rows
/// stored while the bytes are parsed, then the check, the import image and the commit). One
/// iteration = one whole import; the file's bytes are made once and the database is removed
/// before each iteration, outside the measurement.
func importBenchmarks() {
    for rows in [100_000, 1_000_000] {
        let label = rows >= 1_000_000 ? "1M" : "\(rows / 1000)k"
        let bytes = ImportWorkload.json(rows: rows)
        let path = FileManager.default.temporaryDirectory.appending(path: "stackdoc-import-bench-\(rows).sqlite").path
        Benchmark("store import \(label) rows from JSON",
                  configuration: .init(metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
                                       warmupIterations: 1, scalingFactor: .one,
                                       maxDuration: .seconds(30), maxIterations: rows >= 1_000_000 ? 3 : 10)) { benchmark in
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            benchmark.startMeasurement()
            let store = try DocumentStore(path: path)
            let document = try store.importDocument { handOver in
                try Document.read(jsonBytes: bytes, name: nil, rows: handOver)
            }
            benchmark.stopMeasurement()
            precondition(document.document.rowCount == rows, "the import stored every row")
            blackHole(document)
        }
    }
}

/// The JSON file `scripts/measure-open` writes (its sizes from a seeded generator, not Python's).
enum ImportWorkload {
    static func json(rows: Int) -> [UInt8] {
        var text = #"{"format":"stackdoc/1","name":"big","viewport":{"width":390,"height":844},"rows":["#
        text.reserveCapacity(rows * 40 + 100)
        var state: UInt64 = 42
        for i in 0..<rows {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let size = 20 + Int((state >> 33) % 181)
            if i > 0 { text += "," }
            text += #"{"id":"r\#(i)","size":{"fixed":\#(size)}}"#
        }
        text += "]}"
        return Array(text.utf8)
    }
}
