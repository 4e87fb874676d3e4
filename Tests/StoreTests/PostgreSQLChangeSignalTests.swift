import Foundation
import Layout
import StackDocTestSupport
@testable import Store
import Testing

/// The PostgreSQL change signal against the shared test server: every committing command
/// notifies exactly once — an import of thousands of rows and a change of thousands too — with
/// its document's uid and new version as the payload and nothing more, in the commit's own
/// round trip; a command that commits nothing notifies nothing.
@Suite(.longRunning, .enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.skipReason)))
struct PostgreSQLChangeSignalTests {
    /// The notifications `listener` heard for `uid`, waiting up to `timeout` for each after the first.
    static func heard(_ listener: PostgreSQLConnection, uid: String, timeout: Double = 0.5) throws -> [String] {
        var payloads: [String] = []
        while let note = try listener.nextNotification(timeout: timeout) {
            if note.channel == PostgreSQLBackend.changeChannel, note.payload.hasPrefix(uid + " ") { payloads.append(note.payload) }
        }
        return payloads
    }

    @Test func everyCommandNotifiesOnceWithItsUidAndVersion() throws {
        let url = try TestStores.url(.postgresql)
        let store = try DocumentStore(url: url)
        let listener = try PostgreSQLConnection(url: PostgreSQLURL(url)!)
        try listener.listen(PostgreSQLBackend.changeChannel)

        var source = Document(name: "big", settings: DocumentSettings(axis: .vertical))
        for i in 0..<3000 { try source.appendRow("r\(i)", config: RowConfig(size: .fixed(5)), parent: nil) }
        let doc = try store.importDocument(source)
        let uid = doc.key.uid
        #expect(try Self.heard(listener, uid: uid) == ["\(uid) 1"])

        try doc.perform(.add(ids: (0..<2500).map { "n\($0)" }, spec: [], position: nil, parent: nil))
        try doc.perform(.clear(parent: nil))
        _ = try doc.undo()
        let version = try doc.store.reading { try $0.storedVersion(doc.key) }
        #expect(try Self.heard(listener, uid: uid) == ["\(uid) 2", "\(uid) 3", "\(uid) \(version ?? -1)"])

        // A refused edit commits nothing and notifies nothing.
        #expect(throws: (any Error).self) { try doc.perform(.remove(ids: ["no-such-row"])) }
        #expect(try Self.heard(listener, uid: uid, timeout: 0.3).isEmpty)

        try store.drop("big")
        #expect(try Self.heard(listener, uid: uid) == ["\(uid) 0"])
    }

    /// The NOTIFY travels in the commit's pipeline: a small edit still costs 2 round trips.
    @Test func theNotifyCostsNoRoundTrip() throws {
        let store = try TestStores.store(.postgresql)
        let doc = try store.create("d")
        try doc.perform(.add(ids: ["a"], spec: [], position: nil, parent: nil))
        let connection = (store.backend as! PostgreSQLBackend).connection
        let before = connection.roundTrips
        try doc.perform(.set(id: "a", spec: [.fixed(10)]))
        #expect(connection.roundTrips - before == 2)
    }

    /// A waiter whose session wrote meanwhile (a write stops listening) still never misses a
    /// commit: its next wait listens again and says "look again" at once.
    @Test func aWaiterThatWroteMeanwhileListensAgain() throws {
        let url = try TestStores.url(.postgresql)
        let mine = try DocumentStore(url: url).create("d")
        let theirs = try DocumentStore(url: url).open("d")
        let token = try mine.changeToken()
        try mine.perform(.add(ids: ["a"], spec: [], position: nil, parent: nil))
        #expect(!(mine.store.backend as! PostgreSQLBackend).listening)
        try theirs.reload()
        try theirs.perform(.add(ids: ["b"], spec: [], position: nil, parent: nil))
        let next = try mine.waitForRemoteChange(after: token, timeout: 2)
        #expect(next != token)
        #expect(try mine.catchUp().map(\.entry.seq) == [3])
        #expect((mine.store.backend as! PostgreSQLBackend).listening)
        // (Silence is not asserted here: the other tests' stores share this database, and so its
        // channel. PostgreSQLFaultTests asserts it on a cluster of its own.)
    }

