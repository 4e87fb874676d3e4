// Edit planning (SPEC §4.1): an `Edit` becomes the primitive `Change`s that carry it out.
// The families live beside this file: Document+PlanRows (add, remove, clear, replace),
// Document+PlanMove, Document+PlanRowConfig (hide, show, set), Document+PlanSettings (set stack,
// defaults, scroll, viewport).

extension Document {
    /// The primitive changes that carry out `edit` on this document, in order. Throws a
    /// `StackDocError` naming the problem when the edit does not fit (unknown id, bad index,
    /// duplicate id, invalid value); nothing is changed either way.
    ///
    /// Everything is validated before the first change is planned, so a multi-row edit with one
    /// bad id plans nothing. An edit that would change nothing (hiding a hidden row, moving a row
    /// to where it is, setting a value it already has) plans `[]`.
    /// `scroll` lays the document out; `plan(_:live:)` plans it from a `LiveLayout` instead.
    /// - Parameter edit: The operation.
    /// - Throws: `StackDocError` (`noSuchRow`, `invalidName`, `badValue`, …) when the edit does not
    ///   fit.
    public func plan(_ edit: Edit) throws -> [Change] {
        switch edit {
        case let .add(ids, spec, position, parent):
            return try planAdd(ids: ids, spec: spec, position: position, parent: parent)
        case let .remove(ids):
            return try planRemove(ids: ids)
        case let .clear(parent):
            return try planClear(parent: parent)
        case let .replace(id, newID, spec):
            return try planReplace(id: id, newID: newID, spec: spec)
        case let .move(id, position, parent):
            return try planMove(id: id, position: position, parent: parent)
        case let .hide(ids):
            return try planHidden(ids: ids, hidden: true, command: "hide")
        case let .show(ids):
            return try planHidden(ids: ids, hidden: false, command: "show")
        case let .set(id, spec):
            return try planSet(id: id, spec: spec)
        case let .setRows(ids, spec):
            return try planSetRows(ids: ids, spec: spec)
        case let .setStack(spec):
            return try planSetStack(spec)
        case let .defaults(spec):
            return try planDefaults(spec)
        case let .scroll(spec):
            return try planScroll(spec)
        case let .viewport(size):
            return try planViewport(size)
        case let .obscured(spec):
            return try planObscured(spec)
        }
    }
}
