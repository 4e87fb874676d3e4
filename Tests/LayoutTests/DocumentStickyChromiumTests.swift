import Foundation
import Testing
@testable import Layout
import StackDocTestSupport

/// Issue 14 item 4 (SPEC §2.7): sticky rows where headless Chromium shows them after scrolling.
/// 60 documents × 4 offsets (scripts/oracle/sticky_documents.py 60 14): random documents of
/// every flex feature with random sticky rows (nested, in both axes, inside stacks of either
/// axis), section lists whose sticky headers are pushed out by the end of their section, and
/// top/left obscured insets. Every row's shown frame (its frame moved by sticky shifts), the
/// content size and the clamped offset must agree within 0.1 pt.
@Suite("Sticky rows against Chromium", .offThePool)
struct DocumentStickyChromiumTests {
    struct Case: Decodable {
        let doc: DocumentChromiumTests.Doc
        let offset: Double
        let contentSize: Size
        let shown: [String: Rect?]
    }

    static func cases(_ resource: String = "document-sticky-chromium") throws -> [Case] {
        guard let url = Bundle.module.url(forResource: resource, withExtension: "json", subdirectory: "Fixtures") else {
            throw FixtureError("Fixtures/\(resource).json is missing from the test bundle")
        }
        return try JSONDecoder().decode([Case].self, from: Data(contentsOf: url))
    }

    @Test func stickyRowsMatchChromium() throws {
        let (compared, stuck) = try Self.check(Self.cases())
        #expect(compared == 2152)
        #expect(stuck > 100, "the fixtures exercise stuck rows")
    }

    /// Issue 33 (SPEC §2.7, `sticky N`): 60 documents × 4 offsets
    /// (scripts/oracle/sticky_documents.py 60 33 … --offsets): the random sticky documents with
    /// sticky offsets (4, 20, 44, 60.5) on most sticky rows, and screens of sections under a
    /// sticky navigation bar whose headers stick below the bar (`sticky 44`, `sticky 50`), in
    /// both axes, with obscured top/left insets at random.
    @Test func stickyOffsetsMatchChromium() throws {
        let cases = try Self.cases("document-sticky-offset-chromium")
        let withOffsets = cases.filter { c in
            func any(_ rows: [DocumentChromiumTests.Row]) -> Bool {
                rows.contains { ($0.stickyOffset ?? 0) > 0 || any($0.stack?.rows ?? []) }
            }
            return any(c.doc.rows)
        }
        #expect(withOffsets.count > 100, "the fixtures exercise sticky offsets")
        let (compared, stuck) = try Self.check(cases)
        #expect(compared == 2492)
        #expect(stuck > 100, "the fixtures exercise stuck rows")
    }

    /// Issue 33 (SPEC §2.5, the safe area): 60 documents × 4 offsets
    /// (scripts/oracle/sticky_documents.py 60 3303 … --offsets --safe-area): the sticky-offset
    /// documents, most with a safe area (a status bar and a home indicator, a landscape notch)
    /// and some with obscured insets on every edge besides. The first rows rest below the safe
    /// area's leading edge, sticky rows stick below the larger top edge, and the largest offset
    /// ends the content at the larger trailing edge (Chromium: the scroller's padding).
    @Test func theSafeAreaMatchesChromium() throws {
        let cases = try Self.cases("document-safe-area-chromium")
        let safe = cases.filter { ($0.doc.safeArea ?? .zero) != .zero }
        #expect(safe.count > 200, "the fixtures exercise the safe area")
        #expect(safe.filter { $0.offset > 0 }.count > 100, "and scroll it")
        let (compared, stuck) = try Self.check(cases)
        #expect(compared == 2520)
        #expect(stuck > 100, "the fixtures exercise stuck rows")
    }

    /// Compares every case's shown frames, content size and offset with Chromium's; returns the
    /// rows compared and the stuck ones among them.
    static func check(_ cases: [Case]) throws -> (compared: Int, stuck: Int) {
        #expect(cases.count == 240)
        var compared = 0, stuck = 0, failed: [String] = []
        for c in cases {
            var doc = try DocumentChromiumTests.document(c.doc)
            doc.settings.offset = c.offset
            let layout = doc.layout()
            var ok = abs(layout.offset - c.offset) <= 0.1
                && close(Rect(x: 0, y: 0, width: layout.contentSize.width, height: layout.contentSize.height),
                         Rect(x: 0, y: 0, width: c.contentSize.width, height: c.contentSize.height), 0.1)
            #expect(layout.rows.count == c.shown.count, "\(c.doc.name)")
            for (i, row) in layout.rows.enumerated() {
                guard let expected = c.shown[row.id] else { ok = false; continue }
                compared += 1
                if layout.displaced[row.id]?.stuck == true { stuck += 1 }
                let shown = layout.shownFrame(at: i)
                if !close(shown, expected, 0.1) {
                    ok = false
                    Issue.record("\(c.doc.name) at \(c.offset) \(row.id): \(String(describing: shown)) vs chromium \(String(describing: expected))")
                }
            }
            // The same layout reached by scrolling another one (no relayout) is equal.
            var other = doc
            other.settings.offset = 0
            #expect(other.layout().atOffset(c.offset) == layout, "\(c.doc.name) at \(c.offset)")
            if !ok { failed.append("\(c.doc.name)@\(c.offset)") }
        }
        #expect(failed.isEmpty, "cases that disagree with Chromium: \(failed)")
        print("sticky rows vs Chromium: \(cases.count - failed.count)/\(cases.count) cases, \(compared) rows, \(stuck) stuck")
        return (compared, stuck)
    }
}
