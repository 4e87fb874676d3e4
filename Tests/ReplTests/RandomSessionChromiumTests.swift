import Foundation
import Layout
import Store
import StackDocScript
import StackDocTestSupport
import Testing

/// Issue 33 item 5: random edit sessions against Chromium, replayed without it. The fixture is a
/// seeded sample of `scripts/oracle/random_sessions.py` (see its docstring): random documents
/// with every row feature, sticky offsets, per-stack row insets and a safe area, then random
/// steps (add, remove, move, set, hide, show, scroll, scroll to, focus, viewport, its insets and
/// safe area, the keyboard). At every step Chromium's offset, content size, every row's shown
/// frame, visibility and percentage, and the transitions since the step before, must be what
/// the session's live layout answers, within 0.1 pt. Where Chromium snapped the offset to a
/// whole pixel (`shownOffset`: 210.5 shows 211), the rows sticky positioning moves at that step
/// and the transitions of that step and the next are not compared (SPEC §2.7).
///
/// A second sample (`--scrolls --separators`, SPEC §2.8 and §2.4) adds stacks that scroll on
/// their own — in the documents at random offsets, added, made to scroll and not, scrolled with
/// `scroll STACK N`, rows added under them, `scroll to` and `focus` through them — and separators
/// (the document's default and auto-hide, `defaults separator … in STACK`, rows' own): there
/// every step also compares each scrolling stack's offset (`scrolls`, clamped as Chromium's
/// `scrollLeft`/`scrollTop` were asked), each row's separator frame relative to its frame, and
/// visibility clipped by the scrolling ancestors; rows marked `inexact` (moved by sticky
/// positioning where Chromium snapped an offset, the root's or a stack's) are not compared.
@Suite("Random sessions against Chromium", .offThePool)
struct RandomSessionChromiumTests {
    struct Step: Decodable {
        struct Row: Decodable {
            let id: String
            let frame: Rect?
            let visibility: String
            let percent: Double
            /// The separator's frame relative to the row's (the sample with separators).
            let separator: Rect?
            /// Moved by sticky positioning at a snapped offset: not compared (when present).
            let inexact: Bool?
        }
        struct Event: Decodable, Equatable {
            let row: String
            let from: String?
            let to: String?
        }
        let command: String
        let ok: Bool
        let offset: Double
        let shownOffset: Double
        let contentSize: Size
        let rows: [Row]
        let events: [Event]
        /// Every shown scrolling stack's offset (the sample with scrolling stacks).
        let scrolls: [String: Double]?
        /// Chromium showed a scrolling stack at another (whole-pixel) offset than asked.
        let nestedSnapped: Bool?
    }

    struct Case: Decodable {
        let document: JSONValueBox
        let steps: [Step]
    }

    /// The document, kept as its JSON text (written to a file the session imports).
    struct JSONValueBox: Decodable {
        let text: String
        init(from decoder: Decoder) throws {
            text = String(decoding: try JSONEncoder().encode(try AnyJSON(from: decoder)), as: UTF8.self)
        }
    }

