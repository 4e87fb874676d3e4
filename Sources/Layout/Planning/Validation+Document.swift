// The document rules applied to whole values (a row's config, the settings, a primitive change),
// built from the same per-value rules (`Validation.length`, `color`, `checkRowID` …) that the
// planner applies word by word, with the planner's paths (`grow`, `fixed`, `separator.color`), so
// that the planner, the importer, the store's write path and the loader give the same message.

extension Validation {
    /// Throws unless every value of `config` is within the document rules; each value is named
    /// `prefix + path` (`grow`, or `row 'a' grow` with `prefix` "row 'a' ").
    /// - Parameters:
    ///   - c: The configuration.
    ///   - p: Put before each value's name in messages.
    /// - Throws: `StackDocError` (`badValue`, `invalidName`) for the first value out of the rules.
    public static func check(_ c: RowConfig, prefix p: String = "") throws {
        try checkTypeName(c.type, p + "type")
        if case .fixed(let n) = c.size { _ = try length(n, p + "fixed") }
        _ = try size(c.content, p + "content")
        if let e = c.insets { _ = try edges(e, p + "insets") }
        _ = try edges(c.margin, p + "margin")
        _ = try length(c.grow, p + "grow")
        _ = try length(c.shrink, p + "shrink")
        _ = try checked(c.separator, p + "separator")
        if let s = c.stack { _ = try length(s.spacing, p + "spacing") }
        for f in RowField.optional {
            if let v = f.value(c) { _ = try check(f, v, p + f.spec.word) }
        }
        try checkLeafOnly(c, p)
    }

    /// The value of optional field `f` within its rule (`RowField.Rule`), normalised (a colour
    /// upper case, `-0` as `0`).
    /// - Parameters:
    ///   - f: An optional field (`RowField.optional`).
    ///   - v: Its value.
    ///   - path: Where it came from, for the message.
    /// - Throws: `StackDocError.Kind.badValue` at `path`.
    public static func check(_ f: RowField, _ v: RowField.Value, _ path: String) throws -> RowField.Value {
        switch (f.kind, v) {
        case let (.number(rule), .number(n)):
            switch rule {
            case .length: return .number(try length(n, path))
            case .color, .textRun, .aspectRatio, .edges, .separatorWords: break
            }
        case let (.text(rule), .text(t)):
            switch rule {
            case .color: return .text(try color(t, path))
            case .textRun:
                guard let run = TextRun(words: t) else {
                    throw StackDocError(.badValue(path: path, problem: "expected 'N [char W] [line H]', got \(quoted(t))"))
                }
                return .text(try text(run, path).words)
            case .aspectRatio:
                guard let ratio = TextRun.ratio(words: t) else {
                    throw StackDocError(.badValue(path: path, problem: "expected 'W H', got \(quoted(t))"))
                }
                return .text(TextRun.ratioWords(try aspect(ratio, path)))
            case .edges:
                guard let e = TextRun.edges(words: t) else {
                    throw StackDocError(.badValue(path: path, problem: "expected 'T L B R', got \(quoted(t))"))
                }
                return .text(TextRun.edgeWords(try edges(e, path)))
            case .separatorWords:
                guard let o = SeparatorOverrides(words: t) else {
                    throw StackDocError(.badValue(path: path, problem: "expected SEPSPEC words ('hidden|shown', 'insets T L B R', 'thickness N', 'color #RRGGBB'), got \(quoted(t))"))
                }
                return .text(try checked(o, path).words)
            case .length: break
            }
        default: break
        }
        throw StackDocError(.badValue(path: path, problem: "not a value of this field"))
    }

    /// Separator overrides within the document rules, normalised (a colour upper case); each
    /// value is named `path` + `.insets`, `.thickness`, `.color`.
    /// - Throws: `StackDocError.Kind.badValue` for the first value out of the rules.
    static func checked(_ o: SeparatorOverrides, _ path: String) throws -> SeparatorOverrides {
        var r = o
        if let e = o.insets { r.insets = try edges(e, path + ".insets") }
        if let t = o.thickness { r.thickness = try length(t, path + ".thickness") }
        if let c = o.color { r.color = try color(c, path + ".color") }
        return r
    }

