import Layout

/// A compensating step (per-person undo, SPEC §3): the changes that revert — or re-apply — one
/// origin's steps on the document as it is now, touching only the rows and fields those steps
/// changed, and the check that no later step of another origin changed the same things.
/// Pure: no I/O; the store and the replay both plan with it, so a replay plans the logged
/// changes again.
enum Compensation {
    /// One thing a change touches, for the conflict check.
    enum Touch: Hashable {
        /// A field of a row's config.
        case field(RowID, RowField)
        /// The row was inserted or removed.
        case existence(RowID)
        /// The row was moved.
        case placement(RowID)
        /// A row was inserted into, removed from or moved in or out of this stack row (nil: the
        /// root stack).
        case rows(of: RowID?)
        /// The document's settings, view state aside.
        case settings
        /// The view state of the settings: viewport, obscured edges, keyboard, offset (only a
        /// re-planned stale edit of the view needs it, `EditFootprint`).
        case view
    }

    /// A later step of another origin that changed what the steps to revert changed.
    struct Conflict: Hashable {
        /// The later step's number.
        var step: Int
        /// Its origin (nil: none recorded).
        var origin: String?
        /// What it changed, in words: `row 'a' field size`, `the document settings`…
        var what: String
    }

    /// What `changes` (of another origin's later step) touched.
    static func touches(_ change: Change) -> [Touch] {
        switch change {
        case let .insertRow(id, _, parent, _), let .removeRow(id, _, parent, _):
            return [Touch.existence(id), .rows(of: parent)]
        case let .updateRow(id, old, new):
            return RowField.differing(old, new).map { Touch.field(id, $0) }
        case let .moveRow(id, fromParent, _, toParent, _):
            return [Touch.placement(id), .rows(of: fromParent), .rows(of: toParent)]
        case let .updateSettings(old, new):
            return settingsTouches(old, new)
        }
    }

    /// What a settings change touches: `settings` when more than the view changed, `view` when
    /// the view did.
    static func settingsTouches(_ old: DocumentSettings, _ new: DocumentSettings) -> [Touch] {
        (old.withView(of: new) == new ? [] : [.settings]) + (new.withView(of: old) == new ? [] : [.view])
    }

    /// What a later change must not have touched for `change` (of the step to revert) to be
    /// reverted or re-applied without taking that later work back.
    static func needs(_ change: Change) -> [Touch] {
        switch change {
        case let .updateRow(id, old, new):
            return [Touch.existence(id)] + RowField.differing(old, new).map { Touch.field(id, $0) }
        case let .insertRow(id, _, _, _):
            // Reverting an insert removes the row: nobody else may have changed it or put rows in it.
            return [Touch.existence(id), .placement(id), .rows(of: id)] + RowField.allCases.map { Touch.field(id, $0) }
        case let .removeRow(id, _, parent, _):
            return [Touch.existence(id)] + (parent.map { [Touch.existence($0)] } ?? [])
        case let .moveRow(id, fromParent, _, toParent, _):
            return [Touch.existence(id), .placement(id)] + [fromParent, toParent].compactMap { $0.map { Touch.existence($0) } }
        case let .updateSettings(old, new):
            return old.withView(of: new) == new ? [] : [.settings]
        }
    }

    /// The first change of the `later` steps (in order) that touched what `changes` need, as a
    /// conflict; nil when there is none.
    static func conflict(of changes: [Change], with later: [(step: Int, origin: String?, changes: [Change])]) -> Conflict? {
        let needed = Set(changes.flatMap(needs))
        for step in later {
            if let touch = firstTouch(of: needed, in: step.changes) {
                return Conflict(step: step.step, origin: step.origin, what: describe(touch))
            }
        }
        return nil
    }

    /// The first thing of `needed` that one of `changes` (in order) touched; nil when none did.
    static func firstTouch(of needed: Set<Touch>, in changes: [Change]) -> Touch? {
        for change in changes {
            if let touch = touches(change).first(where: needed.contains) { return touch }
        }
        return nil
    }

    static func describe(_ touch: Touch) -> String {
        switch touch {
        case let .field(id, field): return "row \(Validation.quoted(id)) field \(field.spec.word)"
        case let .existence(id): return "row \(Validation.quoted(id)) (added or removed it)"
        case let .placement(id): return "row \(Validation.quoted(id)) (moved it)"
        case let .rows(of: id): return id.map { "the rows of \(Validation.quoted($0))" } ?? "the rows of the root stack"
        case .settings: return "the document settings"
        case .view: return "the view (viewport, obscured edges, keyboard, offset)"
        }
    }

    /// The changes that bring `wanted` about on `document` as it is now: each of `wanted` (in
    /// order: a step's inverse changes to revert it, its forward changes to re-apply it) is
    /// planned on the document left by the ones before it — a config change sets only the
    /// fields it changes (the others keep their current values), an insert or a move lands at
    /// its index or the end of its stack when that has fewer rows now, a removal or a move
    /// starts where the row is now; the settings keep the current view. A change that
    /// changes nothing is left out.
    /// - Throws: `StackDocError` when a change does not fit the document (a missing row or
    ///   stack, a stack that still has rows).
    static func plan(_ wanted: [Change], on document: Document) throws -> [Change] {
        var doc = document
        var planned: [Change] = []
        func missing(_ id: RowID) -> StackDocError { StackDocError("row \(Validation.quoted(id)) no longer exists") }
        for change in wanted {
            let now: Change?
            switch change {
            case let .updateRow(id, old, new):
                guard let current = doc.config(of: id) else { throw missing(id) }
                var target = current
                for field in RowField.differing(old, new) { field.copy(from: new, to: &target) }
                now = target == current ? nil : .updateRow(id: id, old: current, new: target)
            case let .insertRow(id, config, parent, index):
                if let parent, !doc.contains(parent) { throw missing(parent) }
                now = .insertRow(id: id, config: config, parent: parent, index: min(index, doc.childCount(of: parent)))
            case let .removeRow(id, _, _, _):
                guard let config = doc.config(of: id), let parent = doc.parent(of: id), let index = doc.index(of: id) else { throw missing(id) }
                now = .removeRow(id: id, config: config, parent: parent, index: index)
            case let .moveRow(id, _, _, toParent, toIndex):
                guard let parent = doc.parent(of: id), let index = doc.index(of: id) else { throw missing(id) }
                if let toParent, !doc.contains(toParent) { throw missing(toParent) }
                let to = min(toIndex, doc.childCount(of: toParent) - (parent == toParent ? 1 : 0))
                now = parent == toParent && index == to ? nil : .moveRow(id: id, fromParent: parent, fromIndex: index, toParent: toParent, toIndex: to)
            case let .updateSettings(_, new):
                let target = new.withView(of: doc.settings)
                now = target == doc.settings ? nil : .updateSettings(old: doc.settings, new: target)
            }
            guard let now else { continue }
            try doc.apply(now)
            planned.append(now)
        }
        return planned
    }
}
