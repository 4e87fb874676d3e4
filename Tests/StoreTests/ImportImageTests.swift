import Foundation
import GRDB
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// The rows an import entry brought in are one image in `import_image` (migration 0013), not a
/// second copy of every row in `row`; replay, `importedDocument(at:)`, time travel and `verify`
/// read it, and a damaged one is a corrupt file, never a silently different history.
@Suite(.offThePool) struct ImportImageTests {
    func imported(_ path: String, snapshots: SnapshotPolicy = SnapshotPolicy()) throws -> (StoredDocument, Document) {
        var d = Document(name: "imp", settings: DocumentSettings(spacing: 2))
        try d.appendRow("s", config: RowConfig(stack: StackSettings(axis: .horizontal, spacing: 1)), parent: nil)
        for i in 0..<200 {
            try d.appendRow("r\(i)", config: RowConfig(size: i % 7 == 0 ? .fit : .fixed(Double(i % 30)), hidden: i % 11 == 0),
                            parent: i % 4 == 0 ? "s" : nil)
        }
        let doc = try DocumentStore(path: path, options: StoreOptions(snapshots: snapshots)).importDocument(d)
        return (doc, d)
    }

    @Test func importWritesItsRowsOnceAndEveryReaderFindsThem() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "i.sqlite").path
        // No snapshots: replay and time travel must start from the import's own image.
        let (doc, original) = try imported(path, snapshots: .off)
        let counts = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM row")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM import_image")!)
        }
        #expect(counts == (original.rowCount, 1))
        for i in 0..<4 { try doc.perform(.set(id: "r\(i * 5)", spec: [.fixed(Double(50 + i))])) }
        try doc.perform(.remove(ids: ["r1"]))
        let reopened = try DocumentStore(path: path, options: StoreOptions(snapshots: .off)).open("imp")
        #expect(reopened.document == doc.document)
        #expect(try reopened.importedDocument(at: 1) == original)
        #expect(try reopened.document(afterEntry: 1) == original)
        #expect(try reopened.replayed() == doc.document)
        #expect(try reopened.verify(replan: true) == [])
    }

    @Test func aDamagedOrForeignImportImageIsACorruptFile() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "d.sqlite").path
        let (doc, _) = try imported(path)
        try doc.perform(.set(id: "r3", spec: [.fixed(9)]))
        let sound = try DatabaseQueue(path: path).read { db in try Data.fetchOne(db, sql: "SELECT image FROM import_image")! }
        var flipped = sound
        flipped[flipped.count / 2] ^= 0x40
        var foreign = Data(SnapshotImage.encode(try DocumentStore(path: path).open("imp").importedDocument(at: 1),
                                                uid: "someone-else", version: 1, seq: 1))
        for (image, expected) in [(flipped, "checksum mismatch"), (foreign, "it is of document someone-else")] {
            try Tamper.sql(path, "UPDATE import_image SET image = x'\(image.map { String(format: "%02x", $0) }.joined())'")
            let opened = try DocumentStore(path: path).open("imp")
            // Opening reads the snapshot, not the import; every history read reports the damage.
            #expect(opened.document == doc.document)
            for read in [{ _ = try opened.importedDocument(at: 1) }, { _ = try opened.replayed() }] {
                #expect {
                    try read()
                } throws: { error in
                    let message = "\(error)"
                    return message.contains("corrupt") && message.contains("the rows of import entry 1 cannot be read") && message.contains(expected)
                }
            }
        }
        foreign = sound
        try Tamper.sql(path, "UPDATE import_image SET image = x'\(foreign.map { String(format: "%02x", $0) }.joined())'")
        #expect(try DocumentStore(path: path).open("imp").verify(replan: true) == [])
    }
}
