extension RowField {
    /// Sets this field of `config` to its value in `source`, leaving every other field as it
    /// is: how a compensating step (per-person undo, SPEC §3) reverts only the fields a step
    /// changed. A switch without `default`: a new field stops this compiling until it says how.
    /// - Parameters:
    ///   - source: The config to take the value from.
    ///   - config: The config to change.
    public func copy(from source: RowConfig, to config: inout RowConfig) {
        switch self {
        case .type: config.type = source.type
        case .size: config.size = source.size
        case .content: config.content = source.content
        case .insets: config.insets = source.insets
        case .margin: config.margin = source.margin
        case .grow: config.grow = source.grow
        case .shrink: config.shrink = source.shrink
        case .alignSelf: config.alignSelf = source.alignSelf
        case .hidden: config.hidden = source.hidden
        case .sticky: config.sticky = source.sticky
        case .separator: config.separator = source.separator
        case .minMain, .maxMain, .minCross, .maxCross, .background, .highlight, .text, .aspect, .stickyOffset, .rowInsets, .scrollOffset, .rowSeparator:
            set(value(source), &config)
        case .stack: config.stack = source.stack
        }
    }

    /// The fields whose values differ between `a` and `b`, in table order.
    public static func differing(_ a: RowConfig, _ b: RowConfig) -> [RowField] {
        guard a != b else { return [] }
        return allCases.filter { field in
            var copy = a
            field.copy(from: b, to: &copy)
            return copy != a
        }
    }
}
