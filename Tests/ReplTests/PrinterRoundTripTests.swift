import Testing
import Layout
import OrderStatistics
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Random commands of the language: the edits and values of the shared generator
/// (`RandomEdits` with `.language` values: the REPL's keywords and odd ids that need quoting,
/// numbers of every magnitude), and the commands that are not edits.
struct Generator {
    var edits: RandomEdits

    static let keywords = Keywords.all.sorted()

    init(rng: SplitMix64) { edits = RandomEdits(rng: rng, values: .language(keywords: Self.keywords)) }

    mutating func pick<T>(_ items: [T]) -> T { edits.rng.pick(items) }
    mutating func bool() -> Bool { edits.bool() }
    mutating func word() -> String { RandomEdits.Values.word(&edits.rng, keywords: Self.keywords) }
    mutating func number() -> Double { edits.number() }
    mutating func size() -> Size { edits.size() }
    mutating func edit() -> Edit { edits.edit() }

    mutating func command() -> Command {
        switch edits.rng.int(0..<30) {
        case 0: return .new(name: word(), axis: bool() ? pick(Axis.allCases) : nil, viewport: bool() ? size() : nil)
        case 1: return .open(name: word())
        case 2: return .importDocument(path: word(), name: bool() ? word() : nil)
        case 3: return .export(path: bool() ? word() : nil)
        case 4: return .exportSVG(path: word(), viewport: bool())
        case 5: return .row(word())
        case 6: return .findType(word())
        case 7: return .hit(x: number(), y: number())
        case 8: return .undo(edits.rng.int(1..<1001))
        case 9: return .begin(label: bool() ? word() : nil)
        case 10: return .logExport(path: word())
        case 11: return .layout(LayoutSelection(visibleOnly: bool(), range: bool() ? 3...9 : nil))
        case 12: return .drop(name: word())
        case 13: return pick([.close, .docs, .visible, .rows, .history, .status, .draw(.fit), .draw(.width(edits.rng.int(1..<201))), .draw(.points(Double(edits.rng.int(1..<41)) / 2)), .commit, .rollback, .verify, .rebuildSnapshots, .quit])
        case 14: return .writeAs(origin: pick([nil, "ann", "none", "NONE", "None", "as", "vertical", "user:42", "a.b-c_d@e:1", String(repeating: "x", count: 64)]))
        default: return .edit(edit())
        }
    }
}

@Suite(.longRunning) struct PrinterRoundTripTests {
    @Test func randomEditsRoundTrip() throws {
        var g = Generator(rng: SplitMix64(seed: 20261121))
        for _ in 0..<20_000 {
            let edit = g.edit()
            let text = Printer.text(edit)
            let parsed = try Parser.parse(text)
            #expect(parsed == .edit(edit), "\(text)")
            if parsed != .edit(edit) { return }
        }
    }

    @Test func randomCommandsRoundTrip() throws {
        var g = Generator(rng: SplitMix64(seed: 7))
        for _ in 0..<10_000 {
            let command = g.command()
            let text = Printer.text(command)
            let parsed = try Parser.parse(text)
            #expect(parsed == command, "\(text)")
            if parsed != command { return }
        }
    }

    @Test func canonicalExamples() {
        #expect(Printer.text(.add(ids: ["a", "top"], spec: [.fixed(100), .content(Size(width: 0.5, height: 1e-300))],
                                  position: .after("b c"), parent: nil))
            == #"add a "top" fixed 100 content 0.5 1e-300 after "b c""#)
        #expect(Printer.text(.defaults(.separator([.color("#C6C6C8"), .thickness(0.5)])))
            == "defaults separator color #C6C6C8 thickness 0.5")
        #expect(Printer.text(.scroll(.to("x", .auto))) == "scroll to x auto")
    }
}
