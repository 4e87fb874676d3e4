import Layout

/// The replay's rules for what the store adds to logged changes: the offsets' clamps it
/// appends, and the view an undo or redo keeps (SPEC §2.6, §2.8) — beside `Replayer`, which
/// checks logged changes with them.
extension Replayer {
    /// True when `logged` is what was `planned`, or that plus the offsets' clamps the store
    /// appends (`isClamp`).
    static func matches(planned: [Change], logged: [Change]) -> Bool {
        planned == logged || (logged.count > planned.count && Array(logged.prefix(planned.count)) == planned
                              && logged[planned.count...].allSatisfy(isClamp))
    }

    /// True for a change the store appends to clamp an offset: the root's (`isOffsetOnly`) or a
    /// stack's that scrolls on its own (an update of its `scrollOffset` alone, SPEC §2.8).
    static func isClamp(_ change: Change) -> Bool {
        if isOffsetOnly(change) { return true }
        guard case var .updateRow(_, old, new) = change, old.scrollOffset != nil, new.scrollOffset != nil else { return false }
        old.scrollOffset = 0; new.scrollOffset = 0
        return old == new
    }

    /// True when `logged`, applied to `current`, gives the rows and settings of `target` (the
    /// view and the offset's clamp as they are after them).
    static func reachesTarget(_ current: Document, _ target: Document, _ logged: [Change]) -> Bool {
        var after = current
        guard (try? after.apply(logged)) != nil else { return false }
        var expected = target
        expected.name = after.name
        expected.settings = target.settings.withView(of: after.settings)
        return after == expected
    }

    /// A settings change that changes nothing but the offset.
    static func isOffsetOnly(_ change: Change) -> Bool {
        guard case var .updateSettings(old, new) = change else { return false }
        old.offset = 0; new.offset = 0
        return old == new
    }

    /// A settings change as undo/redo applies it: the viewport and offset stay as they are now.
    static func keepingView(_ change: Change, current: DocumentSettings) -> Change {
        guard case .updateSettings(_, let new) = change else { return change }
        return .updateSettings(old: current, new: new.withView(of: current))
    }

    /// A change as undo/redo applies it to `document`: a settings change keeps the view (as
    /// above), and a row change of a stack that scrolls on its own before and after keeps the
    /// stack's current offset (SPEC §2.8: nested offsets are view state too).
    static func keepingView(_ change: Change, in document: Document) -> Change {
        guard case let .updateRow(id, _, new) = change else { return keepingView(change, current: document.settings) }
        guard new.scrollOffset != nil, let current = document.config(of: id), let offset = current.scrollOffset else { return change }
        var kept = new
        kept.scrollOffset = offset
        return .updateRow(id: id, old: current, new: kept)
    }
}
