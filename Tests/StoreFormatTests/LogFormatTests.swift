import OrderStatistics
import Foundation
import Layout
@testable import StoreFormat
import StackDocTestSupport
import Testing

/// The log's on-disk format is written and read by `LogFormat` with explicit keys: the golden
/// payloads round-trip byte for byte, and the explicit encoder writes what the synthesized
/// `Codable` of the first releases wrote.
@Suite(.longRunning) struct LogFormatTests {
    static func fixture(_ name: String, _ ext: String) throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: ext))
    }

    /// Every line of the golden file (payloads the previous release wrote) decodes and encodes
    /// back to the same bytes; together they hold every case of every enum in the format.
    @Test func goldenPayloadsRoundTripByteForByte() throws {
        let text = try String(contentsOf: try Self.fixture("log-format-1", "txt"), encoding: .utf8)
        var cases = Set<String>()
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let (kind, json) = (line.prefix { $0 != " " }, String(line.drop { $0 != " " }.dropFirst()))
            let again: String
            switch kind {
            case "settings":
                again = try LogFormat.encode(try LogFormat.decodeSettings(json, format: 1))
            case "edit":
                let edit = try LogFormat.decodeEdit(json, format: 1)
                cases.formUnion(CaseNames.of(edit))
                again = try LogFormat.encode(edit)
            case "changes":
                let changes = try LogFormat.decodeChanges(json, format: 1, column: "forward")
                for change in changes { cases.formUnion(CaseNames.of(change)) }
                again = try LogFormat.encode(changes)
            default:
                Issue.record("unknown golden line kind \(kind)")
                continue
            }
            #expect(again == json)
        }
        #expect(CaseNames.all.subtracting(cases) == [], "cases missing from the golden file")
    }

    /// The explicit encoder writes what the synthesized `Codable` writes (format 1 is that
    /// format), for the random edits and changes of a planner-driven session.
    @Test func explicitEncodingMatchesTheFirstFormat() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = try String(contentsOf: try Self.fixture("log-format-1", "txt"), encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("edit ") {
            let edit = try LogFormat.decodeEdit(String(line.dropFirst(5)), format: 1)
            #expect(String(decoding: try encoder.encode(edit), as: UTF8.self) == (try LogFormat.encode(edit)))
        }
        let settings = DocumentSettings(axis: .horizontal, viewport: Size(width: 1e-300, height: 1e308), offset: 0.1 + 0.2)
        // Issue 14's view state is optional in format 1: written only when set, so a document
        // without it writes what the first format wrote.
        let synthesized = String(decoding: try encoder.encode(settings), as: UTF8.self)
            .replacingOccurrences(of: #""keyboard":0,"#, with: "")
            .replacingOccurrences(of: #","viewportInsets":{"bottom":0,"left":0,"right":0,"top":0}"#, with: "")
            .replacingOccurrences(of: #""safeArea":{"bottom":0,"left":0,"right":0,"top":0},"#, with: "")
        #expect(synthesized == (try LogFormat.encode(settings)))
    }

    /// The database the previous release wrote (fixture made by release-log-v1.sd before the
    /// format was explicit): migrates, shows the same document and history, verifies, undoes,

    /// The hand-written JSON writer (`LogValue.text`) writes exactly what `JSONEncoder` writes
    /// with sorted keys: random trees of every value kind, strings of every ASCII character and
    /// some beyond, doubles of every magnitude, integral, negative zero, subnormal.
    @Test func handWrittenJSONMatchesTheEncoder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var rng = SplitMix64(seed: 15_08)
        let alphabet = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + ["é", "😀", "\u{2028}", "\u{7F}", "中"]
        func string() -> String { String((0..<rng.int(0..<8)).map { _ in rng.pick(alphabet) }) }
        func double() -> Double {
            switch rng.int(0..<6) {
            case 0: return Double(rng.int(-1000..<1000))
            case 1: return Double(rng.int(-1000..<1000)) / 64
            case 2: return Double(bitPattern: UInt64.random(in: 0..<0x7FF0_0000_0000_0000, using: &rng)) * (rng.chance(2) ? 1 : -1)
            case 3: return rng.pick([0, -0.0, 1e-300, Double.leastNonzeroMagnitude, 1e308, 1e16, 1e15, 123456789012345680, 0.1 + 0.2, 1e-7])
            default: return Double.random(in: -1e6...1e6, using: &rng)
            }
        }
        func value(_ depth: Int) -> LogValue {
            switch depth > 3 ? rng.int(2..<6) : rng.int(0..<6) {
            case 0: return .object(Dictionary((0..<rng.int(0..<5)).map { _ in (string(), value(depth + 1)) }, uniquingKeysWith: { a, _ in a }))
            case 1: return .array((0..<rng.int(0..<5)).map { _ in value(depth + 1) })
            case 2: return .string(string())
            case 3: return .int(rng.int(-1_000_000..<1_000_000))
            case 4: return .double(double())
            default: return .bool(rng.chance(2))
            }
        }
        for _ in 0..<3000 {
            let v = value(0)
            #expect(try v.text() == String(decoding: try encoder.encode(v), as: UTF8.self))
        }
        #expect(throws: (any Error).self) { try LogValue.double(.nan).text() }
        #expect(throws: (any Error).self) { try LogValue.array([.double(.infinity)]).text() }
    }
}


/// Names of every enum case a value holds (exhaustive switches: a new case fails to compile
/// here until the golden file and `all` include it).
enum CaseNames {
    static let all: Set<String> = [
        "edit.add", "edit.remove", "edit.clear", "edit.replace", "edit.move", "edit.hide", "edit.show", "edit.set", "edit.setRows",
        "edit.setStack", "edit.defaults", "edit.scroll", "edit.viewport", "edit.obscured",
        "obscured.insets", "obscured.safeArea", "obscured.keyboard", "scroll.focus", "spec.sticky",
        "change.insertRow", "change.removeRow", "change.updateRow", "change.moveRow", "change.updateSettings",
        "position.top", "position.bottom", "position.index", "position.after", "position.before",
        "spec.type", "spec.fixed", "spec.fit", "spec.content", "spec.insets", "spec.insetsDefault", "spec.margin",
        "spec.grow", "spec.shrink", "spec.align", "spec.hidden", "spec.stack", "spec.unstack", "spec.justify", "spec.alignItems",
        "spec.spacing", "spec.separator", "spec.min", "spec.max", "spec.minCross", "spec.maxCross",
        "spec.background", "spec.highlight", "spec.text", "spec.aspect",
        "separator.hidden", "separator.shown", "separator.insets", "separator.thickness", "separator.color", "separator.default",
        "stack.axis", "stack.padding", "stack.spacing", "stack.justify", "stack.align",
        "defaults.insets", "defaults.separator", "defaults.autoHide",
        "scroll.offset", "scroll.by", "scroll.to",
    ]

    static func of(_ edit: Edit) -> Set<String> {
        switch edit {
        case let .add(_, spec, position, _):
            return Set(["edit.add"] + spec.flatMap(of) + (position.map { [of($0)] } ?? []))
        case .remove: return ["edit.remove"]
        case .clear: return ["edit.clear"]
        case let .replace(_, _, spec): return Set(["edit.replace"] + spec.flatMap(of))
        case let .move(_, position, _): return ["edit.move", of(position)]
        case .hide: return ["edit.hide"]
        case .show: return ["edit.show"]
        case let .set(_, spec): return Set(["edit.set"] + spec.flatMap(of))
        case let .setRows(_, spec): return Set(["edit.setRows"] + spec.flatMap(of))
        case let .setStack(s):
            switch s {
            case .axis: return ["edit.setStack", "stack.axis"]
            case .padding: return ["edit.setStack", "stack.padding"]
            case .spacing: return ["edit.setStack", "stack.spacing"]
            case .justify: return ["edit.setStack", "stack.justify"]
            case .align: return ["edit.setStack", "stack.align"]
            }
        case let .defaults(d):
            switch d {
            case .insets: return ["edit.defaults", "defaults.insets"]
            case let .separator(specs): return Set(["edit.defaults", "defaults.separator"] + specs.map(of))
            case .autoHide: return ["edit.defaults", "defaults.autoHide"]
            }
        case let .scroll(s):
            switch s {
            case .offset: return ["edit.scroll", "scroll.offset"]
            case .by: return ["edit.scroll", "scroll.by"]
            case .to: return ["edit.scroll", "scroll.to"]
            case .focus: return ["edit.scroll", "scroll.focus"]
            case .stack: return ["edit.scroll", "scroll.stack"]
            }
        case .viewport: return ["edit.viewport"]
        case let .obscured(o):
            switch o {
            case .insets: return ["edit.obscured", "obscured.insets"]
            case .safeArea: return ["edit.obscured", "obscured.safeArea"]
            case .keyboard: return ["edit.obscured", "obscured.keyboard"]
            }
        }
    }

    static func of(_ change: Change) -> Set<String> {
        switch change {
        case .insertRow: return ["change.insertRow"]
        case .removeRow: return ["change.removeRow"]
        case .updateRow: return ["change.updateRow"]
        case .moveRow: return ["change.moveRow"]
        case .updateSettings: return ["change.updateSettings"]
        }
    }

    static func of(_ position: Position) -> String {
        switch position {
        case .top: return "position.top"
        case .bottom: return "position.bottom"
        case .index: return "position.index"
        case .after: return "position.after"
        case .before: return "position.before"
        }
    }

    static func of(_ spec: SeparatorSpec) -> String {
        switch spec {
        case .hidden: return "separator.hidden"
        case .shown: return "separator.shown"
        case .insets: return "separator.insets"
        case .thickness: return "separator.thickness"
        case .color: return "separator.color"
        case .default: return "separator.default"
        }
    }

    static func of(_ item: RowSpecItem) -> [String] {
        switch item {
        case .type: return ["spec.type"]
        case .fixed: return ["spec.fixed"]
        case .fit: return ["spec.fit"]
        case .content: return ["spec.content"]
        case .insets: return ["spec.insets"]
        case .insetsDefault: return ["spec.insetsDefault"]
        case .margin: return ["spec.margin"]
        case .grow: return ["spec.grow"]
        case .shrink: return ["spec.shrink"]
        case .align: return ["spec.align"]
        case .hidden: return ["spec.hidden"]
        case .stack: return ["spec.stack"]
        case .unstack: return ["spec.unstack"]
        case .justify: return ["spec.justify"]
        case .alignItems: return ["spec.alignItems"]
        case .spacing: return ["spec.spacing"]
        case let .separator(s): return ["spec.separator", of(s)]
        case .sticky: return ["spec.sticky"]
        case .min: return ["spec.min"]
        case .max: return ["spec.max"]
        case .minCross: return ["spec.minCross"]
        case .maxCross: return ["spec.maxCross"]
        case .background: return ["spec.background"]
        case .highlight: return ["spec.highlight"]
        case .text: return ["spec.text"]
        case .aspect: return ["spec.aspect"]
        case .stickyOffset: return ["spec.stickyOffset"]
        case .rowInsets: return ["spec.rowInsets"]
        case .scrolls: return ["spec.scrolls"]
        case .scrollOffset: return ["spec.scrollOffset"]
        case let .rowSeparator(s): return ["spec.rowSeparator", of(s)]
        }
    }
}
