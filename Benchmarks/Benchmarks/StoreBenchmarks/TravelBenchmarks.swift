import Benchmark
import Foundation
import Layout
import Store

/// Time travel at any depth (issue 15 item 6): a 1M-row document with 100k steps of history
/// (one-row size edits, moves, hides and shows, with an undo and a redo every 25 operations;
/// the default snapshot policy). Built once through the Store API into the temporary directory
/// (≈ 2 min on a quiet machine; an interrupted build resumes where it stopped) and reused.
enum TravelWorkload {
    static let rows = 1_000_000
    static let operations = 100_000

    /// The database, built or completed first.
    static func databasePath() throws -> String {
        let path = FileManager.default.temporaryDirectory.appending(path: "travel-\(rows)-\(operations).sqlite").path
        let store = try DocumentStore(path: path)
        let document: StoredDocument
        if (try? store.contains("t")) == true {
            document = try store.open("t")
        } else {
            var d = Document(name: "t")
            d.reserveCapacity(rows: rows, rootRows: rows)
            for i in 0..<rows { try d.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(20 + i % 50))), parent: nil) }
            document = try store.importDocument(d)
        }
        var rng = SystemRandomNumberGenerator()
        while try document.status().logEntries <= operations {
            let k = try document.status().logEntries
            let row = "r\(Int.random(in: 0..<rows, using: &rng))"
            do {
                switch k % 25 {
                case 0 where document.cursor > 0: try document.undo(1)
                case 1 where document.stepCount > document.cursor: try document.redo(1)
                case 2, 3: try document.perform(.move(id: row, position: .index(Int.random(in: 0..<rows, using: &rng)), parent: nil))
                case 4: try document.perform(.hide(ids: [row]))
                case 5: try document.perform(.show(ids: [row]))
                default: try document.perform(.set(id: row, spec: [.fixed(Double(Int.random(in: 0..<500, using: &rng)))]))
                }
            } catch is StackDocError {
                continue  // a hide of a hidden row, a show of a shown one: no entry, another row next
            }
        }
        return path
    }

    /// The `index`-th of 16 points spread over the whole history (entry 1 to the last), so that
    /// the iterations of a benchmark visit every depth.
    static func point(_ index: Int, last: Int) -> Int {
        1 + (index % 16) * (last - 1) / 15
    }
}

func travelBenchmarks() {
    // `export FILE --at REF` of the handle's process: the past document and its whole pretty
    // JSON written to a file (what `stackdoc` does; the document is already open).
    for (name, writes) in [("store export --at any entry, 1M rows, 100k steps", true),
                           ("store document(at:) any entry, 1M rows, 100k steps", false)] {
        let holder = DocumentHolder()
        Benchmark(name,
                  configuration: .init(metrics: [.wallClock, .cpuTotal, .peakMemoryResident], warmupIterations: 1, scalingFactor: .one,
                                       maxDuration: .seconds(60), maxIterations: 16),
                  closure: { _ in
                      guard let document = holder.document else { return }
                      holder.counter += 1
                      let seq = TravelWorkload.point(holder.counter, last: try document.status().logEntries)
                      let past = try document.document(at: .entry(seq))
                      guard writes else { return blackHole(past.rowCount) }
                      let path = FileManager.default.temporaryDirectory.appending(path: "stackdoc-travel-export.json").path
                      guard let file = fopen(path, "wb") else { throw StackDocError("cannot write \(path)") }
                      defer { fclose(file) }
                      var bytes = 0
                      past.exportJSONPieces(pretty: true) { piece in
                          bytes += piece.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
                      }
                      precondition(bytes > 200 * TravelWorkload.rows, "the export holds every row")
                  },
                  setup: {
                      holder.document = try DocumentStore(path: try TravelWorkload.databasePath()).open("t")
                      holder.counter = 0
                  },
                  teardown: { holder.document = nil })
    }

    // `diff now~10` at the end of the deep history: 10 changed rows, whatever lies before.
    let holder = DocumentHolder()
    Benchmark("store diff now~10 (10 changed rows), 1M rows, 100k steps",
              configuration: .init(metrics: [.wallClock, .cpuTotal], warmupIterations: 1, scalingFactor: .one,
                                   maxDuration: .seconds(10), maxIterations: 20),
              closure: { _ in
                  guard let document = holder.document else { return }
                  let diff = try document.diff(from: .now(back: 10))
                  precondition(!diff.diff.rows.isEmpty, "the diff lists the changed rows")
                  blackHole(diff)
              },
              setup: {
                  let document = try DocumentStore(path: try TravelWorkload.databasePath()).open("t")
                  _ = document.liveLayout()
                  holder.document = document
              },
              teardown: { holder.document = nil })
}
