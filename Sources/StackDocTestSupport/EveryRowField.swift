import Layout

/// A config that sets every field of `RowConfig` (and of its stack settings and separator
/// overrides) to a value other than its default, and rows that carry it into a document: what
/// the round trips of every format (the saved format, the log, the snapshot image, the store's
/// columns, `log export`'s import block) are checked on. `unsetFields` finds a field the config
/// leaves at its default, by reflection: a field added to the model fails the tests that ask
/// for it (`EveryRowFieldTests`) until `config` sets it, and then every round trip carries it.
public enum EveryRowField {
    /// Every field set to a value other than its default.
    public static let config = RowConfig(
        type: "cell", size: .fixed(33), content: Size(width: 7, height: 9), insets: Edges(top: 1, left: 2, bottom: 3, right: 4),
        margin: Edges(top: 5, left: 6, bottom: 7, right: 8), grow: 2, shrink: 0.5, alignSelf: .center, hidden: true,
        separator: SeparatorOverrides(hidden: false, insets: Edges(top: 0, left: 9, bottom: 0, right: 9), thickness: 2, color: "#ff0000"),
        stack: StackSettings(axis: .horizontal, justify: .center, align: .end, spacing: 4), sticky: true,
        minMain: 10, maxMain: 90, minCross: 11, maxCross: 91, background: "#00ff00", highlight: "#0000ff",
        text: TextRun(count: 12, glyphWidth: 7.5, lineHeight: 17), aspect: Size(width: 16, height: 9), stickyOffset: 44,
        rowInsets: Edges(top: 0, left: 4, bottom: 0, right: 4), scrollOffset: 25,
        rowSeparator: SeparatorOverrides(hidden: true, insets: Edges(top: 0, left: 20, bottom: 0, right: 0), thickness: 0.5, color: "#E0E0E0"))

    /// Appends rows that between them set every field of `config` (a document takes text and
    /// aspect only on leaves and never both on one row, and row defaults — `rowInsets`, `rowSeparator` — only on
    /// stacks, as is `scrolls`): a stack `s` holding `a` and `r`, whose aspect ratio needs no text, and a plain one
    /// with a background, `b`; `ratioSize` is `r`'s size; `prefix` goes before each id.
    /// `schema15`: only the fields a schema-15 row could hold (not the sticky offset and the row
    /// defaults).
    public static func appendRows(to document: inout Document, ratioSize: RowSize? = nil, background: String = "#abcdef",
                                  prefix: String = "", schema15: Bool = false) throws {
        var outer = config
        if schema15 { (outer.stickyOffset, outer.rowInsets, outer.scrollOffset, outer.rowSeparator) = (nil, nil, nil, nil) }
        outer.text = nil
        outer.aspect = nil
        var inner = outer
        inner.text = config.text
        inner.stack = nil
        (inner.rowInsets, inner.rowSeparator, inner.scrollOffset) = (nil, nil, nil)  // a stack's fields
        inner.hidden = false
        inner.aspect = nil
        var ratio = inner
        ratio.text = nil
        ratio.aspect = config.aspect
        if let ratioSize { ratio.size = ratioSize }
        try document.appendRow(prefix + "s", config: outer, parent: nil)
        try document.appendRow(prefix + "a", config: inner, parent: prefix + "s")
        try document.appendRow(prefix + "r", config: ratio, parent: prefix + "s")
        try document.appendRow(prefix + "b", config: RowConfig(size: .fixed(10), background: background), parent: nil)
    }

    /// The fields (dotted paths, `stack.spacing`) at which `c` equals the default — a fresh
    /// row's config, and a fresh `StackSettings()` inside `stack` — found by reflection, so a
    /// field nobody listed anywhere is found too.
    public static func unsetFields(_ c: RowConfig) -> [String] {
        var unset = unsetPaths(c, RowConfig(), "").filter { $0 != "stack" }
        if let stack = c.stack { unset += unsetPaths(stack, StackSettings(), "stack.") } else { unset.append("stack") }
        return unset
    }

    private static func unsetPaths(_ value: Any, _ base: Any, _ prefix: String) -> [String] {
        let (m, b) = (Mirror(reflecting: value), Mirror(reflecting: base))
        var paths: [String] = []
        for (child, baseChild) in zip(m.children, b.children) {
            let path = prefix + (child.label ?? "?")
            let (cm, bm) = (Mirror(reflecting: child.value), Mirror(reflecting: baseChild.value))
            if cm.displayStyle == .struct, bm.displayStyle == .struct, !cm.children.isEmpty {
                paths += unsetPaths(child.value, baseChild.value, path + ".")
            } else if String(describing: child.value) == String(describing: baseChild.value) {
                paths.append(path)
            }
        }
        return paths
    }
}