    /// The allocation-free test of `check(_:_:_:)`.
    @inline(__always)
    static func isValid(_ f: RowField, _ v: RowField.Value) -> Bool {
        switch (f.kind, v) {
        case let (.number(rule), .number(n)): return rule == .length && isLength(n)
        case let (.text(rule), .text(t)):
            switch rule {
            case .color: return isColor(t)
            case .textRun, .aspectRatio, .edges, .separatorWords: return (try? check(f, v, "")) != nil
            case .length: return false
            }
        default: return false
        }
    }

    /// The allocation-free fast path of `check(_:prefix:)`: true exactly when it would not throw.
    /// For callers that check many rows (the loader) and build a message only for a bad one.
    public static func isValid(_ c: RowConfig) -> Bool {
        if case .fixed(let n) = c.size, !isLength(n) { return false }
        guard isLength(c.content.width), isLength(c.content.height), isLength(c.margin),
              isLength(c.grow), isLength(c.shrink) else { return false }
        if let e = c.insets, !isLength(e) { return false }
        if let e = c.separator.insets, !isLength(e) { return false }
        if let t = c.separator.thickness, !isLength(t) { return false }
        if let s = c.stack, !isLength(s.spacing) { return false }
        if let color = c.separator.color, !isColor(color) { return false }
        if (c.hasHeightForWidth || c.hasStackOnlyFields) && (try? checkLeafOnly(c, "")) == nil { return false }
        for f in RowField.optional {
            if let v = f.value(c), !isValid(f, v) { return false }
        }
        return c.type == "view" || isValidTypeName(c.type)
    }

    /// Throws unless every setting is within the document rules (the offset only has to be
    /// finite: it is clamped to the content).
    /// - Parameter s: The settings.
    /// - Throws: `StackDocError.Kind.badValue` for the first setting out of the rules.
    public static func check(_ s: DocumentSettings) throws {
        _ = try size(s.viewport, "viewport")
        _ = try finite(s.offset, "offset")
        _ = try edges(s.padding, "padding")
        _ = try length(s.spacing, "spacing")
        _ = try edges(s.defaults.insets, "defaults.insets")
        _ = try edges(s.defaults.separator.insets, "defaults.separator.insets")
        _ = try length(s.defaults.separator.thickness, "defaults.separator.thickness")
        _ = try color(s.defaults.separator.color, "defaults.separator.color")
        _ = try edges(s.viewportInsets, "viewportInsets")
        _ = try length(s.keyboard, "keyboard")
        _ = try edges(s.safeArea, "safeArea")
    }

    /// Throws unless the ids and the new values `change` writes are within the document rules,
    /// with the planner's messages (a change the planner made always passes).
    /// - Parameter change: A primitive change.
    /// - Throws: `StackDocError` (`badValue`, `invalidName`) for the first id or value out of the
    ///   rules.
    public static func check(_ change: Change) throws {
        switch change {
        case let .insertRow(id, config, parent, _), let .removeRow(id, config, parent, _):
            try checkRowID(id)
            if let parent { try checkRowID(parent, "parent") }
            // The allocation-free test first: the messages' paths are built only for a bad row.
            if !isValid(config) { try check(config) }
        case let .updateRow(id, _, new):
            try checkRowID(id)
            if !isValid(new) { try check(new) }
        case let .moveRow(id, _, _, toParent, _):
            try checkRowID(id)
            if let toParent { try checkRowID(toParent, "parent") }
        case let .updateSettings(_, new):
            try check(new)
        }
    }

    /// A length within the limits (false for NaN).
    @inline(__always)
    static func isLength(_ v: Double) -> Bool { v >= 0 && v <= DocumentLimits.maxLength }

    @inline(__always)
    static func isLength(_ e: Edges) -> Bool { isLength(e.top) && isLength(e.left) && isLength(e.bottom) && isLength(e.right) }
}
