// A writer process for StoreTests only (crash and concurrency tests); not part of the product.
//
//   store-torture crash DB DOC SEED   create DOC, then perform random actions until killed,
//                                     printing "b K" before and "d K" after action K commits
//   store-torture imports DB ROWS     import documents i1, i2, … of ROWS rows until killed
//                                     (the even ones from their JSON, rows written as read)
//   store-torture moves DB ROWS       import document m of ROWS rows, clear it ("c" once done),
//                                     then undo and redo that clear until killed, printing
//                                     "b K" before and "d K" after move K commits
//   store-torture race DB DOC PREFIX N
//                                     add rows PREFIX0…PREFIX(N-1) at the bottom of DOC,
//                                     reloading and retrying on stale-version errors; prints
//                                     "stale S" (how many retries) at the end
//   (crash and race write snapshots every $STACKDOC_SNAPSHOT_INTERVAL log entries when it is set)
//   store-torture open-race DIR ROUNDS ROLE OTHER
//                                     for round i: wait at a file barrier for process OTHER,
//                                     then open DIR/rI.sqlite (a new database, opened by both
//                                     at the same moment) and list its documents; prints
//                                     "fail I: ERROR" per failed round and "failures N" at the end
//   store-torture open DB DOC         open DOC and print "open N rows: T s, RSS M MB"
// Benchmarks live in Benchmarks/ (ordo-one/benchmark) and scripts/measure-*.
import Foundation
import Layout
import OrderStatistics
import Store
import StackDocTestSupport

@main
enum StoreTorture {
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("store-torture: \(message)\n".utf8))
        exit(3)
    }

    /// This process's resident memory (VmRSS), in MB.
    static func rssMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Double(line.split(separator: " ")[1]).map { $0 / 1024 } ?? 0
        }
        return 0
    }

    /// The store options of the writers: the default, or snapshots every
    /// `STACKDOC_SNAPSHOT_INTERVAL` entries (the snapshot tests' second process).
    static var writerOptions: StoreOptions {
        guard let text = ProcessInfo.processInfo.environment["STACKDOC_SNAPSHOT_INTERVAL"], let n = Int(text) else { return StoreOptions() }
        return StoreOptions(snapshots: SnapshotPolicy(interval: n, keep: 3))
    }

    static func main() {
        let args = Array(CommandLine.arguments.dropFirst())
        do {
            switch args.first {
            case "crash" where args.count == 4:
                guard let seed = UInt64(args[3]) else { fail("bad seed") }
                let store = try DocumentStore(url: args[1], options: writerOptions)
                let handle = try store.create(args[2])
                var rng = SplitMix64(seed: seed)
                var k = 0
                while true {
                    k += 1
                    let action = RandomOps.action(for: handle, rng: &rng)
                    say("b \(k)")
                    do { try action.run(on: handle) } catch { fail("action \(k) (\(action)): \(error)") }
                    say("d \(k)")
                }
            case "imports" where args.count == 3:
                // Imports documents i1, i2, … of ROWS rows (a nested stack each) until killed;
                // the even ones from their JSON text.
                guard let rows = Int(args[2]) else { fail("bad row count") }
                let store = try DocumentStore(url: args[1])
                var k = 0
                while true {
                    k += 1
                    var d = Document(name: "i\(k)")
                    try d.appendRow("s", config: RowConfig(stack: StackSettings()), parent: nil)
                    for i in 0..<rows { try d.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(i % 40))), parent: i % 5 == 0 ? "s" : nil) }
                    say("b \(k)")
                    if k % 2 == 0 {
                        // Every other one read from its JSON, its rows written while the text
                        // is read (the `import` command's path: `importDocument(reading:)`).
                        let json = Array(d.exportJSON(pretty: false).utf8)
                        try store.importDocument { rows in try Document.read(jsonBytes: json, rows: rows) }
                    } else {
                        try store.importDocument(d)
                    }
                    say("d \(k)")
                }
            case "moves" where args.count == 3:
                guard let rows = Int(args[2]) else { fail("bad row count") }
                let store = try DocumentStore(url: args[1])
                var d = Document(name: "m")
                for i in 0..<rows { try d.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(20 + i % 40))), parent: nil) }
                let handle = try store.importDocument(d)
                try handle.perform(.clear(parent: nil))
                say("c")
                var k = 0
                while true {
                    k += 1
                    say("b \(k)")
                    if k % 2 == 1 { try handle.undo() } else { try handle.redo() }
                    say("d \(k)")
                }
            case "race" where args.count == 5:
                guard let n = Int(args[4]) else { fail("bad count") }
                let store = try DocumentStore(url: args[1], options: writerOptions)
                let handle = try store.open(args[2])
                var stale = 0
                for i in 0..<n {
                    let id = "\(args[3])\(i)"
                    while true {
                        let index = handle.document.children(of: nil).count
                        do {
                            try handle.perform(.add(ids: [id], spec: [], position: .bottom, parent: nil),
                                               changes: [.insertRow(id: id, config: RowConfig(), parent: nil, index: index)])
                            break
                        } catch {
                            guard try handle.isStale() else { throw error }
                            stale += 1
                            try handle.reload()
                        }
                    }
                }
                say("stale \(stale)")
            case "open-race" where args.count == 5:
                guard let rounds = Int(args[2]) else { fail("bad round count") }
                var failures = 0
                for i in 0..<rounds {
                    try OpenRace.barrier(dir: args[1], round: i, role: args[3], other: args[4])
                    do {
                        _ = try DocumentStore(path: "\(args[1])/r\(i).sqlite").documentNames()
                    } catch {
                        failures += 1
                        say("fail \(i): \(error)")
                    }
                }
                say("failures \(failures)")
            case "open" where args.count == 3:
                let t = Date.timeIntervalSinceReferenceDate
                let doc = try DocumentStore(url: args[1]).open(args[2])
                say("open \(doc.document.rowCount) rows: \(Date.timeIntervalSinceReferenceDate - t) s, RSS \(rssMB()) MB")
            default:
                fail("usage: store-torture crash DB DOC SEED | imports DB ROWS | moves DB ROWS | race DB DOC PREFIX N | open-race DIR ROUNDS ROLE OTHER | open DB DOC")
            }
        } catch {
            fail("\(error)")
        }
    }
}

/// A two-process barrier made of files: each process creates `ready-ROUND-ROLE` and waits
/// (10 s at most) for the other's.
enum OpenRace {
    static func barrier(dir: String, round: Int, role: String, other: String) throws {
        let mine = "\(dir)/ready-\(round)-\(role)", theirs = "\(dir)/ready-\(round)-\(other)"
        guard FileManager.default.createFile(atPath: mine, contents: nil) else { StoreTorture.fail("cannot create \(mine)") }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: theirs) {
            if Date() > deadline { StoreTorture.fail("process \(other) never reached round \(round)") }
            usleep(50)
        }
    }
}
