import Layout
import Store

/// `diff` as text: a summary line, the settings that differ, then one line per row
/// (`+` added, `-` removed, `~` changed or moved) with its fields old → new and its frames.
enum DiffText {
    static func lines(_ h: HistoryDiff) -> [String] {
        let d = h.diff
        let added = d.rows.filter { $0.kind == .added }.count, removed = d.rows.filter { $0.kind == .removed }.count
        let moved = d.rows.filter(\.moved).count, changed = d.rows.filter { $0.kind == .changed && !$0.fields.isEmpty }.count
        var lines = ["diff log entry \(h.from) → \(h.to): \(added) added, \(removed) removed, \(moved) moved, \(changed) changed, \(d.settings.count) setting\(d.settings.count == 1 ? "" : "s")"]
        if d.isEmpty { return lines + ["(no differences)"] }
        for f in d.settings { lines.append("settings " + field(f)) }
        for row in d.rows {
            var parts: [String] = []
            switch row.kind {
            case .added:
                parts.append("+ \(Printer.id(row.id)) at \(place(row.new))")
                parts.append("frame \(Format.rect(row.newFrame))")
            case .removed:
                parts.append("- \(Printer.id(row.id)) from \(place(row.old))")
                parts.append("frame was \(Format.rect(row.oldFrame))")
            case .changed:
                parts.append("~ \(Printer.id(row.id))")
                if row.moved { parts.append("moved \(place(row.old)) → \(place(row.new))") }
                parts += row.fields.map(field)
                if row.oldFrame != row.newFrame { parts.append("frame \(Format.rect(row.oldFrame)) → \(Format.rect(row.newFrame))") }
            }
            lines.append(parts.joined(separator: "; "))
        }
        return lines
    }

    /// `2 in 's'` / `0 in the root`.
    static func place(_ p: DocumentDiff.Place?) -> String {
        guard let p else { return "-" }
        return "\(p.index) in " + (p.parent.map(Printer.id) ?? "the root")
    }

    static func field(_ f: DocumentDiff.Field) -> String {
        "\(f.path) \(Printer.label(JSONWriter.compact(f.old))) → \(Printer.label(JSONWriter.compact(f.new)))"
    }
}

/// `diff` as JSON: `{"from":N,"to":M,"settings":[{"field","old","new"}],"rows":[{"id","change",
/// "old":{"parent","index"},"new":…,"moved","fields":[…],"oldFrame","newFrame"}]}`.
enum DiffJSON {
    static func value(_ h: HistoryDiff) -> JSONValue {
        func fields(_ list: [DocumentDiff.Field]) -> JSONValue {
            .array(list.map { .object([JSONMember("field", .string($0.path)), JSONMember("old", $0.old), JSONMember("new", $0.new)]) })
        }
        func place(_ p: DocumentDiff.Place?) -> JSONValue {
            guard let p else { return .null }
            return .object([JSONMember("parent", p.parent.map(JSONValue.string) ?? .null), JSONMember("index", .number(Double(p.index)))])
        }
        return .object([
            JSONMember("from", .number(Double(h.from))),
            JSONMember("to", .number(Double(h.to))),
            JSONMember("settings", fields(h.diff.settings)),
            JSONMember("rows", .array(h.diff.rows.map { r in
                .object([
                    JSONMember("id", .string(r.id)), JSONMember("change", .string(r.kind.rawValue)),
                    JSONMember("old", place(r.old)), JSONMember("new", place(r.new)), JSONMember("moved", .bool(r.moved)),
                    JSONMember("fields", fields(r.fields)),
                    JSONMember("oldFrame", r.oldFrame?.jsonValue ?? .null), JSONMember("newFrame", r.newFrame?.jsonValue ?? .null),
                ])
            })),
        ])
    }
}
