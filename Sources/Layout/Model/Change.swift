/// A primitive change of a document: what every operation decomposes into, what the store
/// persists and what undo replays backwards. Each change has an exact inverse.
///
/// `indirect`: a change is one reference (8 bytes) to its boxed payload, not the 816 bytes of
/// two inline `RowConfig`s — a 100k-row `clear`, its undo and redo move arrays of 100k changes
/// through planning, applying, the journal and the log, and copying 82 MB arrays (and faulting
/// their pages in) was ≈ 40 % of an undo (issue 15 item 8).
public indirect enum Change: Hashable, Sendable, Codable {
    /// Insert one row (no children) at `index` of `parent`'s rows.
    case insertRow(id: RowID, config: RowConfig, parent: RowID?, index: Int)
    /// Remove one row that has no rows of its own; `config`, `parent`, `index` describe it as it
    /// was, so that the change can be inverted.
    case removeRow(id: RowID, config: RowConfig, parent: RowID?, index: Int)
    /// Replace a row's config (`old` is the config before).
    case updateRow(id: RowID, old: RowConfig, new: RowConfig)
    /// Move a row and its subtree.
    case moveRow(id: RowID, fromParent: RowID?, fromIndex: Int, toParent: RowID?, toIndex: Int)
    /// Replace the document's settings (`old` is the settings before).
    case updateSettings(old: DocumentSettings, new: DocumentSettings)

    /// The change that undoes this one.
    public var inverse: Change {
        switch self {
        case let .insertRow(id, config, parent, index):
            return .removeRow(id: id, config: config, parent: parent, index: index)
        case let .removeRow(id, config, parent, index):
            return .insertRow(id: id, config: config, parent: parent, index: index)
        case let .updateRow(id, old, new):
            return .updateRow(id: id, old: new, new: old)
        case let .moveRow(id, fromParent, fromIndex, toParent, toIndex):
            return .moveRow(id: id, fromParent: toParent, fromIndex: toIndex, toParent: fromParent, toIndex: fromIndex)
        case let .updateSettings(old, new):
            return .updateSettings(old: new, new: old)
        }
    }
}

extension Array where Element == Change {
    /// The changes that undo these, in the order to apply them.
    public var inverse: [Change] { reversed().map(\.inverse) }
}

extension Document {
    /// Applies one primitive change; throws (changing nothing) when it does not fit the document.
    /// - Parameter change: One primitive change.
    /// - Throws: `StackDocError` naming what does not fit (a missing or duplicate row, a bad index,
    ///   an invalid value).
    public mutating func apply(_ change: Change) throws {
        switch change {
        case let .insertRow(id, config, parent, index):
            try insertRow(id, config: config, parent: parent, at: index)
        case let .removeRow(id, _, _, _):
            try removeRow(id)
        case let .updateRow(id, _, new):
            try updateRow(id, config: new)
        case let .moveRow(id, _, _, toParent, toIndex):
            try moveRow(id, to: toParent, at: toIndex)
        case let .updateSettings(_, new):
            settings = new
        }
    }

    /// Applies a run of changes in order, as `apply(_:)` each, except that the memory of removed
    /// rows is given back once, after the last change (or the one that throws), instead of
    /// whenever half of the slots are free: a run of 100k removals (a `clear`) otherwise copies
    /// its remaining rows into fresh storage at each halving (≈ 60 % of its time). The
    /// rows, their order and configs end as after `apply(_:)` of each; only slot numbers differ.
    /// Inserts that fill an empty document at the root are built in bulk (`filled(by:)`).
    /// - Parameters:
    ///   - changes: The changes, in order.
    ///   - applied: Counts the changes applied (all of them unless it throws).
    /// - Throws: `StackDocError` for the first change that does not fit; the document then holds
    ///   the changes before it (not undone: the caller, which counted them, decides).
    public mutating func apply(run changes: ArraySlice<Change>, applied: inout Int) throws {
        // Inserts that fill an empty document (the undo of a `clear`): built in bulk.
        if let filled = filled(by: changes) {
            self = filled
            applied += changes.count
            return
        }
        defer { compactIfWanted() }
        for change in changes {
            if case let .removeRow(id, _, _, _) = change {
                try removeRowKeepingSlots(id)
            } else {
                try apply(change)
            }
            applied += 1
        }
    }

    /// Applies changes in order, all or nothing.
    /// On failure the changes already applied are undone, so a document of any size is never
    /// copied.
    /// - Parameter changes: The changes, in order.
    /// - Throws: `StackDocError` for the first change that does not fit; the document is then as
    ///   before.
    public mutating func apply(_ changes: [Change]) throws {
        var applied = 0
        do {
            for change in changes {
                try apply(change)
                applied += 1
            }
        } catch {
            for change in changes[..<applied].reversed() {
                try! apply(change.inverse)  // the exact inverse of an applied change always fits
            }
            throw error
        }
    }
}
