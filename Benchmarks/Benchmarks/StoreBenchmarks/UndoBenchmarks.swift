import Benchmark
import Foundation
import Layout
import Store

/// Issue 15 item 8, "undo costs what it changes": on an imported 100k-row document, `clear`, its
/// undo and its redo (each one committed write), and what a later process pays for them: opening
/// the document and listing its history. The database is its own (the writes here would change
/// the shared store benchmarks' document); each benchmark starts from the imported document.
enum UndoWorkload {
    static let rows = 100_000

    /// A fresh database holding the imported `rows`-row document "undo".
    static func freshDatabase(_ tag: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appending(path: "stackdoc-undo-bench-\(tag).sqlite").path
        try StoreWorkload.importFlat(rows: rows, name: "undo", at: path)
        return path
    }
}

func undoBenchmarks() {
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .cpuTotal, .peakMemoryResident], warmupIterations: 1,
                                                scalingFactor: .one, maxDuration: .seconds(20), maxIterations: 10)
    // One iteration measures one move; the move that puts the document back is not measured.
    let moves: [(name: String, measured: (StoredDocument) throws -> Void, back: (StoredDocument) throws -> Void)] = [
        ("clear", { try $0.perform(.clear(parent: nil)) }, { try $0.undo() }),
        ("undo of the clear", { try $0.undo() }, { try $0.redo() }),
        ("redo of the clear", { try $0.redo() }, { try $0.undo() }),
    ]
    for (index, move) in moves.enumerated() {
        let holder = DocumentHolder()
        Benchmark("store \(move.name), 100k rows", configuration: configuration,
                  closure: { benchmark in
                      guard let document = holder.document else { return }
                      benchmark.startMeasurement()
                      try move.measured(document)
                      benchmark.stopMeasurement()
                      try move.back(document)
                  },
                  setup: {
                      let document = try DocumentStore(path: try UndoWorkload.freshDatabase("move")).open("undo")
                      _ = document.liveLayout()
                      if index > 0 { try document.perform(.clear(parent: nil)) }
                      if index > 1 { try document.undo() }
                      holder.document = document
                  },
                  teardown: { holder.document = nil })
    }

    // A later process after clear, undo, redo, undo: opening the document, and its history.
    let path = PathHolder()
    for (name, listsHistory) in [("store open after clear/undo/redo/undo, 100k rows", false),
                                 ("store history after clear/undo/redo/undo, 100k rows", true)] {
        Benchmark(name, configuration: configuration,
                  closure: { _ in
                      let document = try DocumentStore(path: path.path).open("undo")
                      if listsHistory {
                          let steps = try document.history()
                          precondition(steps.count == 1, "one step: the clear")
                          blackHole(steps)
                      }
                      blackHole(document.document.rowCount)
                  },
                  setup: {
                      path.path = try UndoWorkload.freshDatabase("history")
                      let document = try DocumentStore(path: path.path).open("undo")
                      try document.perform(.clear(parent: nil))
                      try document.undo()
                      try document.redo()
                      try document.undo()
                  })
    }
}

/// The database a benchmark reads (made in setup).
final class PathHolder: @unchecked Sendable {
    var path = ""
}
