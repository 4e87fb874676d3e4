import Foundation
import Layout
import Store

/// `store-torture bench DIR ROWS`: quick release-mode measurements of import, open and commits.
enum Bench {
    static func now() -> Double { Date.timeIntervalSinceReferenceDate }

    static func rssMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Double(line.split(separator: " ")[1]).map { $0 / 1024 } ?? 0
        }
        return 0
    }

    static func run(dir: String, rows: Int) throws {
        let path = dir + "/bench-\(rows).sqlite"
        if !FileManager.default.fileExists(atPath: path) {
            var d = Document(name: "big")
            var t = now()
            for i in 0..<rows {
                try d.insertRow("r\(i)", config: RowConfig(size: .fixed(Double(20 + i % 50))), parent: nil, at: i)
            }
            print("build in memory: \(String(format: "%.3f", now() - t)) s")
            t = now()
            _ = try DocumentStore(path: path).importDocument(d)
            print("import \(rows): \(String(format: "%.3f", now() - t)) s")
        }
        let rss0 = rssMB()
        var t = now()
        let store = try DocumentStore(path: path)
        let doc = try store.open("big")
        let open = now() - t
        print("open \(doc.document.rowCount) rows: \(String(format: "%.3f", open)) s, RSS \(String(format: "%.0f", rssMB())) MB (before \(String(format: "%.0f", rss0)) MB)")
        for durability in Durability.allCases {
            let s = try DocumentStore(path: path, options: StoreOptions(durability: durability))
            let d = try s.open("big")
            var times: [Double] = []
            for i in 0..<300 {
                let edit: Edit
                switch i % 3 {
                case 0: edit = .set(id: "r\(i * 7 % rows)", spec: [.fixed(Double(i))])
                case 1: edit = .hide(ids: ["r\(i * 11 % rows)"])
                default: edit = .move(id: "r\(i * 13 % rows)", position: .index(rows / 2), parent: nil)
                }
                t = now()
                try d.perform(edit)
                times.append(now() - t)
            }
            times.sort()
            print("commit (\(durability)): median \(String(format: "%.3f", times[times.count / 2] * 1000)) ms, p90 \(String(format: "%.3f", times[times.count * 9 / 10] * 1000)) ms")
            try d.undo(d.cursor)
        }
    }
}
