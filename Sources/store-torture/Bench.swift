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

import GRDB

/// `store-torture scan DB`: the same 1M-row scan as the loader, once through GRDB's `Row`
/// (what the store would do without the raw C API) and once decoding nothing but the columns —
/// the measurement behind using the raw API in RowLoader.
enum ScanBench {
    static func run(path: String) throws {
        let queue = try DatabaseQueue(path: path)
        // The columns of schema 16: place, id, size and the other fields' blob (`RowFields`).
        let columns = "parent, id, size, fields"
        try queue.read { db in
            let t = Date.timeIntervalSinceReferenceDate
            let cursor = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM row WHERE import_seq = 0 ORDER BY document, parent, order_key")
            var n = 0
            var sum = 0.0
            while let row = try cursor.next() {
                let parent: String = row[0]
                let id: String = row[1]
                let size: Double? = row[2]
                let fields: Data? = row[3]
                sum += size ?? 0
                n += parent.count + id.count + (fields?.count ?? 0)
            }
            print("GRDB Row cursor scan: \(Date.timeIntervalSinceReferenceDate - t) s (\(n), \(sum))")
        }
    }
}

/// `store-torture insert DIR ROWS`: bulk insert of ROWS rows through GRDB statements with
/// `StatementArguments` versus the store's import (raw C API binding) — the measurement behind
/// the raw API in RowWriter.bulkInsert.
enum InsertBench {
    static func run(dir: String, rows: Int) throws {
        var document = Document(name: "ins")
        document.reserveCapacity(rows: rows, rootRows: rows)
        for i in 0..<rows { try document.appendRow("r\(i)", config: RowConfig(size: .fixed(Double(i % 50))), parent: nil) }
        let rawPath = dir + "/insert-raw.sqlite", grdbPath = dir + "/insert-grdb.sqlite"
        for p in [rawPath, grdbPath] { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: p + s) } }
        var t = Date.timeIntervalSinceReferenceDate
        _ = try DocumentStore(path: rawPath).importDocument(document)
        print("import through the store (raw binding, current and import-entry rows): \(Date.timeIntervalSinceReferenceDate - t) s")
        _ = try DocumentStore(path: grdbPath)
        let queue = try DatabaseQueue(path: grdbPath)
        t = Date.timeIntervalSinceReferenceDate
        try queue.write { db in
            try db.execute(sql: "INSERT INTO document (name, axis, viewport_width, viewport_height, offset, padding, spacing, justify, align, default_insets, separator_hidden, separator_insets, separator_thickness, separator_color, autohide_last_separator) VALUES ('ins', 'vertical', 390, 844, 0, '0,0,0,0', 0, 'start', 'stretch', '12,15,12,15', 0, '0,15,0,0', 1, '#C6C6C8', 1)")
            // Every row's config is the default but for its size: its `fields` are NULL.
            let statement = try db.makeStatement(sql: "INSERT INTO row (document, parent, order_key, id, size, fields) VALUES (?, ?, ?, ?, ?, NULL)")
            let keys = (0..<rows).map { String(format: "k%08d", $0) }
            var i = 0
            try document.forEachRow { id, _, _, c in
                var size: Double? = nil
                if case .fixed(let n) = c.size { size = n }
                let values: [(any DatabaseValueConvertible)?] = [1, "", keys[i], id, size]
                try statement.execute(arguments: StatementArguments(values))
                i += 1
            }
        }
        print("the same rows through GRDB StatementArguments (row table only): \(Date.timeIntervalSinceReferenceDate - t) s")
    }
}
