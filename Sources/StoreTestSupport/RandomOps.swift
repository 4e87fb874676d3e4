import Layout
import Store

/// A small, fast, seedable generator (SplitMix64), so random runs are reproducible.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One thing a user does to a stored document.
public enum StoreAction: Hashable, Sendable, CustomStringConvertible {
    case perform(Edit, [Change])
    case undo(Int)
    case redo(Int)
    case begin(String?)
    case commit
    case rollback

    public var description: String {
        switch self {
        case let .perform(edit, changes): return "perform \(edit) (\(changes.count) changes)"
        case let .undo(n): return "undo \(n)"
        case let .redo(n): return "redo \(n)"
        case let .begin(label): return "begin \(label ?? "")"
        case .commit: return "commit"
        case .rollback: return "rollback"
        }
    }

    /// Carries the action out on `handle`.
    public func run(on handle: StoredDocument) throws {
        switch self {
        case let .perform(edit, changes): try handle.perform(edit, changes: changes)
        case let .undo(n): try handle.undo(n)
        case let .redo(n): try handle.redo(n)
        case let .begin(label): try handle.begin(label)
        case .commit: try handle.commit()
        case .rollback: try handle.rollback()
        }
    }
}

/// Random but valid operations: each is an `Edit` with the primitive `Change`s that carry it
/// out (what `Document.plan` returns), chosen from the current state only, so the same seed on
/// the same state gives the same sequence in any process.
public enum RandomOps {
    /// The next action for a document with the given history state.
    public static func action(for handle: StoredDocument, rng: inout SplitMix64) -> StoreAction {
        action(document: handle.document, cursor: handle.cursor, steps: handle.stepCount,
               groupOpen: handle.openGroup != nil, rng: &rng)
    }

    public static func action(document: Document, cursor: Int, steps: Int, groupOpen: Bool,
                              rng: inout SplitMix64) -> StoreAction {
        let roll = Int.random(in: 0..<100, using: &rng)
        if !groupOpen {
            if roll < 8, cursor > 0 { return .undo(Int.random(in: 1...min(3, cursor), using: &rng)) }
            if roll < 14, steps > cursor { return .redo(Int.random(in: 1...min(3, steps - cursor), using: &rng)) }
            if roll < 17 { return .begin(Bool.random(using: &rng) ? "g\(Int.random(in: 0..<100, using: &rng))" : nil) }
        } else {
            if roll < 5 { return .commit }
            if roll < 7 { return .rollback }
        }
        let (edit, changes) = edit(for: document, rng: &rng)
        return .perform(edit, changes)
    }

    /// A random edit that fits `document`, with its changes.
    public static func edit(for document: Document, rng: inout SplitMix64) -> (Edit, [Change]) {
        var ids: [RowID] = []
        var stacks: [RowID?] = [nil]
        document.forEachRow { id, _, _, config in
            ids.append(id)
            if config.stack != nil { stacks.append(id) }
        }
        let roll = ids.isEmpty ? 0 : Int.random(in: 0..<100, using: &rng)
        switch roll {
        case 0..<40:
            let parent = stacks.randomElement(using: &rng)!
            let index = Int.random(in: 0...document.children(of: parent).count, using: &rng)
            var id = "r\(Int.random(in: 0..<100_000, using: &rng))"
            while document.contains(id) { id += "x" }
            let config = randomConfig(rng: &rng)
            return (.add(ids: [id], spec: spec(config), position: .index(index), parent: parent),
                    [.insertRow(id: id, config: config, parent: parent, index: index)])
        case 40..<55:
            let id = ids.randomElement(using: &rng)!
            return (.remove(ids: [id]), removals(of: id, in: document))
        case 55..<70:
            let id = ids.randomElement(using: &rng)!
            let targets = stacks.filter { $0 == nil || !document.isDescendant($0!, of: id) }
            let to = targets.randomElement(using: &rng)!
            let from = document.parent(of: id)!
            let fromIndex = document.index(of: id)!
            let count = document.children(of: to).count - (to == from ? 1 : 0)
            let toIndex = Int.random(in: 0...count, using: &rng)
            return (.move(id: id, position: .index(toIndex), parent: to),
                    [.moveRow(id: id, fromParent: from, fromIndex: fromIndex, toParent: to, toIndex: toIndex)])
        case 70..<85:
            let id = ids.randomElement(using: &rng)!
            let old = document.config(of: id)!
            var new = old
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: new.hidden.toggle()
            case 1: new.size = .fixed(Double(Int.random(in: 0...200, using: &rng)))
            case 2: new.insets = Bool.random(using: &rng) ? nil : Edges(all: Double(Int.random(in: 0...20, using: &rng)))
            default: new.separator.color = Bool.random(using: &rng) ? nil : "#FF00AA"
            }
            return (.set(id: id, spec: spec(new)), [.updateRow(id: id, old: old, new: new)])
        case 85..<92:
            var settings = document.settings
            settings.spacing = Double(Int.random(in: 0...16, using: &rng))
            return (.setStack(.spacing(settings.spacing)), [.updateSettings(old: document.settings, new: settings)])
        case 92..<97:
            var settings = document.settings
            settings.offset = Double(Int.random(in: 0...500, using: &rng))
            return (.scroll(.offset(settings.offset)), [.updateSettings(old: document.settings, new: settings)])
        default:
            var settings = document.settings
            settings.viewport = Size(width: Double(Int.random(in: 100...500, using: &rng)), height: 844)
            return (.viewport(settings.viewport), [.updateSettings(old: document.settings, new: settings)])
        }
    }

    /// Removes of a row and its subtree, deepest rows first.
    public static func removals(of id: RowID, in document: Document) -> [Change] {
        var out: [Change] = []
        for child in document.children(of: id).reversed() { out += removals(of: child, in: document) }
        out.append(.removeRow(id: id, config: document.config(of: id)!, parent: document.parent(of: id)!,
                              index: document.index(of: id)!))
        return out
    }

    static func randomConfig(rng: inout SplitMix64) -> RowConfig {
        var c = RowConfig()
        c.type = ["view", "label", "image"].randomElement(using: &rng)!
        if Bool.random(using: &rng) { c.size = .fixed(Double(Int.random(in: 0...300, using: &rng)) / 2) }
        c.content = Size(width: Double(Int.random(in: 0...100, using: &rng)), height: Double(Int.random(in: 0...100, using: &rng)))
        if Int.random(in: 0..<4, using: &rng) == 0 { c.margin = Edges(top: 1, left: 2.5, bottom: 3, right: 0.1) }
        if Int.random(in: 0..<5, using: &rng) == 0 { c.hidden = true }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            c.stack = StackSettings(axis: Bool.random(using: &rng) ? .vertical : .horizontal,
                                    justify: Justify.allCases.randomElement(using: &rng)!, spacing: 4)
        }
        if Int.random(in: 0..<6, using: &rng) == 0 { c.separator = SeparatorOverrides(hidden: true, thickness: 2) }
        return c
    }

    /// A ROWSPEC that describes `config` (for the logged edit).
    static func spec(_ c: RowConfig) -> [RowSpecItem] {
        var items: [RowSpecItem] = [.type(c.type), .content(c.content)]
        if case .fixed(let n) = c.size { items.append(.fixed(n)) }
        if let insets = c.insets { items.append(.insets(insets)) }
        if c.hidden { items.append(.hidden) }
        if let s = c.stack { items += [.stack(s.axis), .justify(s.justify), .spacing(s.spacing)] }
        return items
    }
}
