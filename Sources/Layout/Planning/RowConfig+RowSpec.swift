// Applying ROWSPEC and SEPSPEC word groups (SPEC §4.1) onto configs, validating every value.

/// What `justify`, `align-items` and `spacing` do on a leaf (`RowConfig.leafStackWords`).
public enum LeafStackWords: Sendable {
    /// Refused: the row must be a stack, or `stack A` in the same ROWSPEC makes it one.
    case refuse
    /// The word makes the leaf a `stack vertical` first: the rule before they were refused,
    /// under which older logs were written (re-planned by `verify`).
    case makeStack
}

extension RowConfig {
    /// What `justify`, `align-items` and `spacing` do on a leaf, for the current task: `.refuse`
    /// except while `verify` re-plans a logged edit that only plans under the older rule.
    @TaskLocal public static var leafStackWords: LeafStackWords = .refuse

    /// This config with `spec` applied left to right (a later item wins). `stack A` makes the
    /// row a stack (or changes its axis), `stack none` a leaf. `justify`, `align-items` and
    /// `spacing` need a stack: the row is one, or `stack A` in the same spec (before or after
    /// them) makes it one; on a leaf they are refused rather than silently making it a stack.
    /// Throws naming the bad value.
    /// - Parameter spec: ROWSPEC items, applied left to right.
    /// - Throws: `StackDocError` (`badValue`, `invalidName`) naming the bad value; nothing is applied.
    public func applying(_ spec: [RowSpecItem]) throws -> RowConfig {
        var config = self
        // Stack settings given while the row is a leaf, for a `stack A` later in the spec, and
        // the word of the first of them (refused when no `stack A` follows).
        var waiting: StackSettings?
        var waitingWord: String?
        func setStack(_ word: String, _ change: (inout StackSettings) -> Void) {
            if config.stack == nil, RowConfig.leafStackWords == .makeStack {
                config.stack = StackSettings()
            }
            if config.stack != nil {
                change(&config.stack!)
            } else {
                var settings = waiting ?? StackSettings()
                change(&settings)
                waiting = settings
                waitingWord = waitingWord ?? word
            }
        }
        for item in spec {
            switch item {
            case let .type(t):
                try Validation.checkTypeName(t)
                config.type = t
            case let .fixed(n):
                config.size = .fixed(try Validation.length(n, "fixed"))
            case .fit:
                config.size = .fit
            case let .content(s):
                config.content = try Validation.size(s, "content")
            case let .insets(e):
                config.insets = try Validation.edges(e, "insets")
            case .insetsDefault:
                config.insets = nil
            case let .margin(e):
                config.margin = try Validation.edges(e, "margin")
            case let .grow(g):
                config.grow = try Validation.length(g, "grow")
            case let .shrink(s):
                config.shrink = try Validation.length(s, "shrink")
            case let .align(a):
                config.alignSelf = a
            case .hidden:
                config.hidden = true
            case let .sticky(on):
                config.sticky = on
                if !on { config.stickyOffset = nil }
            case let .stickyOffset(n):
                config.stickyOffset = try n.map { try Validation.length($0, "sticky") }
                config.sticky = true
            case let .stack(axis):
                config.stack = config.stack ?? waiting ?? StackSettings()
                config.stack?.axis = axis
                (waiting, waitingWord) = (nil, nil)
            case .unstack:
                config.stack = nil
                (config.rowInsets, config.rowSeparator) = (nil, nil) // a leaf has no rows to give defaults to
                config.scrollOffset = nil // nor rows to scroll
            case let .justify(j):
                setStack("justify") { $0.justify = j }
            case let .alignItems(a):
                setStack("align-items") { $0.align = a }
            case let .spacing(n):
                let spacing = try Validation.length(n, "spacing")
                setStack("spacing") { $0.spacing = spacing }
            case let .separator(s):
                config.separator = try config.separator.applying(s)
            case let .text(t):
                config.text = try t.map { try Validation.text($0, "text") }
            case let .aspect(a):
                config.aspect = try a.map { try Validation.aspect($0, "aspect") }
            case let .scrolls(on):
                config.scrollOffset = on ? config.scrollOffset ?? 0 : nil
            case let .rowInsets(e):
                config.rowInsets = try e.map { try Validation.edges($0, "row-insets") }
            case let .rowSeparator(spec):
                let o = try (config.rowSeparator ?? SeparatorOverrides()).applying(spec, "row-separator")
                config.rowSeparator = o.isEmpty ? nil : o
            default:
                // The optional fields (`RowField.optional`): checked by the field's rule.
                if let (field, value) = item.optionalField {
                    field.set(try value.map { try Validation.check(field, $0, field.spec.word) }, &config)
                }
            }
        }
        if let waitingWord {
            throw StackDocError(.badValue(path: waitingWord, problem: "only a stack row has it and this row is a leaf: make it a stack in the same command ('stack vertical \(waitingWord) …')"))
        }
        try Validation.checkLeafOnly(config, "")
        return config
    }
}

extension SeparatorOverrides {
    /// These overrides with one SEPSPEC applied; `default` drops every override.
    /// - Parameter spec: One SEPSPEC item.
    /// - Throws: `StackDocError.Kind.badValue` for an invalid value (a negative inset, a bad colour).
    /// - Parameter path: The field's name in messages (`separator`, a stack's `row-separator`).
    public func applying(_ spec: SeparatorSpec, _ path: String = "separator") throws -> SeparatorOverrides {
        var o = self
        switch spec {
        case .hidden: o.hidden = true
        case .shown: o.hidden = false
        case let .insets(e): o.insets = try Validation.edges(e, path + ".insets")
        case let .thickness(t): o.thickness = try Validation.length(t, path + ".thickness")
        case let .color(c): o.color = try Validation.color(c, path + ".color")
        case .default: o = SeparatorOverrides()
        }
        return o
    }
}

extension SeparatorStyle {
    /// This style with one SEPSPEC applied; `default` restores the spec's standard separator.
    /// - Parameter spec: One SEPSPEC item.
    /// - Throws: `StackDocError.Kind.badValue` for an invalid value (a negative inset, a bad colour).
    public func applying(_ spec: SeparatorSpec) throws -> SeparatorStyle {
        var s = self
        switch spec {
        case .hidden: s.hidden = true
        case .shown: s.hidden = false
        case let .insets(e): s.insets = try Validation.edges(e, "separator.insets")
        case let .thickness(t): s.thickness = try Validation.length(t, "separator.thickness")
        case let .color(c): s.color = try Validation.color(c, "separator.color")
        case .default: s = .standard
        }
        return s
    }
}
