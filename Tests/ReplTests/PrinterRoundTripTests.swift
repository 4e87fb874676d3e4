import Testing
import Layout
@testable import repl
@testable import StackDocScript
import StackDocTestSupport

/// Random values of the language, including odd ids that need quoting.
struct Generator {
    var rng: SplitMix64

    mutating func pick<T>(_ items: [T]) -> T { rng.pick(items) }
    mutating func bool() -> Bool { Bool.random(using: &rng) }

    mutating func word() -> String {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return pick(Array(Keywords.all))
        case 1: return pick(["two words", "", "quo\"te", "back\\slash", "tab\t", "#hash", "ünï", "semi;colon", "'single'", "new\nline", "#A1B2C3"])
        case 2: return String(repeating: "x", count: Int.random(in: 1...300, using: &rng))
        default:
            let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789.-")
            return String((0..<Int.random(in: 1...12, using: &rng)).map { _ in pick(letters) })
        }
    }

    mutating func number() -> Double {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return Double(Int.random(in: -1000...1000, using: &rng))
        case 1: return Double.random(in: -1e6...1e6, using: &rng)
        case 2: return pick([0, -0.0, 1e308, -1e308, 1e-300, 0.1, 1e15, 1.2345678901234568e17, Double.leastNonzeroMagnitude])
        default: return Double(Int.random(in: 0...500, using: &rng)) / 4
        }
    }

    mutating func edges() -> Edges { Edges(top: number(), left: number(), bottom: number(), right: number()) }
    mutating func size() -> Size { Size(width: number(), height: number()) }
    mutating func ids() -> [RowID] { (0..<Int.random(in: 1...4, using: &rng)).map { _ in word() } }
    mutating func color() -> String {
        "#" + String((0..<6).map { _ in pick(Array("0123456789abcdefABCDEF")) })
    }

    mutating func sepSpec() -> SeparatorSpec {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .hidden
        case 1: return .shown
        case 2: return .insets(edges())
        case 3: return .thickness(number())
        case 4: return .color(color())
        default: return .default
        }
    }

    mutating func rowSpec() -> RowSpecItem {
        switch Int.random(in: 0..<17, using: &rng) {
        case 0: return .type(word())
        case 1: return .fixed(number())
        case 2: return .fit
        case 3: return .content(size())
        case 4: return .insets(edges())
        case 5: return .insetsDefault
        case 6: return .margin(edges())
        case 7: return .grow(number())
        case 8: return .shrink(number())
        case 9: return .align(pick(AlignSelf.allCases))
        case 10: return .alignItems(pick(Align.allCases))
        case 11: return .hidden
        case 12: return .stack(pick(Axis.allCases))
        case 13: return .justify(pick(Justify.allCases))
        case 14: return .spacing(number())
        case 15: return .sticky(bool())
        default: return .separator(sepSpec())
        }
    }

    mutating func specs(min: Int = 0) -> [RowSpecItem] { (0..<Int.random(in: min...4, using: &rng)).map { _ in rowSpec() } }

    mutating func position() -> Position {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return .top
        case 1: return .bottom
        case 2: return .index(Int.random(in: 0...Int.max, using: &rng))
        case 3: return .after(word())
        default: return .before(word())
        }
    }

    mutating func edit() -> Edit {
        switch Int.random(in: 0..<13, using: &rng) {
        case 0: return .add(ids: ids(), spec: specs(), position: bool() ? position() : nil, parent: bool() ? word() : nil)
        case 1: return .remove(ids: ids())
        case 2: return .clear(parent: bool() ? word() : nil)
        case 3: return .replace(id: word(), newID: word(), spec: specs())
        case 4: return .move(id: word(), position: position(), parent: bool() ? word() : nil)
        case 5: return .hide(ids: ids())
        case 6: return .show(ids: ids())
        case 7: return .set(id: word(), spec: specs(min: 1))
        case 8:
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: return .setStack(.axis(pick(Axis.allCases)))
            case 1: return .setStack(.padding(edges()))
            case 2: return .setStack(.spacing(number()))
            case 3: return .setStack(.justify(pick(Justify.allCases)))
            default: return .setStack(.align(pick(Align.allCases)))
            }
        case 9:
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return .defaults(.insets(edges()))
            case 1: return .defaults(.separator((0..<Int.random(in: 1...3, using: &rng)).map { _ in sepSpec() }))
            default: return .defaults(.autoHide(bool()))
            }
        case 10:
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return .scroll(.offset(number()))
            case 1: return .scroll(.by(number()))
            case 2: return .scroll(.focus(word()))
            default: return .scroll(.to(word(), pick(ScrollPosition.allCases)))
            }
        case 11:
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return .obscured(.insets(viewport: size(), insets: edges()))
            case 1: return .obscured(.insets(viewport: nil, insets: edges()))
            default: return .obscured(.keyboard(bool() ? number() : nil))
            }
        default: return .viewport(size())
        }
    }

    mutating func command() -> Command {
        switch Int.random(in: 0..<30, using: &rng) {
        case 0: return .new(name: word(), axis: bool() ? pick(Axis.allCases) : nil, viewport: bool() ? size() : nil)
        case 1: return .open(name: word())
        case 2: return .importDocument(path: word(), name: bool() ? word() : nil)
        case 3: return .export(path: bool() ? word() : nil)
        case 4: return .exportSVG(path: word())
        case 5: return .row(word())
        case 6: return .findType(word())
        case 7: return .hit(x: number(), y: number())
        case 8: return .undo(Int.random(in: 1...1000, using: &rng))
        case 9: return .begin(label: bool() ? word() : nil)
        case 10: return .logExport(path: word())
        case 11: return .layout(LayoutSelection(visibleOnly: bool(), range: bool() ? 3...9 : nil))
        case 12: return .drop(name: word())
        case 13: return pick([.close, .docs, .visible, .rows, .history, .status, .draw, .commit, .rollback, .verify, .quit])
        default: return .edit(edit())
        }
    }
}

@Suite struct PrinterRoundTripTests {
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
