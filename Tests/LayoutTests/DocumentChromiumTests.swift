import Foundation
import Testing
@testable import Layout
import StackDocTestSupport

/// 300 random documents (nested stacks up to three deep, every justify/align/alignSelf, fixed
/// and fit sizes, own and default insets, margins incl. negative, grow, shrink, spacing, padding,
/// hidden rows, both axes; a leaf's content is an intrinsic box, issue 14) laid out by headless Chromium through an independent Python
/// re-implementation of the SPEC §2.3 mapping (scripts/oracle/random_documents.py 300 7; with
/// `--features`, document-chromium-features.json mixes in the row features of issue 14).
/// Every row's absolute frame and the content size must agree within 0.1 pt.
@Suite("Document layout: random documents against Chromium", .offThePool)
struct DocumentChromiumTests {
    struct Case: Decodable {
        let doc: Doc
        let contentSize: Size
        let frames: [String: Rect?]
        /// Every row's separator frame (null: none), in the fixtures made with `--separators`.
        let separators: [String: Rect?]?
    }

    struct Doc: Decodable {
        let name: String
        let axis: Axis
        let viewport: Size
        let padding: Edges
        let spacing: Double
        let justify: Justify
        let align: Align
        let defaults: Defaults
        let rows: [Row]
        /// Issue 14: top and left obscured edges (the sticky fixtures).
        let viewportInsets: Edges?
        /// Issue 33: the viewport's safe area (the safe-area fixtures).
        let safeArea: Edges?
    }

    struct Defaults: Decodable {
        let insets: Edges
        /// The document's separator and auto-hide (the separator fixtures; else the standard, on).
        let separator: SeparatorStyle?
        let autoHideLastSeparator: Bool?
    }

    struct Size0: Decodable { let fixed: Double }

    struct Stack: Decodable {
        let axis: Axis
        let justify: Justify
        let align: Align
        let spacing: Double
        let rows: [Row]
    }

    struct Row: Decodable {
        let id: String
        let size: Size0?
        let content: Size
        let insets: Edges?
        let margin: Edges?
        let grow: Double?
        let shrink: Double?
        let alignSelf: AlignSelf
        let hidden: Bool?
        let stack: Stack?
        let sticky: Bool?
        /// Issue 33: `sticky N` (the sticky fixtures).
        let stickyOffset: Double?
        /// Issue 33: a stack's default insets for its rows, `"T L B R"`.
        let rowInsets: String?
        /// Issue 33: a stack that scrolls on its own, at this offset (the scroller fixtures).
        let scrollOffset: Double?
        /// Issue 33: a stack's separator overrides for its rows, in SEPSPEC words.
        let rowSeparator: String?
        /// The row's own separator overrides (the separator fixtures).
        let separator: SeparatorOverrides?
        // Issue 14 (document-chromium-features.json only).
        let min: Double?
        let max: Double?
        let minCross: Double?
        let maxCross: Double?
        // Issue 14 (document-chromium-height-for-width.json only).
        let text: Text?
        let aspect: Size?

        var config: RowConfig {
            RowConfig(size: size.map { .fixed($0.fixed) } ?? .fit, content: content, insets: insets,
                      margin: margin ?? .zero, grow: grow ?? 0, shrink: shrink ?? 0, alignSelf: alignSelf,
                      hidden: hidden ?? false, separator: separator ?? SeparatorOverrides(),
                      stack: stack.map { StackSettings(axis: $0.axis, justify: $0.justify, align: $0.align, spacing: $0.spacing) },
                      sticky: sticky ?? false,
                      minMain: min, maxMain: max, minCross: minCross, maxCross: maxCross,
                      text: text.map { TextRun(count: $0.count, glyphWidth: $0.char ?? 8, lineHeight: $0.line ?? 20) },
                      aspect: aspect, stickyOffset: stickyOffset,
                      rowInsets: rowInsets.flatMap(TextRun.edges(words:)), scrollOffset: scrollOffset,
                      rowSeparator: rowSeparator.flatMap(SeparatorOverrides.init(words:)))
        }
    }

    struct Text: Decodable {
        let count: Int
        let char: Double?
        let line: Double?
    }

    static func document(_ d: Doc) throws -> Document {
        var s = DocumentSettings(axis: d.axis, viewport: d.viewport, padding: d.padding, spacing: d.spacing,
                                 justify: d.justify, align: d.align)
        s.defaults.insets = d.defaults.insets
        s.defaults.separator = d.defaults.separator ?? .standard
        s.defaults.autoHideLastSeparator = d.defaults.autoHideLastSeparator ?? true
        s.viewportInsets = d.viewportInsets ?? .zero
        s.safeArea = d.safeArea ?? .zero
        var doc = Document(name: d.name, settings: s)
        func insert(_ rows: [Row], in parent: RowID?) throws {
            for (i, row) in rows.enumerated() {
                try doc.insertRow(row.id, config: row.config, parent: parent, at: i)
                if let stack = row.stack { try insert(stack.rows, in: row.id) }
            }
        }
        try insert(d.rows, in: nil)
        return doc
    }

