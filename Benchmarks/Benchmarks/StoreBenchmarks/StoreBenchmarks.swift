import Benchmark
import Foundation
import Layout
import Store

/// Store benchmarks: opening stored 100k- and 1M-row documents, and single-operation commits
/// (planned edit → rows → log → commit) on a 1k-row document, with the default
/// `synchronous = NORMAL` and with `FULL` (at 1M rows: `EditBenchmarks.swift`).
///
/// The databases are built once (import) into the temporary directory and reused.
enum StoreWorkload {
    static func databasePath(rows: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appending(path: "stackdoc-store-bench-\(rows).sqlite").path
        if let store = try? DocumentStore(path: path), (try? store.contains("bench")) == true { return path }
        try importFlat(rows: rows, name: "bench", at: path)
        return path
    }

    /// A new database at `path` (any old one removed) holding the imported flat document `name`
    /// of `rows` rows `fixed 20…69`.
    static func importFlat(rows: Int, name: String, at path: String) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var document = Document(name: name)
        document.reserveCapacity(rows: rows, rootRows: rows)
        for i in 0..<rows {
            try document.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(20 + i % 50))), parent: nil)
        }
        try DocumentStore(path: path).importDocument(document)
    }

    /// An edit that changes one row of a `rows`-row document.
    static func edit(_ i: Int, rows: Int) -> Edit {
        .set(id: "r\((i &* 7919) % rows)", spec: [.fixed(Double(i % 97))])
    }
}

let benchmarks: @Sendable () -> Void = {
    historyBenchmarks()
    editBenchmarks()
    undoBenchmarks()
    rebuildBenchmarks()
    travelBenchmarks()
    verifyBenchmarks()
    importBenchmarks()
    for rows in [100_000, 1_000_000] {
        let label = rows >= 1_000_000 ? "1M" : "\(rows / 1000)k"
        Benchmark("store open \(label)",
                  configuration: .init(metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
                                       warmupIterations: 1, maxDuration: .seconds(20), maxIterations: rows >= 1_000_000 ? 5 : 20)) { benchmark in
            let path = try StoreWorkload.databasePath(rows: rows)
            benchmark.startMeasurement()
            let document = try DocumentStore(path: path).open("bench")
            benchmark.stopMeasurement()
            blackHole(document.document.rowCount)
        }
    }

    for (rows, durability) in [(1000, Durability.normal), (1000, .full)] {
        let label = rows >= 1_000_000 ? "1M" : "\(rows / 1000)k"
        let holder = DocumentHolder()
        // One iteration = one operation committed; throughput = commits per second.
        Benchmark("store commit \(label) rows, synchronous=\(durability.rawValue)",
                  configuration: .init(metrics: [.wallClock, .throughput, .cpuTotal],
                                       warmupIterations: 10, scalingFactor: .one,
                                       maxDuration: .seconds(10), maxIterations: 2000),
                  closure: { benchmark in
                      guard let document = holder.document else { return }
                      holder.counter += 1
                      try document.perform(StoreWorkload.edit(holder.counter, rows: rows))
                  },
                  setup: {
                      let path = try StoreWorkload.databasePath(rows: rows)
                      holder.document = try DocumentStore(path: path, options: StoreOptions(durability: durability)).open("bench")
                  },
                  teardown: { holder.document = nil })
    }

    // Order keys (issue 9 item 6): one insert committed at index 1 of a document that keeps
    // growing (a feed under a header: every insert hits the same gap, so neighbourhoods are
    // re-keyed), against one insert at the bottom. Compare the medians: the difference is the
    // amortized re-keying cost.
    for (label, atTop) in [("index 1", true), ("bottom", false)] {
        let holder = DocumentHolder()
        Benchmark("store insert at \(label) of a growing feed",
                  configuration: .init(metrics: [.wallClock, .throughput, .cpuTotal],
                                       warmupIterations: 100, scalingFactor: .one,
                                       maxDuration: .seconds(10), maxIterations: 20_000),
                  closure: { _ in
                      guard let document = holder.document else { return }
                      holder.counter += 1
                      let index = atTop ? 1 : document.document.children(of: nil).count
                      let id = "x\(holder.counter)"
                      try document.perform(.add(ids: [id], spec: [], position: .index(index), parent: nil),
                                           changes: [.insertRow(id: id, config: RowConfig(size: .fixed(20)), parent: nil, index: index)])
                  },
                  setup: {
                      let path = FileManager.default.temporaryDirectory.appending(path: "stackdoc-feed-bench-\(atTop).sqlite").path
                      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                      let document = try DocumentStore(path: path).create("feed")
                      try document.perform(.add(ids: ["header"], spec: [], position: nil, parent: nil),
                                           changes: [.insertRow(id: "header", config: RowConfig(), parent: nil, index: 0)])
                      holder.document = document
                  },
                  teardown: { holder.document = nil })
    }
}

/// History II (issue 15): `diff` of a 1M-row document against the point 10 changed rows ago
/// (the handle's document and live layout taken back and forward in place), and time travel to
/// that point (`document(at:)`: the current document with 10 entries taken back). Setup opens
/// the 1M-row database and commits 10 edits of one row each (plus one change that moves a row).
func historyBenchmarks() {
    for (name, travel) in [("store diff 1M rows, 10 changed rows", false), ("store export --at now~10, 1M rows", true)] {
        let holder = DocumentHolder()
        Benchmark(name,
                  configuration: .init(metrics: [.wallClock, .cpuTotal], warmupIterations: 1, scalingFactor: .one,
                                       maxDuration: .seconds(10), maxIterations: 20),
                  closure: { _ in
                      guard let document = holder.document else { return }
                      if travel {
                          blackHole(try document.document(at: .now(back: 10)).rowCount)
                      } else {
                          let diff = try document.diff(from: .now(back: 10))
                          precondition(diff.diff.rows.count >= 9, "the diff lists the changed rows")
                          blackHole(diff)
                      }
                  },
                  setup: {
                      let rows = 1_000_000
                      let document = try DocumentStore(path: try StoreWorkload.databasePath(rows: rows)).open("bench")
                      _ = document.liveLayout()
                      for i in 0..<9 {
                          holder.counter += 1
                          try document.perform(.set(id: "r\((holder.counter &* 7919 &+ i) % rows)", spec: [.grow(Double(1 + holder.counter % 5))]))
                      }
                      try document.perform(.move(id: "r\(holder.counter % rows)", position: .top, parent: nil))
                      holder.document = document
                  },
                  teardown: { holder.document = nil })
    }
}

/// The document a commit benchmark works on (opened once in setup).
final class DocumentHolder: @unchecked Sendable {
    var document: StoredDocument?
    var counter = Int.random(in: 0..<1_000_000)
}
