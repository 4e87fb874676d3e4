import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// `verify` on a file whose snapshot is damaged says what is damaged — the snapshot after log
/// entry N, a cache — and not that the log does not replay; `verify --rebuild-snapshots`
/// writes it again from the log, and `verify` is clean after it.
@Suite(.offThePool) struct DamagedSnapshotTests {
    @Test func verifyNamesTheSnapshotAndHowToRebuildIt() async throws {
        let binary = try #require(Binary.stackdoc, "the stackdoc binary is not built")
        let dir = try Binary.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.sqlite"
        do {
            let doc = try DocumentStore(path: path).create("d")
            try doc.perform(.add(ids: (0..<20).map { "r\($0)" }, spec: [.fixed(20)], position: nil, parent: nil))
            try doc.perform(.set(id: "r3", spec: [.fixed(40)]))
            try doc.writeSnapshot()  // after log entry 3
            try doc.perform(.set(id: "r4", spec: [.fixed(50)]))
        }
        try DocumentStore(path: path).write { db in
            var image = try Data.fetchOne(db, sql: "SELECT image FROM snapshot WHERE seq = 3")!
            image[image.count / 2] ^= 0xFF
            try db.execute(sql: "UPDATE snapshot SET image = ? WHERE seq = 3", arguments: [image])
        }
        let damaged = try await Binary.run(binary, ["--db", "s.sqlite", "--doc", "d"], stdin: "verify\n", directory: dir)
        #expect(damaged.status == 1)
        #expect(damaged.stderr.hasPrefix("error: 1: verify: the log replays to the stored document, but the snapshot after log entry 3 is damaged (snapshots are a cache every read can do without; 'verify --rebuild-snapshots' writes it again from the log): snapshot of version"), "\(damaged.stderr)")
        #expect(!damaged.stderr.contains("does not replay"))

        let json = try await Binary.run(binary, ["--json", "--db", "s.sqlite", "--doc", "d"], stdin: "verify --rebuild-snapshots\n", directory: dir)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains("\"rebuilt\":[3]") && json.stdout.contains("\"deleted\":[]"), "\(json.stdout)")
        let after = try await Binary.run(binary, ["--db", "s.sqlite", "--doc", "d"], stdin: "verify --rebuild-snapshots\nverify\n", directory: dir)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout == "no damaged snapshot: nothing rebuilt\nok: the log replays to the stored document\n", "\(after.stdout)")
    }
}