    /// Lays out every case of `resource` and compares; returns the number of rows compared.
    static func check(_ resource: String, documents: Int) throws -> Int {
        guard let url = Bundle.module.url(forResource: resource, withExtension: "json", subdirectory: "Fixtures") else {
            throw FixtureError("Fixtures/\(resource).json is missing from the test bundle")
        }
        return try check(url, named: resource, documents: documents)
    }

    /// Lays out every case of the fixture file at `url` (`documents` of them, nil: any number)
    /// and compares; returns the number of rows compared.
    static func check(_ url: URL, named resource: String, documents: Int?) throws -> Int {
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: url))
        if let documents { #expect(cases.count == documents) }
        var rowsCompared = 0, failedDocs: [String] = []
        for c in cases {
            let layout = try Self.document(c.doc).layout()
            var ok = close(Rect(x: 0, y: 0, width: layout.contentSize.width, height: layout.contentSize.height),
                           Rect(x: 0, y: 0, width: c.contentSize.width, height: c.contentSize.height), 0.1)
            #expect(layout.rows.count == c.frames.count, "\(c.doc.name)")
            for row in layout.rows {
                guard let expected = c.frames[row.id] else { ok = false; continue }
                rowsCompared += 1
                if !close(row.frame, expected, 0.1) {
                    ok = false
                    Issue.record("\(c.doc.name) \(row.id): \(String(describing: row.frame)) vs chromium \(String(describing: expected))")
                }
                if let separators = c.separators {
                    guard let expected = separators[row.id] else { ok = false; continue }
                    if !close(row.separator, expected, 0.1) {
                        ok = false
                        Issue.record("\(c.doc.name) \(row.id) separator: \(String(describing: row.separator)) vs chromium \(String(describing: expected))")
                    }
                }
            }
            if !ok { failedDocs.append(c.doc.name) }
        }
        #expect(failedDocs.isEmpty, "documents that disagree with Chromium: \(failedDocs)")
        print("document layout vs Chromium (\(resource)): \(cases.count - failedDocs.count)/\(cases.count) documents, \(rowsCompared) rows")
        return rowsCompared
    }

    /// Extra fixture files named in `DOCUMENT_FIXTURES` (colon-separated paths, e.g. a fresh
    /// `random_documents.py 400 78 OUT --height-for-width`); skipped when unset.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["DOCUMENT_FIXTURES"] != nil))
    func fixturesFromEnvironmentMatchChromium() throws {
        for path in (ProcessInfo.processInfo.environment["DOCUMENT_FIXTURES"] ?? "").split(separator: ":") {
            _ = try Self.check(URL(fileURLWithPath: String(path)), named: String(path), documents: nil)
        }
    }

    @Test func randomDocumentsMatchChromium() throws {
        #expect(try Self.check("document-chromium", documents: 300) == 2015)
    }

    /// `random_documents.py 200 14 … --features`: the same kinds of documents with the row
    /// features of issue 14 mixed in (min/max sizes along both axes).
    @Test func randomDocumentsWithTheNewFeaturesMatchChromium() throws {
        #expect(try Self.check("document-chromium-features", documents: 200) == 1312)
    }

    /// `random_documents.py 200 21 … --height-for-width`: the row features of issue 14 with
    /// text rows (wrapping glyph runs) and aspect ratios mixed in, on leaves at every depth,
    /// in stacks of both axes, stretched or not, with min/max sizes, grow and shrink.
    @Test func randomDocumentsWithTextAndAspectRatiosMatchChromium() throws {
        #expect(try Self.check("document-chromium-height-for-width", documents: 200) == 1399)
    }

    /// scripts/oracle/height-for-width-cases.json through `case_documents.py`: the edge cases
    /// of text and aspect rows (content narrower than one glyph, no glyphs, fit-content widths,
    /// text in horizontal and nested stacks and documents, aspect with min/max sizes, in
    /// horizontal stacks of definite and indefinite height; `aspectDefiniteHeightInARow`: a
    /// definite height's transferred width is the preferred width — flex base and min-/max-content
    /// contribution — and the content counts only through the automatic minimum; a stretched
    /// aspect row of a row of indefinite height is at least as tall as its content; width for
    /// height after a column flexes: `aspectRowAfterColumnFlex` (rand46 of seed 77 reduced: a
    /// horizontal stack `fixed 9 grow 1` is as wide as its stretched aspect row at its flexed
    /// height), `aspectRowsNestedAfterColumnFlex` (through a stretched horizontal stack, with
    /// insets and margins), `aspectRowFlexedInDefiniteColumn` (an `auto` height made definite by
    /// a definite column; stretched stacks keep their intrinsic width),
    /// `aspectRowShrinksInDefiniteColumn` (the automatic minimum height is measured at an
    /// indefinite height, so the stack shrinks); `aspectWidthKeepsContentInColumn` (rand68 of
    /// seed 79: a width transferred from a definite height is at least the content's, the
    /// automatic minimum, also as a column's intrinsic width); `aspectInStretchedRowOfAutoHeight`
    /// (rand51 of seed 78: a stretched stack's height is definite for its rows, §9.4 step 11)).
    @Test func heightForWidthCasesMatchChromium() throws {
        #expect(try Self.check("document-chromium-height-for-width-cases", documents: 18) == 102)
    }

    /// scripts/oracle/layout3-cases.json through `case_documents.py`: the defects an independent
    /// Chromium comparison found. An explicit min size along an aspect row's ratio-dependent
    /// axis replaces its automatic minimum (`min-cross` across a column and a row, `min` along a
    /// column); the content's automatic minimum beats a max transferred through the ratio
    /// (`max`, `max-cross`); `justify spaceBetween`, `spaceAround` and `spaceEvenly` round the
    /// distributed space once per item so that the gaps sum exactly to it (the last row of
    /// `spaceBetweenRemainder` ends flush at 506), halves away from zero; `center` truncates
    /// half the free space toward zero, positive or negative, as Chromium does.
    @Test func layoutThreeDefectCasesMatchChromium() throws {
        #expect(try Self.check("document-chromium-layout3-cases", documents: 13) == 46)
    }

    /// scripts/oracle/row-defaults-cases.json through `case_documents.py` (issue 33): stacks
    /// with default insets for their rows (`defaults insets T L B R in STACK`) — form fields
    /// whose label and value take 0 instead of the document's 12/15/12/15, a form whose default
    /// reaches the rows of nested stacks until one sets its own, a row with its own insets
    /// inside it, and a carousel of a horizontal document.
    @Test func rowDefaultsMatchChromium() throws {
        #expect(try Self.check("document-chromium-row-defaults-cases", documents: 3) == 23)
    }

    /// `random_documents.py 200 33 … --height-for-width --row-defaults`: the random documents
    /// with every row feature, whose stacks set default insets for their rows at random (0 or
    /// random edges), nested up to three deep.
    @Test func randomDocumentsWithRowDefaultsMatchChromium() throws {
        #expect(try Self.check("document-chromium-row-defaults", documents: 200) == 1462)
    }

    /// scripts/oracle/separator-defaults-cases.json through `case_documents.py --separators`
    /// (issue 33): stacks with separator defaults for their rows (`defaults separator SEPSPEC…
    /// in STACK`; CSS: an absolutely positioned box along the row's trailing edge, SPEC §2.4) —
    /// a form's full-width hairlines, a row's own overrides over them, a nested stack hiding
    /// them and a row there showing its own again; a horizontal carousel's vertical ones with
    /// auto-hide off; an inner stack's overrides laid over an outer one's, in both axes; a
    /// separator whose insets leave it no width. Every row's separator frame, and every frame.
    @Test func separatorDefaultsMatchChromium() throws {
        #expect(try Self.check("document-chromium-separator-defaults-cases", documents: 3) == 33)
    }

    /// `random_documents.py 200 3305 … --height-for-width --row-defaults --separators` (issue
    /// 33): those documents with a random default separator and auto-hide, rows with their own
    /// overrides and stacks with separator defaults for their rows, nested up to three deep:
    /// every frame and every row's separator frame (614 shown).
    @Test func randomDocumentsWithSeparatorDefaultsMatchChromium() throws {
        #expect(try Self.check("document-chromium-separators", documents: 200) == 1292)
    }

    /// `random_documents.py 200 3304 … --height-for-width --row-defaults --safe-area --sticky`
    /// (issue 33): those documents, most with a safe area (its leading edge along the axis is the
    /// root's padding, SPEC §2.5) and sticky rows with sticky offsets (which move nothing in flow).
    @Test func randomDocumentsWithASafeAreaMatchChromium() throws {
        #expect(try Self.check("document-chromium-safe-area", documents: 200) == 1442)
    }
}
