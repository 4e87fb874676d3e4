import Layout

/// The on-disk format of the log's payloads: the `Edit` of an `op`/`view` entry, the `[Change]`
/// of `forward`/`inverse`, the `DocumentSettings` of `new`/`import` — written and read here
/// with every key spelled out, never through synthesized `Codable`, so renaming a Swift case or
/// label cannot change what is stored.
///
/// Format 1 is byte for byte what the first releases stored (they used the synthesized
/// coding): compact JSON, keys sorted; an enum case is an object with one key, the case name,
/// holding its labelled values (`_0`, `_1` for unlabelled ones; `{}` for none); absent
/// optionals are left out. So databases written before the format was explicit are format 1 as
/// they stand. Each log entry records its format in `log.format` (migration 0004; entries
/// written before it read as 1).
///
/// Format 2 (issue 15 item 8, schema 10) writes every value as format 1 does, but no entry
/// stores `inverse` (NULL: it is the inverse of `forward`), and an `undo`/`redo` entry refers to
/// the steps it moved instead of copying their changes (`HistoryMoveLog`).
/// Format 3 (issue 15 item 8, schema 15) writes `forward` as a BLOB in a compact binary coding
/// (`ChangeBlob`) instead of JSON text; everything else is format 2. Migration 0020 converts
/// entries of formats 1 and 2 to format 3 (`Sources/Store/SQLite/Upgrade/LegacyLog.swift`, the
/// one reader of their text); the running store reads format 3 alone. The payloads' JSON is the
/// same in all three.
/// `Tests/StoreTests/Fixtures/log-format-1.json` holds one example of every case and is
/// decoded and re-encoded byte for byte by a test.
package enum LogFormat {
    /// The format this build writes, and the newest it reads.
    package static let version = 3

    // MARK: Encoding

    package static func encode(_ edit: Edit) throws -> String { try value(edit).text() }
    /// The JSON text of `changes`, as entries of formats 1 and 2 held `forward` (this build
    /// writes format 3's `ChangeBlob`; tests write the older text to build the logs of earlier
    /// releases, which migration 0020 converts).
    package static func encode(_ changes: [Change]) throws -> String { try LogValue.array(changes.map(value)).text() }
    package static func encode(_ settings: DocumentSettings) throws -> String { try value(settings).text() }

    /// An object of the non-nil fields.
    private static func object(_ fields: KeyValuePairs<String, LogValue?>) -> LogValue { .object(members(fields)) }

    /// The non-nil fields.
    private static func members(_ fields: KeyValuePairs<String, LogValue?>) -> [String: LogValue] {
        var out: [String: LogValue] = [:]
        for (key, value) in fields { if let value { out[key] = value } }
        return out
    }

    /// An enum case: `{"name": {fields}}`.
    private static func tag(_ name: String, _ fields: KeyValuePairs<String, LogValue?> = [:]) -> LogValue {
        .object([name: object(fields)])
    }

    private static func string(_ s: String?) -> LogValue? { s.map(LogValue.string) }
    private static func ids(_ ids: [RowID]) -> LogValue { .array(ids.map(LogValue.string)) }

    package static func value(_ e: Edges) -> LogValue {
        object(["bottom": .double(e.bottom), "left": .double(e.left), "right": .double(e.right), "top": .double(e.top)])
    }

    package static func value(_ s: Size) -> LogValue { object(["height": .double(s.height), "width": .double(s.width)]) }

    package static func value(_ s: RowSize) -> LogValue {
        switch s {
        case .fit: return tag("fit")
        case let .fixed(d): return tag("fixed", ["_0": .double(d)])
        }
    }

    package static func value(_ s: StackSettings) -> LogValue {
        object(["align": .string(s.align.rawValue), "axis": .string(s.axis.rawValue),
                "justify": .string(s.justify.rawValue), "spacing": .double(s.spacing)])
    }

    package static func value(_ s: SeparatorOverrides) -> LogValue {
        object(["color": string(s.color), "hidden": s.hidden.map(LogValue.bool),
                "insets": s.insets.map(value), "thickness": s.thickness.map(LogValue.double)])
    }

    package static func value(_ s: SeparatorStyle) -> LogValue {
        object(["color": .string(s.color), "hidden": .bool(s.hidden), "insets": value(s.insets), "thickness": .double(s.thickness)])
    }

    package static func value(_ c: RowConfig) -> LogValue {
        var fields = members([
            "alignSelf": .string(c.alignSelf.rawValue), "content": value(c.content), "grow": .double(c.grow),
            "hidden": .bool(c.hidden), "insets": c.insets.map(value), "margin": value(c.margin),
            "separator": value(c.separator), "shrink": .double(c.shrink), "size": value(c.size),
            "stack": c.stack.map(value), "type": .string(c.type),
            // Optional in format 1: absent means false.
            "sticky": c.sticky ? .bool(true) : nil,
        ])
        // The optional fields (`RowField.optional`, issue 14 on): optional in format 1, absent
        // when not set, as in entries written before them.
        for field in RowField.optional {
            if let v = field.value(c) { fields[field.spec.log] = value(v) }
        }
        return .object(fields)
    }

    package static func value(_ v: RowField.Value) -> LogValue {
        switch v {
        case let .number(n): return .double(n)
        case let .text(t): return .string(t)
        }
    }

    package static func value(_ d: DocumentDefaults) -> LogValue {
        object(["autoHideLastSeparator": .bool(d.autoHideLastSeparator), "insets": value(d.insets), "separator": value(d.separator)])
    }

    package static func value(_ s: DocumentSettings) -> LogValue {
        object(["align": .string(s.align.rawValue), "axis": .string(s.axis.rawValue), "defaults": value(s.defaults),
                "justify": .string(s.justify.rawValue), "offset": .double(s.offset), "padding": value(s.padding),
                "spacing": .double(s.spacing), "viewport": value(s.viewport),
                // Optional in format 1: absent (entries written before them) means zero.
                "viewportInsets": s.viewportInsets == .zero ? nil : value(s.viewportInsets),
                "keyboard": s.keyboard == 0 ? nil : .double(s.keyboard),
                "safeArea": s.safeArea == .zero ? nil : value(s.safeArea)])
    }

    package static func value(_ p: Position) -> LogValue {
        switch p {
        case .top: return tag("top")
        case .bottom: return tag("bottom")
        case let .index(i): return tag("index", ["_0": .int(i)])
        case let .after(id): return tag("after", ["_0": .string(id)])
        case let .before(id): return tag("before", ["_0": .string(id)])
        }
    }

    package static func value(_ s: SeparatorSpec) -> LogValue {
        switch s {
        case .hidden: return tag("hidden")
        case .shown: return tag("shown")
        case let .insets(e): return tag("insets", ["_0": value(e)])
        case let .thickness(d): return tag("thickness", ["_0": .double(d)])
        case let .color(c): return tag("color", ["_0": .string(c)])
        case .default: return tag("default")
        }
    }

    package static func value(_ item: RowSpecItem) -> LogValue {
        switch item {
        case let .type(t): return tag("type", ["_0": .string(t)])
        case let .fixed(d): return tag("fixed", ["_0": .double(d)])
        case .fit: return tag("fit")
        case let .content(s): return tag("content", ["_0": value(s)])
        case let .insets(e): return tag("insets", ["_0": value(e)])
        case .insetsDefault: return tag("insetsDefault")
        case let .margin(e): return tag("margin", ["_0": value(e)])
        case let .grow(d): return tag("grow", ["_0": .double(d)])
        case let .shrink(d): return tag("shrink", ["_0": .double(d)])
        case let .align(a): return tag("align", ["_0": .string(a.rawValue)])
        case .hidden: return tag("hidden")
        case let .stack(a): return tag("stack", ["_0": .string(a.rawValue)])
        case .unstack: return tag("unstack")
        case let .justify(j): return tag("justify", ["_0": .string(j.rawValue)])
        case let .alignItems(a): return tag("alignItems", ["_0": .string(a.rawValue)])
        case let .spacing(d): return tag("spacing", ["_0": .double(d)])
        case let .separator(s): return tag("separator", ["_0": value(s)])
        case let .sticky(on): return tag("sticky", ["_0": .bool(on)])
        case let .scrolls(on): return tag("scrolls", ["_0": .bool(on)])
        case let .text(t): return tag("text", ["_0": t.map(value)])
        case let .aspect(a): return tag("aspect", ["_0": a.map(value)])
        case let .rowInsets(e): return tag("rowInsets", ["_0": e.map(value)])
        case let .rowSeparator(s): return tag("rowSeparator", ["_0": value(s)])
        default:
            // The optional fields (`RowField.optional`): the saved format's key, the value or `{}`.
            guard let (field, v) = item.optionalField else { return tag("") }
            return tag(field.spec.json, ["_0": v.map(value)])
        }
    }

    package static func value(_ t: TextRun) -> LogValue {
        object(["count": .int(t.count), "char": .double(t.glyphWidth), "line": .double(t.lineHeight)])
    }

    package static func value(_ s: StackSettingSpec) -> LogValue {
        switch s {
        case let .axis(a): return tag("axis", ["_0": .string(a.rawValue)])
        case let .padding(e): return tag("padding", ["_0": value(e)])
        case let .spacing(d): return tag("spacing", ["_0": .double(d)])
        case let .justify(j): return tag("justify", ["_0": .string(j.rawValue)])
        case let .align(a): return tag("align", ["_0": .string(a.rawValue)])
        }
    }

    package static func value(_ d: DefaultsSpec) -> LogValue {
        switch d {
        case let .insets(e): return tag("insets", ["_0": value(e)])
        case let .separator(specs): return tag("separator", ["_0": .array(specs.map(value))])
        case let .autoHide(b): return tag("autoHide", ["_0": .bool(b)])
        }
    }

    package static func value(_ o: ObscuredSpec) -> LogValue {
        switch o {
        case let .insets(viewport, insets): return tag("insets", ["insets": value(insets), "viewport": viewport.map(value)])
        case let .safeArea(viewport, safeArea): return tag("safeArea", ["safeArea": value(safeArea), "viewport": viewport.map(value)])
        case let .keyboard(h): return tag("keyboard", ["_0": h.map(LogValue.double)])
        }
    }

    package static func value(_ s: ScrollSpec) -> LogValue {
        switch s {
        case let .offset(d): return tag("offset", ["_0": .double(d)])
        case let .by(d): return tag("by", ["_0": .double(d)])
        case let .to(id, position): return tag("to", ["_0": .string(id), "_1": .string(position.rawValue)])
        case let .focus(id): return tag("focus", ["_0": .string(id)])
        case let .stack(id, d): return tag("stack", ["_0": .string(id), "_1": .double(d)])
        }
    }

    package static func value(_ edit: Edit) -> LogValue {
        let spec = { (items: [RowSpecItem]) in LogValue.array(items.map(value)) }
        switch edit {
        case let .add(rows, items, position, parent):
            return tag("add", ["ids": ids(rows), "parent": string(parent), "position": position.map(value), "spec": spec(items)])
        case let .remove(rows): return tag("remove", ["ids": ids(rows)])
        case let .clear(parent): return tag("clear", ["parent": string(parent)])
        case let .replace(id, newID, items): return tag("replace", ["id": .string(id), "newID": .string(newID), "spec": spec(items)])
        case let .move(id, position, parent):
            return tag("move", ["id": .string(id), "parent": string(parent), "position": value(position)])
        case let .hide(rows): return tag("hide", ["ids": ids(rows)])
        case let .show(rows): return tag("show", ["ids": ids(rows)])
        case let .set(id, items): return tag("set", ["id": .string(id), "spec": spec(items)])
        case let .setRows(rows, items): return tag("setRows", ["ids": ids(rows), "spec": spec(items)])
        case let .setStack(s): return tag("setStack", ["_0": value(s)])
        case let .defaults(d): return tag("defaults", ["_0": value(d)])
        case let .scroll(s): return tag("scroll", ["_0": value(s)])
        case let .viewport(s): return tag("viewport", ["_0": value(s)])
        case let .obscured(o): return tag("obscured", ["_0": value(o)])
        }
    }

    package static func value(_ change: Change) -> LogValue {
        switch change {
        case let .insertRow(id, config, parent, index):
            return tag("insertRow", ["config": value(config), "id": .string(id), "index": .int(index), "parent": string(parent)])
        case let .removeRow(id, config, parent, index):
            return tag("removeRow", ["config": value(config), "id": .string(id), "index": .int(index), "parent": string(parent)])
        case let .updateRow(id, old, new):
            return tag("updateRow", ["id": .string(id), "new": value(new), "old": value(old)])
        case let .moveRow(id, fromParent, fromIndex, toParent, toIndex):
            return tag("moveRow", ["fromIndex": .int(fromIndex), "fromParent": string(fromParent), "id": .string(id),
                                   "toIndex": .int(toIndex), "toParent": string(toParent)])
        case let .updateSettings(old, new):
            return tag("updateSettings", ["new": value(new), "old": value(old)])
        }
    }
}
