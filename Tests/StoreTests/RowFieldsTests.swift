import Foundation
import Layout
import OrderStatistics
@testable import Store
import StackDocTestSupport
import Testing

/// A damaged `row.fields` blob in a file (the codec alone: StoreFormatTests' `RowFieldsTests`).
@Suite(.offThePool) struct RowFieldsStoreTests {

    /// A damaged blob in a file: opening the document is refused as a corrupt file, naming the
    /// document and the row.
    @Test func aDamagedBlobInAFileIsNamed() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "f.sqlite").path
        var document = Document(name: "d")
        for i in 0..<20 { try document.appendRow("r\(i)", config: RowConfig(type: "cell", size: .fixed(9)), parent: nil) }
        _ = try DocumentStore(path: path).importDocument(document)
        for (damage, why) in [("X'04'", "the blob ends early"), ("X'0100'", "1 bytes after its end"), ("'text'", "not a BLOB"), ("X'40'", "flags 64")] {
            // No snapshot: the rows are what opening reads.
            try Tamper.sql(path, "DELETE FROM snapshot; UPDATE row SET fields = \(damage) WHERE id = 'r5'")
            #expect {
                _ = try DocumentStore(path: path).open("d")
            } throws: { error in
                let message = (error as? UserFacingError)?.message ?? ""
                return message.contains("database '\(path)' is corrupt: document 'd': row 'r5': its fields are damaged (") && message.contains(why)
            }
        }
        try Tamper.sql(path, "UPDATE row SET fields = \(Schema.rowFieldsLiteral(RowConfig(type: "cell"))) WHERE id = 'r5'")
        #expect(try DocumentStore(path: path).open("d").document == document)
    }
}
