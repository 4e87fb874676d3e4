import Foundation
import Testing
import Layout
import Store
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Issue 11 item 4: plain `layout` and `export svg` are written a block of rows at a time from
/// the live layout, never from a whole `DocumentLayout` or a whole output text; what they write
/// is what the whole layout renders to.
@Suite(.offThePool) struct LayoutListingTests {
    /// More rows than two blocks: root rows (some hidden, some taller), and every 40th a
    /// stack of three rows, one of them hidden; ids of growing length, so a later block has
    /// wider cells than the first.
    static func document(rootRows: Int = 9_000) -> Document {
        var doc = Document(name: "big", settings: DocumentSettings(viewport: Size(width: 390, height: 844)))
        for i in 0..<rootRows {
            let id = i < 5_000 ? "r\(i)" : "row-with-a-longer-id-\(i)"
            if i % 40 == 7 {
                try? doc.appendRow(id, config: RowConfig(stack: StackSettings(axis: .horizontal)), parent: nil)
                for k in 0..<3 {
                    try? doc.appendRow("\(id).\(k)", config: RowConfig(size: .fixed(30), grow: 1, hidden: k == 2), parent: id)
                }
            } else {
                try? doc.appendRow(id, config: RowConfig(size: .fixed(Double(20 + i % 9 * 10)), hidden: i % 53 == 0), parent: nil)
            }
        }
        return doc
    }

    static func session() throws -> Session {
        let session = try Session(document: document())
        // Scrolled into the middle, so rows of every visibility are listed.
        _ = try session.run(.edit(.scroll(.to("r2000", .middle))))
        return session
    }

    @Test func jsonAndCSVAreTheWholeLayoutsWrittenABlockAtATime() throws {
        let session = try Self.session()
        let full = try session.open().document.layout()
        #expect(full.rows.count > 2 * LayoutListing.blockSize)
        let result = try session.run(.layout(LayoutSelection()))
        guard case .wholeLayout(let listing) = result else {
            Issue.record("plain layout must list from the live layout, got \(result)")
            return
        }
        var pieces: [[UInt8]] = []
        listing.writeJSON { pieces.append($0) }
        #expect(pieces.count == 1 + (full.rows.count + LayoutListing.blockSize - 1) / LayoutListing.blockSize,
                "the header with the first block, one piece per further block, the closing")
        #expect(Array(pieces.joined()) == LayoutOutput.jsonBytes(full))
        var envelope: [UInt8] = []
        Envelope.write(command: "layout", result: result) { envelope += $0 }
        #expect(String(decoding: envelope, as: UTF8.self) == Envelope.success(command: "layout", result: .layout(full, rows: nil)))

