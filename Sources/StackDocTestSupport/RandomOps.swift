import Layout
import Store

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

    /// A random edit that fits `document`, with the changes `Document.plan` makes of it.
    public static func edit(for document: Document, rng: inout SplitMix64) -> (Edit, [Change]) {
        for _ in 0..<20 {
            let edit = randomEdit(for: document, rng: &rng)
            if let changes = try? document.plan(edit) { return (edit, changes) }
        }
        // Always valid below the row limit: a plain row at the top.
        var id = "f\(document.rowCount)"
        while document.contains(id) { id += "x" }
        let edit = Edit.add(ids: [id], spec: [], position: .top, parent: nil)
        return (edit, (try? document.plan(edit)) ?? [])
    }

    /// A random edit (of every kind the planner knows) aimed at rows of `document`.
    public static func randomEdit(for document: Document, rng: inout SplitMix64) -> Edit {
        var ids: [RowID] = []
        var stacks: [RowID?] = [nil]
        document.forEachRow { id, _, _, config in
            ids.append(id)
            if config.stack != nil { stacks.append(id) }
        }
        func freshID() -> RowID {
            var id = "r\(Int.random(in: 0..<100_000, using: &rng))"
            while document.contains(id) { id += "x" }
            return id
        }
        let roll = ids.isEmpty ? 0 : Int.random(in: 0..<100, using: &rng)
        switch roll {
        case 0..<35:
            let parent = stacks.randomElement(using: &rng)!
            let index = Int.random(in: 0...document.children(of: parent).count, using: &rng)
            let first = freshID()
            var newIDs = [first]
            if Int.random(in: 0..<4, using: &rng) == 0 { newIDs.append(first + "b") }
            return .add(ids: newIDs, spec: randomSpec(rng: &rng), position: .index(index), parent: parent)
        case 35..<47:
            return .remove(ids: [ids.randomElement(using: &rng)!])
        case 47..<60:
            let id = ids.randomElement(using: &rng)!
            let targets = stacks.filter { $0 == nil || !document.isDescendant($0!, of: id) }
            let to = targets.randomElement(using: &rng)!
            let from = document.parent(of: id)!
            let count = document.children(of: to).count - (to == from ? 1 : 0)
            return .move(id: id, position: .index(Int.random(in: 0...count, using: &rng)), parent: to)
        case 60..<72:
            let id = ids.randomElement(using: &rng)!
            return .set(id: id, spec: Array(randomSpec(rng: &rng).prefix(Int.random(in: 1...3, using: &rng))))
        case 72..<78:
            let id = ids.randomElement(using: &rng)!
            return Bool.random(using: &rng) ? .hide(ids: [id]) : .show(ids: [id])
        case 78..<82:
            return .replace(id: ids.randomElement(using: &rng)!, newID: freshID(), spec: [.fixed(30)])
        case 82..<86:
            return .setStack(.spacing(Double(Int.random(in: 0...16, using: &rng))))
        case 86..<88:
            return .defaults(.insets(Edges(all: Double(Int.random(in: 0...20, using: &rng)))))
        case 88..<90:
            return .clear(parent: stacks.randomElement(using: &rng)!)
        case 90..<95:
            return .scroll(.offset(Double(Int.random(in: 0...2000, using: &rng))))
        case 95:
            return .obscured(.keyboard(Bool.random(using: &rng) ? Double(Int.random(in: 0...400, using: &rng)) : nil))
        case 96:
            return .obscured(.insets(viewport: nil, insets: Edges(top: Double(Int.random(in: 0...60, using: &rng)), left: 0,
                                                                  bottom: Double(Int.random(in: 0...40, using: &rng)), right: 0)))
        default:
            return .viewport(Size(width: Double(Int.random(in: 100...500, using: &rng)), height: Double(Int.random(in: 200...900, using: &rng))))
        }
    }

    /// A random ROWSPEC.
    static func randomSpec(rng: inout SplitMix64) -> [RowSpecItem] {
        var items: [RowSpecItem] = []
        if Bool.random(using: &rng) { items.append(.type(["view", "label", "image"].randomElement(using: &rng)!)) }
        if Bool.random(using: &rng) { items.append(.fixed(Double(Int.random(in: 0...300, using: &rng)) / 2)) }
        items.append(.content(Size(width: Double(Int.random(in: 0...100, using: &rng)), height: Double(Int.random(in: 0...100, using: &rng)))))
        if Int.random(in: 0..<4, using: &rng) == 0 { items.append(.margin(Edges(top: 1, left: 2.5, bottom: 3, right: 0.1))) }
        if Int.random(in: 0..<4, using: &rng) == 0 { items.append(.insets(Edges(all: Double(Int.random(in: 0...20, using: &rng))))) }
        if Int.random(in: 0..<5, using: &rng) == 0 { items.append(.hidden) }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            items.append(.stack(Bool.random(using: &rng) ? .vertical : .horizontal))
            items.append(.justify(Justify.allCases.randomElement(using: &rng)!))
            items.append(.spacing(4))
        }
        if Int.random(in: 0..<6, using: &rng) == 0 { items += [.separator(.hidden), .separator(.thickness(2))] }
        if Int.random(in: 0..<6, using: &rng) == 0 { items.append(.grow(1)) }
        if Int.random(in: 0..<8, using: &rng) == 0 { items.append(.sticky(true)) }
        return items.shuffled(using: &rng)
    }

    /// Removes of a row and its subtree, deepest rows first.
    public static func removals(of id: RowID, in document: Document) -> [Change] {
        var out: [Change] = []
        for child in document.children(of: id).reversed() { out += removals(of: child, in: document) }
        out.append(.removeRow(id: id, config: document.config(of: id)!, parent: document.parent(of: id)!,
                              index: document.index(of: id)!))
        return out
    }
}
