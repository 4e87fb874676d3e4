import Testing
import OrderStatistics
@testable import Layout
import StackDocTestSupport

/// The bulk loader (`DocumentLoader`, what a snapshot image decodes through) gives exactly the
/// document its rows describe, below and above the size at which it builds the stacks' order
/// trees on a helper thread (`DocumentLoader.helperRows`), and refuses bad rows on both paths.
@Suite(.offThePool) struct DocumentLoaderTests {
    /// `document` fed to a loader in document order, one style per distinct rest of a config.
    static func load(_ document: Document, edit: (inout DocumentLoader.Rows) -> Void = { _ in }) -> Result<Document, DocumentLoader.Failure> {
        var loader = DocumentLoader(name: document.name, settings: document.settings, rows: document.rowCount)
        var styles: [RowConfig: Int32] = [:]
        var rows = DocumentLoader.Rows(capacity: document.rowCount)
        var rowNumber: [RowID: Int32] = [:]
        document.forEachRow { id, parent, _, config in
            var rest = config
            rest.size = .fit
            rest.content = .zero
            rest.hidden = false
            let style: Int32
            if let known = styles[rest] {
                style = known
            } else {
                style = Int32(loader.styleCount)
                let added = loader.addStyle(rest)
                #expect(added)
                styles[rest] = style
            }
            var flags: UInt8 = config.hidden ? DocumentLoader.Rows.hidden : 0
            var size = 0.0
            switch config.size {
            case .fit: flags |= DocumentLoader.Rows.fit
            case .fixed(let n): size = n
            }
            rowNumber[id] = Int32(rows.count)
            rows.append(id, parent: parent.map { rowNumber[$0]! } ?? -1, size: size, content: config.content, flags: flags, style: style)
        }
        edit(&rows)
        return loader.finish(rows)
    }

    /// A document of `count` rows: root rows, stacks every 50 rows holding the next rows, a
    /// stack inside a stack, hidden and fit rows.
    static func nested(count: Int) throws -> Document {
        var document = Document(name: "nested")
        var stack = RowConfig(size: .fit)
        stack.stack = StackSettings(axis: .horizontal, spacing: 2)
        var parent: RowID?
        for i in 0..<count {
            if i % 50 == 0 {
                try document.appendRow("s\(i)", config: stack, parent: i % 150 == 0 ? nil : parent)
                parent = "s\(i)"
            } else {
                try document.appendRow("r\(i)", config: RowConfig(size: i % 7 == 0 ? .fit : .fixed(Double(i % 40)), hidden: i % 5 == 0),
                                       parent: i % 3 == 0 ? nil : parent)
            }
        }
        return document
    }

    @Test func loadsGiveTheDocumentBelowAndAboveTheHelperSize() throws {
        var rng = SplitMix64(seed: 15)
        for length in [0, 1, 30, 200] {
            var document = Document(name: "random")
            for _ in 0..<length {
                let (_, changes) = RandomOps.edit(for: document, rng: &rng)
                try document.apply(changes)
            }
            let loaded = try Self.load(document).get()
            #expect(loaded == document)
            #expect(loaded.rows.orderInvariantViolation() == nil)
        }
        for count in [DocumentLoader.helperRows - 1, DocumentLoader.helperRows + 1000] {
            let document = try Self.nested(count: count)
            let loaded = try Self.load(document).get()
            #expect(loaded == document, "\(count) rows")
            #expect(loaded.rows.orderInvariantViolation() == nil)
            #expect(loaded.exportJSON() == document.exportJSON())
        }
    }

    @Test func badRowsAreRefusedOnBothPaths() throws {
        for count in [200, DocumentLoader.helperRows + 1000] {
            let document = try Self.nested(count: count)
            // Row 10 names itself as its stack; then a later row as its stack; then a row that is not a stack.
            for (parent, label) in [(Int32(10), "itself"), (Int32(11), "a later row"), (Int32(1), "not a stack")] {
                let result = Self.load(document) { rows in
                    var copy = DocumentLoader.Rows(capacity: rows.count)
                    for i in 0..<rows.count {
                        copy.append(rows.ids[i], parent: i == 10 ? parent : rows.parents[i], size: rows.sizes[i], content: rows.contents[i],
                                    flags: rows.flags[i], style: rows.styles[i])
                    }
                    rows = copy
                }
                guard case .failure(.invalidRow(index: 10, _)) = result else {
                    Issue.record("\(count) rows, parent \(label): \(result)")
                    continue
                }
            }
            let duplicate = Self.load(document) { rows in
                var copy = DocumentLoader.Rows(capacity: rows.count)
                for i in 0..<rows.count {
                    copy.append(i == rows.count - 1 ? rows.ids[1] : rows.ids[i], parent: rows.parents[i], size: rows.sizes[i],
                                content: rows.contents[i], flags: rows.flags[i], style: rows.styles[i])
                }
                rows = copy
            }
            guard case .failure(.duplicateID("r1")) = duplicate else {
                Issue.record("\(count) rows, a second 'r1': \(duplicate)")
                continue
            }
        }
    }
}
