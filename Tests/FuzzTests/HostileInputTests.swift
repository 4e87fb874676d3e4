import Foundation
import Layout
import Store
import Testing
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// A session on an in-memory database with document `h` (viewport 300 × 400) and rows a, b
/// (fixed 50) and stack s; `refused` checks a command's message and that nothing changed.
struct HostileSession {
    let store: DocumentStore
    let session: Session

    init() throws {
        store = try DocumentStore(path: ":memory:")
        session = Session(store: store, directory: NSTemporaryDirectory())
        for line in ["new h viewport 300 400", "add a b fixed 50", "add s stack vertical"] { try run(line) }
    }

    var document: Document { session.current!.document }

    @discardableResult
    func run(_ line: String) throws -> CommandResult {
        guard let command = try Parser.parse(line) else { throw StackDocError("blank line") }
        return try session.run(command)
    }

    /// `line` fails with a one-line message containing every one of `parts`; the document, its
    /// log and its history are as before, and the log still replays to the stored state.
    func refused(_ line: String, _ parts: String..., sourceLocation: SourceLocation = #_sourceLocation) throws {
        let doc = try #require(session.current)
        let before = doc.document, status = try doc.status()
        do {
            try run(line)
            Issue.record("accepted: \(line.prefix(100))", sourceLocation: sourceLocation)
        } catch let error as any UserFacingError {
            for part in parts { #expect(error.message.contains(part), "\(error.message)", sourceLocation: sourceLocation) }
            #expect(!error.message.contains("\n") && error.message.count < 500, "\(error.message.prefix(600))", sourceLocation: sourceLocation)
        }
        #expect(doc.document == before, sourceLocation: sourceLocation)
        #expect(try doc.status() == status, sourceLocation: sourceLocation)
        #expect(try doc.verify() == [], sourceLocation: sourceLocation)
    }

    /// The layout's frames, content frames and separators are all finite.
    func layoutIsFinite() -> Bool {
        let layout = document.layout()
        func ok(_ r: Rect?) -> Bool { r.map { $0.x.isFinite && $0.y.isFinite && $0.width.isFinite && $0.height.isFinite } ?? true }
        return layout.contentSize.width.isFinite && layout.contentSize.height.isFinite
            && layout.rows.allSatisfy { ok($0.frame) && ok($0.content) && ok($0.separator) && $0.percent.isFinite }
    }
}

/// Hostile values in commands (issue 6 item 2): one test per case; each gets a clear error or
/// the defined result documented in docs/hardening.md, never a trap.
@Suite(.longRunning) struct HostileCommandTests {
    @Test func idWithQuotes() throws {
        let h = try HostileSession()
        try h.refused(#"add "a'b""#, "invalid row id", #"'a\'b'"#)
        try h.refused(#"add 'x"y'"#, "invalid row id")
        try h.refused(#"add "unterminated"#, "quote")
    }

    @Test func idWithSemicolonsAndSQL() throws {
        let h = try HostileSession()
        try h.refused(#"add "a; DROP TABLE row; --""#, "invalid row id")
        try h.refused("add a;b", "invalid row id")
        try h.refused(#"new "x'; DROP TABLE document; --""#, "invalid document name")
        #expect(try h.store.documentNames() == ["h"])
    }

    @Test func idWithUnicode() throws {
        let h = try HostileSession()
        try h.refused("add ünïcödé", "invalid row id")
        try h.refused("add a😀", "invalid row id")
        try h.refused("add \"a\\u{0}\"", "invalid row id")
        try h.refused("add \"a\u{200B}\"", "invalid row id")
        // A query for a type no row can have finds nothing (it is not an error).
        #expect(try h.run("find type \"é\"").text.hasPrefix("(no rows of type"))
    }

    @Test func idOfTenThousandCharacters() throws {
        let h = try HostileSession()
        let long = String(repeating: "x", count: 10_000)
        try h.refused("add \(long)", "invalid row id", "…")
        // Regression: `row` quoted the whole id in its message (10k characters, and a newline in
        // an id broke the one-line rule); it is cut and escaped like every other message now.
        try h.refused("row \(long)", "no row 'xxxx", "…")
        try h.refused(#"row "new\nline""#, #"no row 'new\nline'"#)
        // Regression: the parser quoted bad words whole ("unknown command 'xxx…10k'",
        // "expected a number, got 'xxx…'"); they are cut and escaped now.
        try h.refused(long, "unknown command 'xxxx", "…")
        try h.refused("add c fixed \(long)", "'xxxx", "…")
        try h.refused("add c fixed 1 \"a\\nb\(long)\"", #"'a\nb"#, "…")
        // At the limit: 64 characters is fine.
        try h.run("add \(String(repeating: "y", count: 64))")
        // Last: a failed `new` leaves no document open (docs/repl.md).
        try h.refused("new \(long)", "invalid document name")
    }

    @Test func hugeNumberIsRefused() throws {
        let h = try HostileSession()
        try h.refused("add c fixed 1e308", "must be ≤ 1000000000", "1e+308")
        try h.refused("set a grow 1e308", "must be ≤ 1000000000")
        try h.refused("viewport 1e308 100", "must be ≤ 1000000000")
        try h.refused("add c fixed 1e309", "1e309")
        try h.refused("hit 1e309 0", "1e309")
    }

    @Test func negativeZeroIsZero() throws {
        let h = try HostileSession()
        try h.run("add c fixed -0 grow -0 margin -0 -0 -0 -0")
        let config = try #require(h.document.config(of: "c"))
        if case .fixed(let v) = config.size { #expect(v == 0 && v.sign == .plus) }
        #expect(config.grow.sign == .plus)
        #expect(!DocumentFormat.compact(h.document).contains("-0"))
        try h.run("scroll -0")
        #expect(h.document.settings.offset.sign == .plus)
    }

    @Test func notANumberIsRefused() throws {
        let h = try HostileSession()
        try h.refused("add c fixed nan", "nan")
        try h.refused("add c fixed NaN", "NaN")
        try h.refused("scroll nan", "nan")
        try h.refused("scroll by nan", "nan")
        try h.refused("hit nan 0", "nan")
    }

    @Test func infinityIsRefused() throws {
        let h = try HostileSession()
        try h.refused("add c fixed inf", "inf")
        try h.refused("add c fixed infinity", "infinity")
        try h.refused("scroll -inf", "inf")
        try h.refused("viewport inf inf", "inf")
    }

    @Test func tinyNumberIsKept() throws {
        let h = try HostileSession()
        try h.run("add c fixed 1e-300 content 5e-324 1e-300 grow 1e-300 shrink 1e-300")
        #expect(h.document.config(of: "c")?.size == .fixed(1e-300))
        #expect(h.layoutIsFinite())
        #expect(try Document(json: DocumentFormat.compact(h.document)) == h.document)
    }

    /// The largest values everywhere: every sum stays finite (the limits bound a document's
    /// extent by 5e9 per row × 1M rows; Double overflows at 1.8e308).
    @Test func largestValuesLayOutFinite() throws {
        let h = try HostileSession()
        try h.run("set stack padding 1e9 1e9 1e9 1e9")
        try h.run("set stack spacing 1e9")
        try h.run("defaults separator thickness 1e9 insets 1e9 1e9 1e9 1e9")
        let ids = (0..<200).map { "r\($0)" }.joined(separator: " ")
        try h.run("add \(ids) fixed 1e9 content 1e9 1e9 insets 1e9 1e9 1e9 1e9 margin 1e9 1e9 1e9 1e9 grow 1e9 shrink 1e9 in s")
        try h.run("add n stack horizontal spacing 1e9 fixed 1e9 in s")
        try h.run("add m1 m2 content 1e9 1e9 grow 1e9 shrink 1e-300 in n")
        try h.run("viewport 1e9 1e9")
        #expect(h.layoutIsFinite())
        let layout = h.document.layout()
        #expect(layout.contentSize.height > 1e11 && layout.contentSize.height < 1e13)
        try h.run("scroll 1e9")
        try h.run("scroll to r199 bottom")
        #expect(h.document.settings.offset.isFinite)
    }

    /// Tiny factors and sizes where a flex sum can underflow to 0 (0/0 would be NaN).
    @Test func tinyFactorsLayOutFinite() throws {
        let h = try HostileSession()
        try h.run("add t1 t2 fixed 1e-300 shrink 1e-300 grow 1e-300 in s")
        try h.run("add u stack horizontal fixed 1e-300 in s")
        try h.run("add u1 u2 content 1e-300 1e-300 shrink 1e-300 grow 5e-324 in u")
        try h.run("viewport 1e-300 1e-300")
        #expect(h.layoutIsFinite())
        try h.run("viewport 5e-324 0")
        #expect(h.layoutIsFinite())
    }

    @Test func scrollFarIsClamped() throws {
        let h = try HostileSession()
        try h.run("add c d e f g h i fixed 100")
        try h.run("scroll 1e308")
        let max = h.document.layout().maxOffset
        #expect(h.document.settings.offset == max && max > 0)
        try h.run("scroll by 1e308")
        try h.run("scroll by 1e308")
        #expect(h.document.settings.offset == max)
        try h.run("scroll by -1e308")
        #expect(h.document.settings.offset == 0)
    }

    /// `viewport 0 0` is allowed: the offset clamps to the content, every row with area is
    /// offscreen, zero-area rows at the origin count as entire.
    @Test func viewportZeroByZero() throws {
        let h = try HostileSession()
        try h.run("scroll 40")
        try h.run("viewport 0 0")
        let layout = h.document.layout()
        #expect(layout.viewport == Size(width: 0, height: 0))
        #expect(h.layoutIsFinite())
        #expect(layout.rows.filter { $0.frame.map { $0.width > 0 && $0.height > 0 } ?? false }.allSatisfy { $0.visibility == .offscreen })
        #expect(try h.run("draw").text.isEmpty == false)
        try h.run("hit 0 0")
        try h.run("scroll to b")
        try h.refused("viewport -1 0", "must be ≥ 0")
    }

    @Test func lineOfManyWords() throws {
        let h = try HostileSession()
        let ids = (0..<20_000).map { "w\($0)" }.joined(separator: " ")
        try h.run("add \(ids)")
        #expect(h.document.rowCount == 20_003)
        try h.refused("remove \(ids) nope", "no row 'nope'")
    }
}
