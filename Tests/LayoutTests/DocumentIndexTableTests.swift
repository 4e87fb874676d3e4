import Testing
@testable import Layout
import StackDocTestSupport

/// `DocumentIndexTable.build` (the bulk fill of a loaded document's or a fresh layout's index)
/// gives a table that finds every value and then behaves as one filled insert by insert; a
/// duplicate key is named and leaves the table empty.
@Suite(.offThePool) struct DocumentIndexTableTests {
    @Test(arguments: [0, 1, 7, 100, 5000, 70_000])
    func bulkBuildFindsEveryValueAndKeepsWorking(count: Int) {
        var ids = (0..<count).map { "r\($0 * 7919 % max(count, 1))x\($0)" }
        var table = DocumentIndexTable()
        let fixed = ids
        let duplicate = table.build(count: count, hashOf: { DocumentIndexTable.hash(fixed[Int($0)]) },
                                    isEqual: { fixed[Int($0)] == fixed[Int($1)] })
        #expect(duplicate == nil)
        #expect(table.count == count)
        func find(_ id: String) -> Int32? { table.find(hash: DocumentIndexTable.hash(id)) { ids[Int($0)] == id } }
        for (v, id) in ids.enumerated() { #expect(find(id) == Int32(v)) }
        #expect(find("absent") == nil)
        // Removals (backward shift) and inserts after a bulk build keep every other value found.
        for v in stride(from: 0, to: count, by: 3) {
            table.remove(Int32(v), hash: DocumentIndexTable.hash(fixed[v]), hashOf: { DocumentIndexTable.hash(fixed[Int($0)]) })
        }
        ids.append("new")
        let grown = ids
        table.insert(Int32(count), hash: DocumentIndexTable.hash("new"), hashOf: { DocumentIndexTable.hash(grown[Int($0)]) })
        for (v, id) in ids.enumerated() {
            let expected: Int32? = v < count && v % 3 == 0 ? nil : Int32(v)
            #expect(find(id) == expected, "\(id)")
        }
    }

    @Test func bulkBuildNamesADuplicateAndStaysEmpty() {
        let ids = ["a", "b", "c", "b", "d"]
        var table = DocumentIndexTable()
        let duplicate = table.build(count: ids.count, hashOf: { DocumentIndexTable.hash(ids[Int($0)]) },
                                    isEqual: { ids[Int($0)] == ids[Int($1)] })
        #expect(duplicate.map { ids[Int($0)] } == "b")
        #expect(table.count == 0)
        #expect(table.find(hash: DocumentIndexTable.hash("a")) { ids[Int($0)] == "a" } == nil)
    }

    /// Colliding hashes (the bulk build is given the 32 low bits of each hash and compares them,
    /// kept beside the buckets, before the keys): values whose hashes are equal, or equal in
    /// their low 32 bits only, are all found by their whole hashes when their keys differ, and
    /// a duplicate among them is named.
    @Test func bulkBuildTellsCollidingHashesApart() {
        let keys = (0..<3000).map { "k\($0)" }
        // Hash of key i: one of 4 full hashes, or one of 4 low halves with different high bits.
        let hashes = keys.indices.map { i in i % 2 == 0 ? (i % 8) * 0x1234_5677 : ((i % 16) << 40) | 0x5A5A }
        var table = DocumentIndexTable()
        #expect(table.build(hashes: hashes.map { UInt32(truncatingIfNeeded: $0) }, isEqual: { keys[Int($0)] == keys[Int($1)] }) == nil)
        #expect(table.count == keys.count)
        for (v, key) in keys.enumerated() {
            #expect(table.find(hash: hashes[v]) { keys[Int($0)] == key } == Int32(v), "\(key)")
        }
        var withDuplicate = keys
        withDuplicate[2999] = "k1001"  // the key of value 1001 again, under its hash
        var hashesWithDuplicate = hashes
        hashesWithDuplicate[2999] = hashes[1001]
        var second = DocumentIndexTable()
        let duplicate = second.build(hashes: hashesWithDuplicate.map { UInt32(truncatingIfNeeded: $0) }, isEqual: { withDuplicate[Int($0)] == withDuplicate[Int($1)] })
        #expect(duplicate.map { withDuplicate[Int($0)] } == "k1001")
        #expect(second.count == 0)
    }
}