        let csv = try session.run(.csv(.layout(LayoutSelection())))
        var csvPieces: [String] = []
        csv.writeText { csvPieces.append($0) }
        #expect(csvPieces.count > 2)
        #expect(csvPieces.joined(separator: "\n") == CommandResult.csv(.layout(full, rows: nil)).text)
    }

    /// The text table: the first block is aligned as the whole table of those rows would be;
    /// later blocks keep every column at least as wide (they widen for longer ids), and every
    /// line holds the same cells as the whole table's.
    @Test func textIsTheWholeTablesCellsAndColumnsNeverNarrow() throws {
        let session = try Self.session()
        let full = try session.open().document.layout()
        var pieces: [String] = []
        try session.run(.layout(LayoutSelection())).writeText { pieces.append($0) }
        let lines = pieces.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        let whole = LayoutOutput.table(full).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == whole.count)
        func cells(_ line: Substring) -> [Substring] { line.split(separator: " ", omittingEmptySubsequences: true) }
        for (a, b) in zip(lines, whole) { #expect(cells(a) == cells(b)) }
        #expect(lines.last == whole.last, "the footer line")
        // The first piece: the header and the first block's rows, as the whole table of them.
        var first = full
        first.rows = Array(full.rows.prefix(LayoutListing.blockSize))
        let firstTable = LayoutOutput.table(first).split(separator: "\n").dropLast().joined(separator: "\n")
        #expect(pieces[0] == firstTable)
        // Where a column's cells start never moves left from one block to the next.
        let idColumn = { (line: Substring) in line.distance(from: line.startIndex, to: line.firstIndex(where: { $0 != " " && !$0.isNumber }) ?? line.endIndex) }
        #expect(idColumn(lines[1]) <= idColumn(lines[lines.count - 2]))
        #expect(lines[lines.count - 2].contains("row-with-a-longer-id-"))
    }

    /// A small document prints exactly what the whole table does (the golden scripts' case).
    @Test func aSmallLayoutIsOnePieceAndTheWholeTable() throws {
        let session = try Session(document: Self.document(rootRows: 30))
        let full = try session.open().document.layout()
        var pieces: [String] = []
        try session.run(.layout(LayoutSelection())).writeText { pieces.append($0) }
        #expect(pieces.joined(separator: "\n") == LayoutOutput.table(full))
        #expect(pieces.count == 2, "the table, then the footer")
        let empty = try Session(document: Document(name: "empty"))
        var emptyPieces: [String] = []
        try empty.run(.layout(LayoutSelection())).writeText { emptyPieces.append($0) }
        #expect(emptyPieces.joined(separator: "\n") == LayoutOutput.table(try empty.open().document.layout()))
    }

    /// `rows` (issue 15 notes: it built its whole table at 1M) is written a block of rows at a
    /// time, from the document: JSON and CSV are the whole result's bytes, the text table has the
    /// whole table's cells with columns that never narrow, its first piece is the whole table of
    /// the first block; `rows --at` lists the past document so too.
    @Test func rowsAreWrittenABlockAtATime() throws {
        let session = try Self.session()
        let document = try session.open().document
        let result = try session.run(.rows)
        guard case .rows(let listing) = result else {
            Issue.record("rows must list a block at a time, got \(result)")
            return
        }
        let entries = listing.entries
        #expect(entries.count == document.rowCount && entries.count > 2 * RowListing.blockSize)
        var depth: [RowID: Int] = [:]
        for e in entries {
            #expect(document.parent(of: e.id) == .some(e.parent) && document.index(of: e.id) == e.index && document.config(of: e.id) == e.config)
            #expect(e.depth == e.parent.map { depth[$0]! + 1 } ?? 0)
            depth[e.id] = e.depth
        }
        let blocks = (entries.count + RowListing.blockSize - 1) / RowListing.blockSize

        var json: [[UInt8]] = []
        listing.writeJSON { json.append($0) }
        #expect(json.count == blocks + 1, "one piece per block, then the closing")
        #expect(Array(json.joined()) == Array(JSONWriter.compact(.array(entries.map { .object(CommandResult.configMembers($0).map { JSONMember($0.0, $0.1) }) })).utf8))
        #expect(Envelope.success(command: "rows", result: result).hasPrefix(#"{"ok":true,"command":"rows","result":[{"id":"r0","#))

        var text: [String] = []
        result.writeText { text.append($0) }
        #expect(text.count == blocks)
        var whole = TextTable(RowListing.tableHeaders, rightAligned: [2, 8, 9])
        for e in entries { whole.add(RowListing.tableCells(e)) }
        let wholeLines = whole.rendered.split(separator: "\n")
        let lines = text.joined(separator: "\n").split(separator: "\n")
        #expect(lines.count == wholeLines.count)
        func cells(_ line: Substring) -> [Substring] { line.split(separator: " ", omittingEmptySubsequences: true) }
        for (a, b) in zip(lines, wholeLines) where cells(a) != cells(b) {
            Issue.record("\(a) ≠ \(b)")
            break
        }
        var first = TextTable(RowListing.tableHeaders, rightAligned: [2, 8, 9])
        for e in entries.prefix(RowListing.blockSize) { first.add(RowListing.tableCells(e)) }
        #expect(text[0] == first.rendered)

        var csv: [String] = []
        try session.run(.csv(.rows)).writeText { csv.append($0) }
        #expect(csv.count == blocks + 1)
        #expect(csv.joined(separator: "\n") == CommandResult.csvLines(RowListing.csvHeader, entries.map(RowListing.csvFields)))

        // --at: the document as it was before the scroll (entry 1: the import), listed alike.
        let past = try session.run(.at(.rows, .entry(1)))
        guard case .rows(let pastListing) = past else { Issue.record("rows --at must list too, got \(past)"); return }
        #expect(pastListing.rowCount == document.rowCount)
        #expect(try Session(document: Document(name: "e")).run(.rows).text == "(no rows)")
    }

    /// `export` to standard output is written about a megabyte of whole lines at a time: the
    /// pieces joined by line breaks are the one text `DocumentFormat.encode` makes.
    @Test func exportToStandardOutputIsWrittenInPiecesOfWholeLines() throws {
        let session = try Self.session()
        let result = try session.run(.export(path: nil))
        var pieces: [String] = []
        result.writeText { pieces.append($0) }
        #expect(pieces.count > 2, "a 9,000-row export is several megabytes")
        #expect(pieces.joined(separator: "\n") == result.text)
        #expect(pieces.dropLast().allSatisfy { !$0.hasSuffix("\n") }, "a piece never ends in a line break: `out` adds it")
        var small: [String] = []
        try Session(document: Self.document(rootRows: 3)).run(.export(path: nil)).writeText { small.append($0) }
        #expect(small.count == 1)
    }

    /// `export svg` draws from the live layout a block at a time: the same picture as from the
    /// whole layout, hidden rows counted past the hundred the legend lists.
    @Test(arguments: [false, true])
    func svgIsThePictureOfTheWholeLayout(viewportOnly: Bool) throws {
        let dir = try Scratch.directory("listing-svg")
        defer { Scratch.remove(dir) }
        let session = try Self.session()
        let path = dir + "/p.svg"
        _ = try session.run(.exportSVG(path: path, viewport: viewportOnly))
        let document = try session.open().document
        let expected = SVGPicture.render(document.layout(), document: document, viewportOnly: viewportOnly)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == expected)
        if !viewportOnly { #expect(written.contains("more</text>"), "over 100 hidden rows: the rest counted") }
    }
}