    /// A watch that ends stops listening (`stopWaitingForRemoteChanges`): the server no longer
    /// counts the idle session among the channel's listeners, and the next wait listens again
    /// and misses nothing committed meanwhile.
    @Test func aWaiterThatStopsWaitingListensNoMore() throws {
        let url = try TestStores.url(.postgresql)
        let mine = try DocumentStore(url: url).create("d")
        let theirs = try DocumentStore(url: url).open("d")
        let connection = (mine.store.backend as! PostgreSQLBackend).connection
        func channels() throws -> Int64 { try connection.execute("SELECT count(*)::int8 FROM pg_listening_channels()").int(0, 0) ?? -1 }
        _ = try mine.changeToken()
        #expect(try channels() == 1)
        try mine.stopWaitingForRemoteChanges()
        #expect(try channels() == 0)
        #expect(!(mine.store.backend as! PostgreSQLBackend).listening)
        try mine.stopWaitingForRemoteChanges()  // twice is harmless
        let token = try mine.changeToken()
        try theirs.perform(.add(ids: ["b"], spec: [], position: nil, parent: nil))
        #expect(try mine.waitForRemoteChange(after: token, timeout: 2) != token)
        #expect(try mine.catchUp().map(\.entry.seq) == [2])
    }

    /// A measurement, not a check (run with `STACKDOC_MEASURE_NOTIFY=1`; Benchmarks/RESULTS.md): a
    /// small edit's commit with and without the NOTIFY, as the store sends it (round trip 1:
    /// `BEGIN` with the version check; round trip 2: the writes, the NOTIFY and `COMMIT`), the two
    /// interleaved; then `perform` of a one-row `set` as the product runs it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STACKDOC_MEASURE_NOTIFY"] != nil))
    func measureTheNotifysCost() throws {
        let url = try TestStores.url(.postgresql)
        let store = try DocumentStore(url: url)
        let doc = try store.create("m")
        try doc.perform(.add(ids: ["a"], spec: [], position: nil, parent: nil))
        let connection = try PostgreSQLConnection(url: PostgreSQLURL(url)!)
        let id = doc.key.id
        func commit(notify: Bool) throws -> (micros: Double, trips: Int) {
            let trips = connection.roundTrips
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try connection.pipeline([PostgreSQLStatement("BEGIN"),
                                         PostgreSQLStatement("SELECT version FROM document WHERE id = $1 FOR UPDATE", [.int(id)])])
            var writes = [PostgreSQLStatement("UPDATE row SET size = 10 WHERE document = $1 AND id = 'a'", [.int(id)]),
                          PostgreSQLStatement("UPDATE document SET version = version + 1, modified = $2 WHERE id = $1", [.int(id), .double(1)])]
            if notify { writes.append(PostgreSQLStatement("SELECT pg_notify($1, $2)", [.text(PostgreSQLBackend.changeChannel), .text("\(doc.key.uid) 7")])) }
            writes.append(PostgreSQLStatement("COMMIT"))
            _ = try connection.pipeline(writes)
            return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1000, connection.roundTrips - trips)
        }
        func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
        var with: [Double] = [], without: [Double] = [], trips: Set<Int> = []
        for i in 0..<2000 {
            let (w, tw) = try commit(notify: i % 2 == 0)
            if i % 2 == 0 { with.append(w) } else { without.append(w) }
            trips.insert(tw)
        }
        try doc.reload()
        var performs: [Double] = []
        for i in 0..<500 {
            let start = DispatchTime.now().uptimeNanoseconds
            try doc.perform(.set(id: "a", spec: [.fixed(Double(i % 50))]))
            performs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        print("notify cost: round trips \(trips.sorted()); commit median with NOTIFY \(Int(median(with))) µs, without \(Int(median(without))) µs (1000 each); perform(set) median \(Int(median(performs))) µs (500)")
    }
}
