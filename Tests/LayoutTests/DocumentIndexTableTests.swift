import Testing
@testable import Layout

/// `DocumentIndexTable.build` (the bulk fill of a loaded document's or a fresh layout's index)
/// gives a table that finds every value and then behaves as one filled insert by insert; a
/// duplicate key is named and leaves the table empty.
@Suite struct DocumentIndexTableTests {
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
}
