import Foundation
import GRDB
import Layout
import OrderStatistics
import StackDocScript
import Store

/// `store-torture travel DIR ROWS STEPS`: history reads at any depth (issue 15 items 6–7) on a
/// ROWS-row document with STEPS operations of history (one-row edits, moves, hides, undo and
/// redo; the default snapshot policy). Prints medians and maxima of `document(at:)` (the state
/// `export --at` prints) at random entries, of `export --at` with the JSON text, of `diff`
/// of 10 changed rows (the last 10 entries, and 10 entries far back), `verify`, the snapshots'
/// and the log's sizes, and `history compact` keeping the last 1,000 entries (on a copy).
/// The database is built once in DIR. Lines are written unbuffered (progress shows in a log).
/// `quick`: only the time travel and export figures.
enum TravelBench {
    static func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

    /// Wall clock and this process's CPU time of each run (on a loaded machine the CPU time is
    /// what the operation costs; the wall clock adds the waits for a core).
    static func stats(_ name: String, _ times: [Double], cpu: [Double]) {
        let t = times.sorted(), c = cpu.sorted()
        StoreTorture.say("\(name): median \(ms(t[t.count / 2])) (CPU \(ms(c[c.count / 2]))), max \(ms(t[t.count - 1])) (CPU \(ms(c[c.count - 1]))) (\(t.count) runs)")
    }

