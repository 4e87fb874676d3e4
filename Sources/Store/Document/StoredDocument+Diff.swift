import Foundation

import Layout

/// `diff REF [REF]`: what differs between two points of a document's history.
public struct HistoryDiff: Hashable, Sendable {
    /// The two log entries compared (the document right after each).
    public var from: Int
    /// The second log entry compared.
    public var to: Int
    /// What differs from `from` to `to`.
    public var diff: DocumentDiff
}

extension StoredDocument {
    /// The difference from `a` to `b` (default: now): rows added, removed, moved, changed field
    /// by field, their frames in both versions laid out at the current viewport, and the
    /// settings. Only the rows the logged changes between the two points touched are compared,
    /// so a diff costs O(k log n) for k changes when the later point is now or at most
    /// `SnapshotPolicy.interval` entries before it (k: the changes from the earlier point to
    /// now) — the current document and its live layout are taken back in place and brought
    /// forward again — and one materialised state (`state(at:)`) plus one layout otherwise.
    /// Nothing changes.
    /// - Throws: `StackDocError` (an unknown reference, a stale or dropped document), or a store error when the database cannot be read.
    public func diff(from a: HistoryRef, to b: HistoryRef = .now(back: 0)) throws -> HistoryDiff {
        try reading { tx in
            try checkCurrent(tx)
            let from = try resolve(a, tx), to = try resolve(b, tx)
            let (lo, hi) = (min(from, to), max(from, to))
            let entries = try loggedChanges(after: lo, through: hi, tx)
            var candidates: [RowID] = []
            var structural = Set<RowID>()
            for (_, changes) in entries {
                for change in changes {
                    switch change {
                    case let .insertRow(id, _, _, _), let .removeRow(id, _, _, _), let .moveRow(id, _, _, _, _):
                        candidates.append(id)
                        structural.insert(id)
                    case let .updateRow(id, _, _):
                        candidates.append(id)
                    case .updateSettings:
                        break
                    }
                }
            }
            let (late, early): (DocumentDiff.Side, DocumentDiff.Side)
            do {
                if hi == lastSeq {
                    _ = liveLayout()
                    (late, early) = try Self.sides(&document, &live, back: entries, candidates: candidates, settings: document.settings)
                } else if lastSeq - hi <= store.options.snapshots.interval {
                    // Both points are past but `hi` is near: take the handle's document and
                    // live layout back to it in place, compare, and bring them forward again.
                    _ = liveLayout()
                    let later = try loggedChanges(after: hi, through: lastSeq, tx)
                    let (applied, settings) = try Self.takeBack(&document, later, settings: document.settings)
                    if !applied.isEmpty { live!.apply(applied, to: document) }
                    (late, early) = try Self.sides(&document, &live, back: entries, candidates: candidates, settings: settings)
                    try document.apply(applied.inverse)
                    if !applied.isEmpty { live!.apply(applied.inverse, to: document) }
                } else {
                    var d = try state(at: hi, tx)
                    let settings = d.settings
                    d.settings.viewport = document.settings.viewport
                    var layout: LiveLayout? = LiveLayout(d)
                    (late, early) = try Self.sides(&d, &layout, back: entries, candidates: candidates, settings: settings)
                }
            } catch {
                try? reload()
                throw store.noteDamage(StoreError.damagedLogEntry(store.path, document: name, seq: entries.last?.seq ?? hi, error))
            }
            let (old, new) = from <= to ? (early, late) : (late, early)
            return HistoryDiff(from: from, to: to, diff: DocumentDiff.compare(old: old, new: new, candidates: candidates, structural: structural))
        }
    }

    /// Reads the candidates in `document` (the later version, whose true settings are `start`:
    /// its viewport may have been set to the current one), takes `entries` back in place
    /// — keeping the viewport, so both versions are laid out alike — reads them again (the
    /// earlier version, with its true settings), and brings the document and layout forward to
    /// where they were.
    private static func sides(_ document: inout Document, _ layout: inout LiveLayout?, back entries: [(seq: Int, changes: [Change])],
                              candidates: [RowID], settings start: DocumentSettings) throws -> (late: DocumentDiff.Side, early: DocumentDiff.Side) {
        var late = DocumentDiff.Side(document, candidates: candidates, layout: layout)
        late.settings = start
        let (applied, settings) = try takeBack(&document, entries, settings: start)
        if layout != nil, !applied.isEmpty { layout!.apply(applied, to: document) }
        var early = DocumentDiff.Side(document, candidates: candidates, layout: layout)
        early.settings = settings
        try document.apply(applied.inverse)
        if layout != nil, !applied.isEmpty { layout!.apply(applied.inverse, to: document) }
        return (late, early)
    }

    /// Takes `entries` back from `document` in place, newest first, keeping its viewport and
    /// offset. Returns the changes applied and the true settings of the earlier version
    /// (`start`: the later version's); on failure the document is as it was.
    private static func takeBack(_ document: inout Document, _ entries: [(seq: Int, changes: [Change])],
                                 settings start: DocumentSettings) throws -> (applied: [Change], settings: DocumentSettings) {
        var applied: [Change] = []
        var settings = start
        do {
            for (_, changes) in entries.reversed() {
                for change in changes.inverse {
                    if case let .updateSettings(_, new) = change { settings = new }
                    let kept = Replayer.keepingView(change, in: document)
                    try document.apply(kept)
                    applied.append(kept)
                }
            }
        } catch {
            try? document.apply(applied.inverse)
            throw error
        }
        return (applied, settings)
    }
}
