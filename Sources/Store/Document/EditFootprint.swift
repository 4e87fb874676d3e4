import Layout

/// What a stale edit depends on (SPEC §3, "A stale edit is planned again"): the things that, had
/// another session changed them since the edit's author read the document, make planning it
/// again on the newest version something other than what the author asked for. Said in the
/// vocabulary of per-person undo (`Compensation.Touch`), so that one check
/// (`Compensation.firstTouch`) compares it with what the intervening steps changed.
///
/// The rule, per thing the edit names or its plan changes:
/// - a row it changes, removes, moves, hides, shows, sets or replaces (its *target*): the row
///   as a whole — its existence, its place and every field;
/// - a row it removes (a target, or a row under one): also the rows in it (a row another session
///   put there would go with it);
/// - a row it adds: that no row of that id was added or removed meanwhile;
/// - the stack it puts rows into or moves them to (`in S`, or the anchor's stack): its existence
///   and whether it is a stack — not its other fields, and not its other rows;
/// - an anchor (`after X`, `before X`, `scroll to X`, `focus X`): its existence and its place;
/// - a position by index (`at N`), and `clear`: the rows of the stack (the index counts them;
///   `clear` removes them all);
/// - `at top`/`at bottom`, and an insert's neighbours: nothing — the plan on the newest version
///   takes the newest first, last and neighbouring rows, which is what the author asked for;
/// - the document settings (`set stack …`, `defaults …`): any intervening change of them; the
///   view (`viewport`, `keyboard`, obscured edges, `scroll`): any intervening change of the view,
///   offset clamps included.
///
/// The footprint is taken of the plan on the version the author read and of the plan on the
/// newest version (a row that the newest plan reaches and the first did not counts too).
enum EditFootprint {
    typealias Touch = Compensation.Touch

    /// What `edit`, whose changes planned on some version are `planned`, depends on.
    static func needs(_ edit: Edit, planned: [Change]) -> Set<Touch> {
        var needs = Set<Touch>()
        func target(_ id: RowID) {
            needs.formUnion([.existence(id), .placement(id)] + RowField.allCases.map { Touch.field(id, $0) })
        }
        func anchor(_ id: RowID) { needs.formUnion([.existence(id), .placement(id)]) }
        func stack(_ id: RowID?) {
            guard let id else { return }
            needs.formUnion([.existence(id), .field(id, .stack)])
        }
        func position(_ position: Position?, in parent: RowID?) {
            switch position {
            case .after(let x)?, .before(let x)?: anchor(x)
            case .index?: needs.insert(.rows(of: parent))
            case .top?, .bottom?, nil: break
            }
        }
        var indexed = false
        switch edit {
        case let .add(ids, _, at, parent):
            for id in ids { needs.insert(.existence(id)) }
            stack(parent)
            position(at, in: parent)
            if case .index? = at { indexed = true }
        case .remove(let ids), .hide(let ids), .show(let ids), .setRows(let ids, _):
            ids.forEach(target)
        case .set(let id, _):
            target(id)
        case .clear(let parent):
            stack(parent)
            needs.insert(.rows(of: parent))
        case let .replace(id, newID, _):
            target(id)
            needs.insert(.existence(newID))
        case let .move(id, at, parent):
            target(id)
            stack(parent)
            position(at, in: parent)
            if case .index = at { indexed = true }
        case .setStack, .defaults:
            needs.insert(.settings)
        case .scroll(let spec):
            needs.insert(.view)
            switch spec {
            case .to(let id, _), .focus(let id), .stack(let id, _): anchor(id)
            case .offset, .by: break
            }
        case .viewport, .obscured:
            needs.insert(.view)
        }
        for change in planned {
            switch change {
            case let .insertRow(id, _, parent, _):
                needs.insert(.existence(id))
                stack(parent)
                if indexed { needs.insert(.rows(of: parent)) }
            case let .removeRow(id, _, _, _):
                target(id)
                needs.insert(.rows(of: id))
            case let .updateRow(id, _, _):
                target(id)
            case let .moveRow(id, _, _, toParent, _):
                target(id)
                stack(toParent)
                if indexed { needs.insert(.rows(of: toParent)) }
            case let .updateSettings(old, new):
                needs.formUnion(Compensation.settingsTouches(old, new))
            }
        }
        return needs
    }
}
