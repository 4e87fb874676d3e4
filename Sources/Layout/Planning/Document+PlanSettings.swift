// Planning of the edits that change the document's settings: `set stack`, `defaults`, `scroll`,
// `viewport` (SPEC §4.1). Each plans one `updateSettings`, or nothing when the value is unchanged.

extension Document {
    /// `set stack axis A | padding T L B R | spacing N | justify J | align A`.
    func planSetStack(_ spec: StackSettingSpec) throws -> [Change] {
        var new = settings
        switch spec {
        case let .axis(a): new.axis = a
        case let .padding(e): new.padding = try Validation.edges(e, "padding")
        case let .spacing(n): new.spacing = try Validation.length(n, "spacing")
        case let .justify(j): new.justify = j
        case let .align(a): new.align = a
        }
        return settingsChange(to: new)
    }

    /// `defaults insets T L B R | separator SEPSPEC… | autohide on|off`.
    func planDefaults(_ spec: DefaultsSpec) throws -> [Change] {
        var new = settings
        switch spec {
        case let .insets(e):
            new.defaults.insets = try Validation.edges(e, "defaults.insets")
        case let .separator(items):
            for item in items { new.defaults.separator = try new.defaults.separator.applying(item) }
        case let .autoHide(on):
            new.defaults.autoHideLastSeparator = on
        }
        return settingsChange(to: new)
    }

    /// `scroll OFFSET | by D | to ROW POS`: lays the document out and stores the clamped target
    /// offset (SPEC §2.6). O(document): scrolling needs the layout.
    func planScroll(_ spec: ScrollSpec) throws -> [Change] {
        try planScroll(spec, layout: { self.layout() })
    }

    /// The scroll rule (SPEC §2.6): the target offset from `spec` — `offset` as given, `by` from
    /// the current offset, `to` the layout's scroll target for the row — clamped by the layout.
    /// The values and the row are checked before `layout` is asked for.
    func planScroll<L: ScrollGeometry>(_ spec: ScrollSpec, layout: () -> L) throws -> [Change] {
        if case let .stack(stack, v) = spec { return try planStackScroll(stack, v, layout: layout) }
        let target: Double
        let geometry: L
        var nested: [Change] = []
        switch spec {
        case let .offset(v):
            target = try Validation.finite(v, "offset")
            geometry = layout()
        case let .by(d):
            let delta = try Validation.finite(d, "scroll by")
            geometry = layout()
            target = geometry.offset + delta
        case let .to(row, position):
            _ = try requireRow(row)
            geometry = layout()
            let t = try geometry.scrollTargets(to: row, position)
            (target, nested) = (t.root, try nestedScrollChanges(t))
        case let .focus(row):
            _ = try requireRow(row)
            geometry = layout()
            let t = try geometry.scrollTargets(to: row, .auto)
            (target, nested) = (t.root, try nestedScrollChanges(t))
        case .stack:
            return []  // planned above
        }
        var new = settings
        new.offset = geometry.clamp(target) + 0
        return nested + settingsChange(to: new)
    }

    /// The `updateRow`s that store the nested offsets of `targets` (SPEC §2.8).
    private func nestedScrollChanges(_ targets: ScrollTargets) throws -> [Change] {
        try targets.nested.map { id, offset in
            let old = try requireRow(id)
            var new = old
            new.scrollOffset = offset
            return .updateRow(id: id, old: old, new: new)
        }
    }

    /// `scroll STACK N` (SPEC §2.8): the stack must scroll on its own (`scrolls`); its offset
    /// becomes N clamped to [0, its largest offset] by the layout. One `updateRow` of the stack
    /// (view state: the store logs it, undo does not step over it), or nothing when unchanged.
    func planStackScroll<L: ScrollGeometry>(_ stack: RowID, _ v: Double, layout: () -> L) throws -> [Change] {
        let target = try Validation.finite(v, "offset")
        let old = try requireRow(stack)
        guard old.scrollOffset != nil else {
            let why = old.stack == nil ? "it is a leaf" : "it does not scroll on its own"
            throw StackDocError(.badValue(path: "scroll \(Validation.quoted(stack))",
                                          problem: "\(why) (make it scroll first: 'set \(stack) scrolls')"))
        }
        var new = old
        new.scrollOffset = layout().clampScroll(of: stack, target) + 0
        return new == old ? [] : [.updateRow(id: stack, old: old, new: new)]
    }

    /// `viewport W H`: both lengths ≥ 0 (0 is allowed: nothing but zero-area rows is visible).
    func planViewport(_ size: Size) throws -> [Change] {
        var new = settings
        new.viewport = try Validation.size(size, "viewport")
        return settingsChange(to: new)
    }

    /// `viewport [W H] insets T L B R`, `viewport [W H] safe-area T L B R` and `keyboard H|off`:
    /// lengths 0…1e9; edges that sum past the viewport are allowed (the unobscured rectangle is
    /// then empty, SPEC §2.5).
    func planObscured(_ spec: ObscuredSpec) throws -> [Change] {
        var new = settings
        switch spec {
        case let .insets(viewport, insets):
            if let viewport { new.viewport = try Validation.size(viewport, "viewport") }
            new.viewportInsets = try Validation.edges(insets, "viewportInsets")
        case let .safeArea(viewport, safeArea):
            if let viewport { new.viewport = try Validation.size(viewport, "viewport") }
            new.safeArea = try Validation.edges(safeArea, "safeArea")
        case let .keyboard(height):
            new.keyboard = try height.map { try Validation.length($0, "keyboard") } ?? 0
        }
        return settingsChange(to: new)
    }

    func settingsChange(to new: DocumentSettings) -> [Change] {
        new == settings ? [] : [.updateSettings(old: settings, new: new)]
    }
}

/// What planning `scroll` needs from a layout of the document: the full `DocumentLayout` or a
/// `LiveLayout`.
protocol ScrollGeometry {
    /// The clamped offset the layout shows.
    var offset: Double { get }
    /// `offset` clamped to [0, the largest offset].
    func clamp(_ offset: Double) -> Double
    /// The clamped offset `scroll to ROW POS` aims at; throws for an unknown or hidden row.
    func scrollOffset(to row: RowID, _ position: ScrollPosition) throws -> Double
    /// `offset` clamped to [0, the largest offset of scrolling stack `stack`] (SPEC §2.8); 0
    /// for a stack that is hidden or does not scroll.
    func clampScroll(of stack: RowID, _ offset: Double) -> Double
    /// The scrolls `scroll to ROW POS` makes: the nested stacks' and the root's (SPEC §2.8).
    func scrollTargets(to row: RowID, _ position: ScrollPosition) throws -> ScrollTargets
}

extension DocumentLayout: ScrollGeometry {}
extension LiveLayout: ScrollGeometry {}
