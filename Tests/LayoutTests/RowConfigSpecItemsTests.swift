import Testing
import Layout
import OrderStatistics
import StackDocTestSupport

/// `RowConfig.specItems` (the ROWSPEC `log export` writes for each row of an import block) gives
/// a fresh row exactly the config, for every field: it walks the fields the saved format's
/// writer walks (`forEachField`), and the sample that sets every field is checked to set every
/// field of the model (issue 35 item 1: the block left `sticky` out).
@Suite(.offThePool) struct RowConfigSpecItemsTests {
    @Test func theSampleSetsEveryField() {
        // A field added to `RowConfig` (or to its stack settings or separator overrides) fails
        // this until `EveryRowField.config` sets it; the round trips below then carry it.
        #expect(EveryRowField.unsetFields(EveryRowField.config) == [])
        #expect(EveryRowField.unsetFields(RowConfig()).count > 20)
    }

    @Test func forEachFieldVisitsTheTableInOrder() {
        var visited: [RowField] = []
        EveryRowField.config.forEachField { field, _ in visited.append(field) }
        #expect(visited == RowField.allCases)
        #expect(EveryRowField.config.jsonMembers(stackRows: nil).map(\.key) == RowField.allCases.map(\.spec.json))
    }

    @Test func specItemsGiveTheConfigBack() throws {
        var document = Document(name: "d")
        try EveryRowField.appendRows(to: &document)
        var configs: [RowConfig] = [RowConfig(), RowConfig(sticky: true)]
        document.forEachRow { _, _, _, c in configs.append(c) }
        // Random rows of every ROWSPEC word, as the planner makes them.
        var edits = DocumentEdits(rng: SplitMix64(seed: 35))
        for _ in 0..<400 {
            let edit = Edit.add(ids: [edits.freshID(in: document)], spec: edits.spec(), position: nil, parent: edits.parent(in: document))
            if let changes = try? document.plan(edit) { try document.apply(changes) }
        }
        document.forEachRow { _, _, _, c in configs.append(c) }
        #expect(configs.count > 300)
        for c in configs {
            // (Colours are stored upper case, as the planner and the importer store them.)
            var stored = c
            stored.background = c.background?.uppercased()
            stored.highlight = c.highlight?.uppercased()
            stored.separator.color = c.separator.color?.uppercased()
            #expect(try RowConfig().applying(c.specItems) == stored, "\(c.specItems)")
        }
        #expect(EveryRowField.config.specItems.contains(.sticky(true)))
    }
}
