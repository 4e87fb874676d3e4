import Layout
import OrderStatistics

/// Random edits aimed at a given document: ids of its rows and stacks, fresh ids for new rows,
/// indexes within range, lengths from `lengths`; every `Edit` case. Most of them plan; the
/// others (a move into its own subtree, a scroll to a hidden row, …) are refused by the planner.
/// `RandomOps` keeps the ones that plan; the layout property tests use them as they come.
public struct DocumentEdits {
    public var rng: SplitMix64
    /// Whether new rows go into nested stacks and new stacks are made.
    public var nested: Bool
    /// The lengths sizes, contents, margins, offsets and viewports are drawn from.
    public var lengths: [Double]

    public static let wholeLengths: [Double] = [0, 10, 20.5, 44, 68, 100, 200, 400]

    /// How many `insets` items `spec()` has drawn: every third one (nested) is a stack's row
    /// defaults instead (issue 33), chosen without a draw so that the sequences of the seeds the
    /// tests use stay as they were.
    private var insetsItems = 0

    public init(rng: SplitMix64, nested: Bool = true, lengths: [Double] = DocumentEdits.wholeLengths) {
        self.rng = rng
        self.nested = nested
        self.lengths = lengths
    }

    /// An id no row of `document` has.
    public mutating func freshID(in document: Document) -> RowID {
        var id = "n\(rng.int(0..<100_000))"
        while document.contains(id) { id += "x" }
        return id
    }

    public mutating func length() -> Double { rng.pick(lengths) }

    /// A row of `document` (a stack with `stacksOnly`); nil when it has none.
    public mutating func row(of document: Document, stacksOnly: Bool = false) -> RowID? {
        var ids: [RowID] = []
        document.forEachRow { id, _, _, c in if !stacksOnly || c.stack != nil { ids.append(id) } }
        return ids.isEmpty ? nil : rng.pick(ids)
    }

    /// The stack new or moved rows go into: the root, or with `nested` a third of the time a
    /// stack row.
    public mutating func parent(in document: Document) -> RowID? {
        guard nested, rng.chance(3) else { return nil }
        return row(of: document, stacksOnly: true)
    }

    public mutating func position(in document: Document, parent: RowID?) -> Position? {
        switch rng.int(0..<7) {
        case 0: return nil
        case 1: return .top
        case 2: return .bottom
        case 3: return row(of: document).map(Position.after)
        case 4: return row(of: document).map(Position.before)
        default: return .index(rng.int(0..<document.childCount(of: parent) + 1))
        }
    }

    /// A ROWSPEC of 0 to 3 items, every kind, lengths from `lengths`.
    public mutating func spec() -> [RowSpecItem] {
        (0..<rng.int(0..<4)).map { _ in
            switch rng.int(0..<27) {
            case 0, 1, 2: return .fixed(length())
            case 3, 4: return .content(Size(width: length(), height: length()))
            case 5: return .fit
            case 6: return .margin(Edges(top: length() / 8, left: length() / 16, bottom: length() / 4, right: 0))
            case 7: return .grow(Double(rng.int(0..<3)))
            case 8: return .shrink(Double(rng.int(0..<2)))
            case 9:
                insetsItems += 1
                if nested && insetsItems % 3 == 0 { return .rowInsets(insetsItems % 9 == 0 ? nil : Edges(top: 0, left: 1, bottom: 0, right: 2)) }
                return .insets(Edges(top: 2, left: 3, bottom: 4, right: 5))
            case 10: return .insetsDefault
            case 11: return .align(rng.pick(AlignSelf.allCases))
            case 12: return .hidden
            case 13: return .type(rng.pick(["view", "label", "image"]))
            case 14: return .separator(rng.pick([.hidden, .shown, .thickness(3), .insets(Edges(top: 0, left: 400, bottom: 0, right: 0)),
                                                 .color("#A1B2C3"), .default]))
            case 15 where nested:
                // Rarely: a stack that scrolls keeps its document out of the incremental regime
                // (as a sticky row does), which the live layout's property tests need to meet.
                if rng.chance(16) { return .scrolls(rng.chance(3)) }
                return rng.chance(6) ? .unstack : .stack(rng.pick(Axis.allCases))
            case 16 where nested: return .justify(rng.pick(Justify.allCases))
            case 17 where nested: return .alignItems(rng.pick(Align.allCases))
            case 18 where nested: return .spacing(length() / 10)
            case 19: return rng.chance(4) ? .stickyOffset(rng.pick([0, 20, 44])) : .sticky(rng.chance(3))
            case 20: return .min(bool() ? nil : length())
            case 21: return .max(bool() ? nil : length())
            case 22: return .minCross(bool() ? nil : length())
            case 23: return .maxCross(bool() ? nil : length())
            case 24: return .background(bool() ? nil : rng.pick(["#F2F2F7", "#1c1c1e"]))
            case 25: return .highlight(bool() ? nil : "#D1D1D6")
            case 26:
                // Issue 14: text and aspect rows (an error on a stack row, as a user would meet it).
                if bool() {
                    return .text(rng.chance(4) ? nil : TextRun(count: rng.int(0..<60), glyphWidth: rng.pick([1, 5, 8, 13.5]),
                                                              lineHeight: rng.pick([0, 10, 20.25])))
                }
                return .aspect(rng.chance(4) ? nil : Size(width: rng.pick([1, 2, 16]), height: rng.pick([1, 3, 9])))
            default: return .fixed(length())
            }
        }
    }