    /// Any JSON value, decoded and encoded again.
    enum AnyJSON: Codable {
        case null, bool(Bool), number(Double), string(String), array([AnyJSON]), object([String: AnyJSON])
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let n = try? c.decode(Double.self) { self = .number(n) }
            else if let s = try? c.decode(String.self) { self = .string(s) }
            else if let a = try? c.decode([AnyJSON].self) { self = .array(a) }
            else { self = .object(try c.decode([String: AnyJSON].self)) }
        }
        func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .null: try c.encodeNil()
            case let .bool(b): try c.encode(b)
            case let .number(n): try c.encode(n)
            case let .string(s): try c.encode(s)
            case let .array(a): try c.encode(a)
            case let .object(o): try c.encode(o)
            }
        }
    }

    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("scripts/\(name).json")
    }

    /// What a sample must hold at least (so that it is not trivial).
    struct Minimum {
        var steps = 200, rows = 1000, events = 100, scrolled = 50, safe = 50
        var nested = 0, separators = 0, clipped = 0
    }

    static func close(_ a: Rect?, _ b: Rect?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a.x - b.x) <= 0.1 && abs(a.y - b.y) <= 0.1 && abs(a.width - b.width) <= 0.1 && abs(a.height - b.height) <= 0.1
    }

    @Test func sessionsAgreeWithChromium() async throws {
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: Self.fixture("random-sessions-chromium")))
        let failures = try await TestThread.run { try Self.replay(cases, Minimum()) }
        #expect(failures.count == 0, "\(failures.prefix(20).joined(separator: "\n"))")
    }

    /// `random_sessions.py 120 3307 --scrolls --separators --fixture … --sample 40`: 40 sessions, 520
    /// steps (of 1560 in the 120, all agreeing).
    @Test func sessionsWithScrollingStacksAndSeparatorsAgreeWithChromium() async throws {
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: Self.fixture("random-sessions-scrolls-chromium")))
        let minimum = Minimum(steps: 500, rows: 3000, events: 300, scrolled: 100, safe: 300, nested: 50, separators: 1000, clipped: 100)
        let failures = try await TestThread.run { try Self.replay(cases, minimum) }
        #expect(failures.count == 0, "\(failures.prefix(20).joined(separator: "\n"))")
    }

    /// What disagrees, as lines; also counts what was compared (and checks the sample is not
    /// trivial).
    static func replay(_ cases: [Case], _ minimum: Minimum) throws -> [String] {
        var failures: [String] = []
        var steps = 0, rows = 0, events = 0, scrolled = 0, safe = 0, nested = 0, separators = 0, clipped = 0
        let dir = try Scratch.directory("sessions")
        defer { Scratch.remove(dir) }
        for (n, c) in cases.enumerated() {
            let name = "s\(n).json"
            try c.document.text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
            let session = Session(store: try DocumentStore(path: ":memory:"), directory: dir, origin: "test")
            for (k, step) in c.steps.enumerated() {
                let snapped = step.shownOffset != step.offset || step.nestedSnapped == true
                let previousSnapped = k > 0 && (c.steps[k - 1].shownOffset != c.steps[k - 1].offset || c.steps[k - 1].nestedSnapped == true)
                let line = k == 0 ? "import \(name)" : step.command
                var result: CommandResult?
                do { result = try session.run(try Parser.parse(line) ?? .status) } catch { result = nil }
                let at = "session \(n) step \(k) (\(line))"
                if (result != nil) != step.ok { failures.append("\(at): ok \(result != nil), chromium run \(step.ok)") }
                let layout = try session.currentLayout()
                steps += 1
                if layout.offset > 0 { scrolled += 1 }
                if layout.safeArea != .zero { safe += 1 }
                if abs(layout.offset - step.offset) > 0.1 { failures.append("\(at): offset \(layout.offset) vs \(step.offset)") }
                if abs(layout.contentSize.width - step.contentSize.width) > 0.1 || abs(layout.contentSize.height - step.contentSize.height) > 0.1 {
                    failures.append("\(at): content \(layout.contentSize) vs \(step.contentSize)")
                }
                if let scrolls = step.scrolls {
                    let mine = Dictionary(uniqueKeysWithValues: layout.nestedScrolls.map { ($0.id, $0.offset) })
                    if Set(mine.keys) != Set(scrolls.keys) { failures.append("\(at): scrolling stacks \(mine) vs \(scrolls)") }
                    for (id, o) in scrolls where abs((mine[id] ?? .nan) - o) > 0.1 || mine[id] == nil {
                        failures.append("\(at): \(id) scrolled to \(String(describing: mine[id])) vs \(o)")
                    }
                    nested += scrolls.values.filter { $0 > 0 }.count
                }
                guard layout.rows.map(\.id) == step.rows.map(\.id) else {
                    failures.append("\(at): rows \(layout.rows.map(\.id)) vs \(step.rows.map(\.id))")
                    continue
                }
                for (i, (mine, theirs)) in zip(layout.rows, step.rows).enumerated() {
                    if let inexact = theirs.inexact { if inexact { continue } }
                    else if snapped && layout.displaced[mine.id] != nil { continue }
                    rows += 1
                    let shown = layout.shownFrame(at: i)
                    if step.scrolls != nil {
                        let relative = mine.separator.flatMap { s in mine.frame.map { f in
                            Rect(x: s.x - f.x, y: s.y - f.y, width: s.width, height: s.height) } }
                        if relative != nil { separators += 1 }
                        if !close(relative, theirs.separator) {
                            failures.append("\(at) \(mine.id) separator: \(String(describing: relative)) vs \(String(describing: theirs.separator))")
                        }
                        // Inside the viewport's unobscured rectangle, yet not entire: clipped by a scroller.
                        let u = layout.unobscuredRect
                        if let f = shown, mine.visibility != .hidden, mine.visibility != .entire, f.minX >= u.minX,
                           f.maxX <= u.maxX, f.minY >= u.minY, f.maxY <= u.maxY { clipped += 1 }
                    }
                    if !close(shown, theirs.frame) { failures.append("\(at) \(mine.id): \(String(describing: shown)) vs \(String(describing: theirs.frame))") }
                    if mine.visibility.rawValue != theirs.visibility || abs(mine.percent - theirs.percent) > 0.1 {
                        failures.append("\(at) \(mine.id): \(mine.visibility) \(mine.percent) vs \(theirs.visibility) \(theirs.percent)")
                    }
                }
                if k > 0, !snapped, !previousSnapped, let result {
                    let mine = result.events.map { Step.Event(row: $0.row, from: $0.from?.rawValue, to: $0.to?.rawValue) }
                    events += mine.count
                    if mine != step.events { failures.append("\(at): events \(mine) vs \(step.events)") }
                }
            }
        }
        let m = minimum
        if steps < m.steps || rows < m.rows || events < m.events || scrolled < m.scrolled || safe < m.safe
            || nested < m.nested || separators < m.separators || clipped < m.clipped {
            failures.append("the sample is too small: \(steps) steps, \(rows) rows, \(events) events, \(scrolled) scrolled, "
                            + "\(safe) with a safe area, \(nested) nested offsets, \(separators) separators, \(clipped) clipped")
        }
        return failures
    }
}
