/// The fields of a `RowConfig` that only a stack row uses and few rows set. A config keeps them
/// behind one reference (`RowConfig.stackOnly`, nil when none is set), so that the config of
/// the common row — which every bulk path (import, open, export, the store's row coding) copies,
/// compares and validates once per row — does not carry their 136 bytes.
struct StackOnlyFields: Hashable, Sendable {
    var rowInsets: Edges?
    var scrollOffset: Double?
    var rowSeparator: SeparatorOverrides?

    /// True when none is set.
    var isEmpty: Bool { rowInsets == nil && scrollOffset == nil && rowSeparator == nil }
}

/// `StackOnlyFields` on the heap: never changed in place (a setter makes a new box), so the
/// configs copied from one another share one and a copy costs a retain. Equal and hashed by
/// value, so a config's equality and hash are those of its fields.
final class StackOnlyBox: Hashable, Sendable {
    let fields: StackOnlyFields

    /// A box holding `fields`; nil when none is set (a config without them holds no box, which
    /// keeps equality by value: never an empty box beside a nil one).
    init?(_ fields: StackOnlyFields) {
        guard !fields.isEmpty else { return nil }
        self.fields = fields
    }

    static func == (a: StackOnlyBox, b: StackOnlyBox) -> Bool { a === b || a.fields == b.fields }

    func hash(into hasher: inout Hasher) { fields.hash(into: &hasher) }
}

extension RowConfig {
    /// `defaults insets T L B R in STACK` (`row-insets T L B R`): the insets of the rows inside
    /// this stack, at any depth, that set none — until a nested stack sets its own (nil: its
    /// parent's default, the document's at the root). Only a stack row uses it.
    public var rowInsets: Edges? {
        get { stackOnly?.fields.rowInsets }
        set { updateStackOnly(newValue == nil) { $0.rowInsets = newValue } }
    }

    /// `scrolls` (`scroll STACK N`): the stack scrolls on its own along its axis (CSS
    /// `overflow: auto` along it, clipped across) and shows its rows moved back by this offset
    /// (SPEC §2.8; nil: it does not scroll). The offset is view state: `scroll STACK N` sets it
    /// (logged, not an undo step) and the layout shows it clamped to the stack's content. Only a
    /// stack row uses it.
    public var scrollOffset: Double? {
        get { stackOnly?.fields.scrollOffset }
        set { updateStackOnly(newValue == nil) { $0.scrollOffset = newValue } }
    }

    /// `defaults separator SEPSPEC… in STACK` (`row-separator SEPSPEC`): separator overrides for
    /// the rows inside this stack, at any depth, over its enclosing stack's (the document's at
    /// the root); a row's own overrides lay over them (nil: none; never empty). Only a stack row
    /// uses it.
    public var rowSeparator: SeparatorOverrides? {
        get { stackOnly?.fields.rowSeparator }
        set { updateStackOnly(newValue == nil) { $0.rowSeparator = newValue } }
    }

    /// True when the config sets any of the stack-only fields (`rowInsets`, `scrollOffset`,
    /// `rowSeparator`): one test of a reference.
    var hasStackOnlyFields: Bool { stackOnly != nil }

    /// Applies `change` to a copy of the stack-only fields and keeps the result in a new box (or
    /// none, when nothing is left set). Clearing a field of a config that sets none (`clearing`)
    /// changes nothing and costs nothing: the loaders and decoders clear every optional field.
    private mutating func updateStackOnly(_ clearing: Bool, _ change: (inout StackOnlyFields) -> Void) {
        if clearing, stackOnly == nil { return }
        var fields = stackOnly?.fields ?? StackOnlyFields()
        change(&fields)
        stackOnly = StackOnlyBox(fields)
    }
}

extension RowConfig: CustomReflectable {
    /// Every field by its name, in declaration order, the stack-only ones (`rowInsets`,
    /// `scrollOffset`, `rowSeparator`) last and flat, as if stored in place: what reflection
    /// sees (`EveryRowField.unsetFields`, the store's verification diff, `dump`) is the config's
    /// fields, not their box.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "type": type, "size": size, "content": content, "insets": insets as Any, "margin": margin, "grow": grow,
            "shrink": shrink, "alignSelf": alignSelf, "hidden": hidden, "separator": separator, "stack": stack as Any,
            "sticky": sticky, "minMain": minMain as Any, "maxMain": maxMain as Any, "minCross": minCross as Any,
            "maxCross": maxCross as Any, "background": background as Any, "highlight": highlight as Any,
            "text": text as Any, "aspect": aspect as Any, "stickyOffset": stickyOffset as Any,
            "rowInsets": rowInsets as Any, "scrollOffset": scrollOffset as Any, "rowSeparator": rowSeparator as Any,
        ], displayStyle: .struct)
    }
}
