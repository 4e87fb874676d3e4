import Foundation
import GRDB
import Layout
@testable import Store
import Testing
import StackDocTestSupport

/// One list of config columns (`ColumnCoding.configColumns`: `size` and `fields`, migrations/0016)
/// that `values`, `bind`, `readConfig` and the bulk paths write and read.
@Suite(.offThePool) struct ColumnTableTests {
    /// The derived list names exactly the config columns of `row`, in order, and `row` is the
    /// only table with row columns (migration 0005 folded `import_row` into it).
    @Test func tableMatchesTheSchema() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "c.sqlite").path
        _ = try DocumentStore(path: path)
        let (names, tables) = try DatabaseQueue(path: path).read { db in
            (try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('row') ORDER BY cid"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
        }
        #expect(names.prefix(4) == ["document", "parent", "order_key", "id"])
        // Every config column once (statements name their columns, so the schema's order is free).
        #expect(Array(names.dropFirst(4)).sorted() == ColumnCoding.configColumns.sorted())
        #expect(Set(ColumnCoding.configColumns).count == ColumnCoding.configColumns.count)
        #expect(tables == ["document", "grdb_migrations", "import_image", "log", "open_group", "row", "snapshot", "step"])
        #expect(ColumnCoding.values(RowConfig()).count == ColumnCoding.configColumns.count)
    }

    /// Configs with every field set, unset and at its edge come back equal through both write
    /// paths (`values` for single edits, `bind` for bulk imports) and `readConfig`, after a reopen.
    @Test func everyFieldRoundTrips() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appending(path: "r.sqlite").path
        let configs: [RowConfig] = [
            RowConfig(),
            RowConfig(type: "card", size: .fixed(12.5), content: Size(width: 3, height: 0.1),
                      insets: Edges(top: 1, left: 2, bottom: 3, right: 4), margin: Edges(top: 0.5, left: 0, bottom: 0, right: 1e-9),
                      grow: 2, shrink: 0.25, alignSelf: .center, hidden: true,
                      separator: SeparatorOverrides(hidden: false, insets: .zero, thickness: 0, color: "#A0B1C2")),
            RowConfig(separator: SeparatorOverrides(hidden: true)),
            RowConfig(stack: StackSettings(axis: .horizontal, justify: .spaceBetween, align: .end, spacing: 7)),
            RowConfig(insets: .zero, stack: StackSettings()),
            RowConfig(size: .fixed(20), sticky: true),
            RowConfig(hidden: true, stack: StackSettings(axis: .horizontal), sticky: true),
        ]
        var document = Document(name: "bulk")
        for (i, config) in configs.enumerated() { try document.insertRow("r\(i)", config: config, parent: nil, at: i) }
        do {
            let store = try DocumentStore(path: path)
            try store.importDocument(document)
            let doc = try store.create("single")
            for (i, config) in configs.enumerated() {
                try doc.perform(.set(id: "x", spec: []), changes: [.insertRow(id: "r\(i)", config: RowConfig(), parent: nil, index: i)])
                try doc.perform(.set(id: "x", spec: []), changes: [.updateRow(id: "r\(i)", old: RowConfig(), new: config)])
            }
        }
        let store = try DocumentStore(path: path)
        for name in ["bulk", "single"] {
            let loaded = try store.open(name).document
            for (i, config) in configs.enumerated() { #expect(loaded.config(of: "r\(i)") == config, "\(name) r\(i)") }
        }
    }
}
