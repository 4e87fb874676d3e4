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
        let target: Double
        let layout: DocumentLayout
        switch spec {
        case let .offset(v):
            target = try Validation.finite(v, "offset")
            layout = self.layout()
        case let .by(d):
            let delta = try Validation.finite(d, "scroll by")
            layout = self.layout()
            target = layout.offset + delta
        case let .to(row, position):
            _ = try requireRow(row)
            layout = self.layout()
            target = try layout.scrollOffset(to: row, position)
        }
        var new = settings
        new.offset = layout.clamp(target) + 0
        return settingsChange(to: new)
    }

    /// `viewport W H`: both lengths ≥ 0 (0 is allowed: nothing but zero-area rows is visible).
    func planViewport(_ size: Size) throws -> [Change] {
        var new = settings
        new.viewport = try Validation.size(size, "viewport")
        return settingsChange(to: new)
    }

    private func settingsChange(to new: DocumentSettings) -> [Change] {
        new == settings ? [] : [.updateSettings(old: settings, new: new)]
    }
}
