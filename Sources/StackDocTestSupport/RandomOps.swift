import Layout
import OrderStatistics
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

    /// A random edit (of every `Edit` case) aimed at rows of `document`: `DocumentEdits`, nested.
    public static func randomEdit(for document: Document, rng: inout SplitMix64) -> Edit {
        var edits = DocumentEdits(rng: rng)
        defer { rng = edits.rng }
        return edits.edit(for: document)
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