    /// A random edit of any case aimed at `document`.
    public mutating func edit(for document: Document) -> Edit {
        let any = row(of: document)
        switch rng.int(0..<34) {
        case 0..<7:
            let p = parent(in: document)
            let first = freshID(in: document)
            let ids = rng.chance(3) ? [first, first + "b"] : [first]
            var s = spec()
            if nested, rng.chance(4) {
                s.append(.stack(rng.pick(Axis.allCases)))
                if bool() { s.append(.justify(.center)) }
            }
            return .add(ids: ids, spec: s, position: position(in: document, parent: p), parent: p)
        case 7, 8:
            guard let id = any else { break }
            return .remove(ids: [id])
        case 9..<12:
            guard let id = any else { break }
            let p = parent(in: document)
            return .move(id: id, position: position(in: document, parent: p) ?? .top, parent: p)
        case 12, 13:
            guard let id = any else { break }
            return .hide(ids: [id])
        case 14, 15:
            guard let id = any else { break }
            return .show(ids: [id])
        case 16..<19:
            guard let id = any else { break }
            return .set(id: id, spec: rng.chance(4) ? [.fixed(length())] : spec())
        case 19:
            guard let id = any, let other = row(of: document), other != id else { break }
            return .setRows(ids: [id, other], spec: [.fixed(length())] + spec())
        case 20:
            guard let id = any else { break }
            return .replace(id: id, newID: freshID(in: document), spec: spec())
        case 21:
            return .clear(parent: rng.chance(2) ? row(of: document, stacksOnly: true) : nil)
        case 22, 23: return .scroll(.offset(Double(rng.int(-100..<3001))))
        case 24: return .scroll(.by(Double(rng.int(-500..<501))))
        case 25:
            guard let id = any else { break }
            return .scroll(.to(id, rng.pick(ScrollPosition.allCases)))
        case 29:
            guard let id = any else { break }
            // Mostly a stack that scrolls; now and then one that does not (an error).
            if rng.chance(3), let stack = row(of: document, stacksOnly: true),
               document.config(of: stack)?.scrollOffset != nil || rng.chance(8) {
                return .scroll(.stack(stack, Double(rng.int(-20..<400))))
            }
            return .scroll(.focus(id))
        case 30:
            let edges = Edges(top: Double(rng.int(0..<61)), left: 0, bottom: Double(rng.int(0..<41)), right: 0)
            switch rng.int(0..<3) {
            case 0: return .obscured(.keyboard(rng.chance(3) ? nil : Double(rng.int(0..<401))))
            case 1: return .obscured(.insets(viewport: nil, insets: edges))
            default: return .obscured(.safeArea(viewport: nil, safeArea: edges))
            }
        case 26:
            let w = bool() ? document.settings.viewport.width : 300
            return .viewport(Size(width: w, height: rng.pick([100, 400, 844, 5000])))
        case 27:
            return .defaults(rng.pick([.insets(Edges(top: 1, left: 2, bottom: 3, right: 4)), .autoHide(bool()),
                                       .separator([.thickness(2)]), .separator([.hidden]), .separator([.color("#E0E0E0"), .insets(Edges(all: 4))])]))
        case 28:
            return .setStack(rng.pick([.justify(rng.pick(Justify.allCases)), .spacing(rng.pick([0, 8])),
                                       .padding(Edges(top: 5, left: 6, bottom: 7, right: 8)),
                                       .axis(rng.pick(Axis.allCases)), .align(rng.pick(Align.allCases))]))
        default:
            guard let id = any else { break }
            return .set(id: id, spec: [.fixed(length())])
        }
        // Without rows: a row of a fixed length at the top.
        return .add(ids: [freshID(in: document)], spec: [.fixed(length())], position: .top, parent: nil)
    }

    private mutating func bool() -> Bool { rng.chance(2) }
}