    static func cpuNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Bytes this process has read from the disk so far (not from the page cache): a point whose
    /// snapshot image or log pages were not cached reads them (`getrusage`'s `ru_inblock`).
    static func diskReadBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_inblock) * 512
    }

    /// The result, the wall-clock seconds and the CPU seconds of `body`.
    static func timed<T>(_ body: () throws -> T) rethrows -> (T, Double, Double) {
        let t = Bench.now(), c = cpuNow()
        let r = try body()
        return (r, Bench.now() - t, cpuNow() - c)
    }

    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let (r, t, _) = try timed(body)
        return (r, t)
    }

    static func build(path: String, rows: Int, steps: Int) throws {
        var d = Document(name: "t")
        d.reserveCapacity(rows: rows, rootRows: rows)
        for i in 0..<rows { try d.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(20 + i % 50))), parent: nil) }
        var (doc, t) = try time { try DocumentStore(path: path).importDocument(d) }
        StoreTorture.say("import \(rows) rows: \(String(format: "%.1f", t)) s")
        t = Bench.now()
        var rng = SplitMix64(seed: 15)
        for k in 0..<steps {
            let r = "r\(Int(rng.next() % UInt64(rows)))"
            do {
                switch k % 20 {
                case 0 where doc.cursor > 0: try doc.undo(1)
                case 1 where doc.stepCount > doc.cursor: try doc.redo(1)
                case 2, 3: try doc.perform(.move(id: r, position: .index(Int(rng.next() % UInt64(rows))), parent: nil))
                case 4: try doc.perform(.hide(ids: [r]))
                case 5: try doc.perform(.show(ids: [r]))
                default: try doc.perform(.set(id: r, spec: [.fixed(Double(rng.next() % 500))]))
                }
            } catch let error as StackDocError { _ = error }
            if k % 2_000 == 1_999 { StoreTorture.say("  \(k + 1) operations: \(String(format: "%.1f", Bench.now() - t)) s") }
        }
        doc = try DocumentStore(path: path).open("t")
        StoreTorture.say("history of \(steps) operations: \(String(format: "%.1f", Bench.now() - t)) s")
    }

    static func run(dir: String, rows: Int, steps: Int, quick: Bool = false) throws {
        let path = dir + "/travel-\(rows)-\(steps).sqlite"
        if !FileManager.default.fileExists(atPath: path) { try build(path: path, rows: rows, steps: steps) }
        let (doc, open, openCPU) = try timed { try DocumentStore(path: path).open("t") }
        let last = try doc.status().logEntries
        StoreTorture.say("open \(doc.document.rowCount) rows, \(last) log entries: \(ms(open)) (CPU \(ms(openCPU))), from \(doc.loadSource)")
        let snapshots = try doc.snapshots()
        let queue = try DatabaseQueue(path: path)
        let logBytes = try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT sum(length(payload) + ifnull(length(forward), 0) + ifnull(length(inverse), 0)) FROM log") ?? 0
        }
        let imageBytes = snapshots.map(\.bytes).reduce(0, +)
        StoreTorture.say("snapshots: \(snapshots.count), \(imageBytes / 1_000_000) MB (\(imageBytes / max(1, last)) B per log entry), spacing \(SnapshotPolicy().spacing(imageBytes: snapshots.first?.bytes ?? 0)) entries")
        StoreTorture.say("log: \(logBytes / 1_000_000) MB, \(logBytes / max(1, last)) B per entry (payload + forward + inverse)")
        var rng = SplitMix64(seed: 77)
        var travel: [Double] = [], travelCPU: [Double] = [], export: [Double] = [], exportCPU: [Double] = []
        var written: [Double] = [], writtenCPU: [Double] = []
        let file = dir + "/travel-export.json"
        // 16 points spread over the whole history (every depth), then 11 random ones.
        let points = (0..<16).map { 1 + $0 * (last - 1) / 15 } + (0..<11).map { _ in 1 + Int(rng.next() % UInt64(last)) }
        var coldPoints = 0
        for s in points {
            let readBefore = diskReadBytes()
            let (d, t, c) = try timed { try doc.document(at: .entry(s)) }
            let read = diskReadBytes() - readBefore
            if read >= 1 << 20 { coldPoints += 1 }
            travel.append(t); travelCPU.append(c)
            // What `export FILE --at REF` does once it has the state: the pretty text in pieces,
            // written by a thread of its own into a file beside FILE, put in its place (FileSwap).
            let (bytes, e, ec) = try timed { () throws -> Int in
                var n = 0
                try FileIO.writePieces(to: file) { sink in
                    try d.exportJSONPieces(pretty: true) { piece in
                        n += piece.count
                        try sink(piece)
                    }
                }
                return n
            }
            written.append(e); writtenCPU.append(ec)
            export.append(t + e); exportCPU.append(c + ec)
            // A state read partly from the disk (its snapshot's pages not cached) says so: its
            // wall time is the disk's as much as the program's.
            let cold = read >= 1 << 20 ? ", \(read / 1_000_000) MB read from the disk" : ""
            // The entries walked from the nearest start (a snapshot, or now), as `state(at:)` picks
            // it but for the image's penalty.
            let walk = min(last - s, snapshots.map { abs($0.seq - s) }.min() ?? Int.max)
            StoreTorture.say("  entry \(s) (now~\(last - s)): state \(ms(t)) (CPU \(ms(c))\(cold), walks ≈ \(walk) entries), export of \(bytes / 1_000_000) MB \(ms(e)) (CPU \(ms(ec)))")
        }
        if coldPoints > 0 { StoreTorture.say("  \(coldPoints) of \(points.count) states read ≥ 1 MB from the disk (pages not cached)") }
        try? FileManager.default.removeItem(atPath: file)
        stats("document(at:) at 16 spread + 11 random entries", travel, cpu: travelCPU)
        stats("export of the past document (pretty JSON to a file)", written, cpu: writtenCPU)
        stats("export --at (state + pretty JSON of every row to a file)", export, cpu: exportCPU)
        if quick { return }
        _ = doc.liveLayout()
        var diffs: [Double] = [], diffsCPU: [Double] = [], farDiffs: [Double] = [], farCPU: [Double] = []
        for _ in 0..<5 {
            let (_, t, c) = try timed { try doc.diff(from: .now(back: 10)) }
            diffs.append(t); diffsCPU.append(c)
            let s = last - 900 + Int(rng.next() % 800)
            let (_, ft, fc) = try timed { try doc.diff(from: .entry(s - 10), to: .entry(s)) }
            farDiffs.append(ft); farCPU.append(fc)
        }
        stats("diff now~10 (10 changed rows)", diffs, cpu: diffsCPU)
        stats("diff S-10 S, S within 1,000 entries of now", farDiffs, cpu: farCPU)
        let (problems, v, vc) = try timed { try doc.verify() }
        StoreTorture.say("verify: \(String(format: "%.1f", v)) s (CPU \(String(format: "%.1f", vc)) s), \(problems.count) problems")
        let copy = dir + "/travel-compact.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
        try queue.backup(to: try DatabaseQueue(path: copy))
        let compacting = try DocumentStore(path: copy).open("t")
        // The first point at or before now~1000 that no later undo reaches behind.
        var found: (CompactionResult, Double)?
        for back in 1000..<1100 where found == nil {
            found = try? time { try compacting.compactHistory(before: .now(back: back)) }
        }
        guard let (result, c) = found else { StoreTorture.say("history compact: every point before now~1000…1099 is refused"); return }
        let after = try DatabaseQueue(path: copy).read { db in
            (try Int.fetchOne(db, sql: "SELECT sum(length(payload) + ifnull(length(forward), 0) + ifnull(length(inverse), 0)) FROM log") ?? 0,
             try Int.fetchOne(db, sql: "SELECT sum(length(image)) FROM snapshot") ?? 0)
        }
        StoreTorture.say("history compact before now~\(last - result.base): \(String(format: "%.1f", c)) s, \(result.droppedEntries) entries dropped; log \(after.0 / 1000) kB, snapshots \(after.1 / 1_000_000) MB")
        let (compactedProblems, vct) = try time { try compacting.verify() }
        StoreTorture.say("verify after compaction: \(String(format: "%.2f", vct)) s, \(compactedProblems.count) problems")
    }
}
