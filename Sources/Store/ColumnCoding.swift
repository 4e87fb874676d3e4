import Foundation
import GRDB
import GRDBSQLite
import Layout

/// How model values are written to and read from the schema's columns (migrations/0001).
///
/// Edges are text `top,left,bottom,right` (shortest round-trip decimal form, so every Double
/// comes back bit for bit); enums are their raw values; optional fields are NULL when unset.
enum ColumnCoding {
    // MARK: Edges

    static func text(_ edges: Edges) -> String {
        "\(edges.top),\(edges.left),\(edges.bottom),\(edges.right)"
    }

    static func edges(_ text: String, column: String) throws -> Edges {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4, let t = Double(parts[0]), let l = Double(parts[1]),
              let b = Double(parts[2]), let r = Double(parts[3]) else {
            throw StoreFailure.internal("bad edges '\(text)' in column \(column)")
        }
        return Edges(top: t, left: l, bottom: b, right: r)
    }

    static func parse<E: RawRepresentable>(_ type: E.Type, _ text: String, column: String) throws -> E where E.RawValue == String {
        guard let value = E(rawValue: text) else {
            throw StoreFailure.internal("bad value '\(text)' in column \(column)")
        }
        return value
    }

    // MARK: Row configs

    /// The 18 config columns of `row` and `import_row`, in order.
    static let configColumns = ["type", "size", "content_width", "content_height", "insets", "margin",
                                "grow", "shrink", "align_self", "hidden",
                                "separator_hidden", "separator_insets", "separator_thickness", "separator_color",
                                "stack_axis", "stack_justify", "stack_align", "stack_spacing"]

    /// A config as the values of `configColumns`.
    static func values(_ c: RowConfig) -> [(any DatabaseValueConvertible)?] {
        var size: Double? = nil
        if case .fixed(let n) = c.size { size = n }
        return [c.type, size, c.content.width, c.content.height,
                c.insets.map(text), c.margin == .zero ? nil : text(c.margin),
                c.grow, c.shrink, c.alignSelf.rawValue, c.hidden,
                c.separator.hidden, c.separator.insets.map(text), c.separator.thickness, c.separator.color,
                c.stack?.axis.rawValue, c.stack?.justify.rawValue, c.stack?.align.rawValue, c.stack?.spacing]
    }

    /// Binds a config to `configColumns` starting at parameter `first` (raw C API; bulk writes).
    static func bind(_ c: RowConfig, to stmt: SQLiteStatement, at first: Int32) {
        var i = first
        func bindText(_ s: String?) {
            if let s { sqlite3_bind_text(stmt, i, s, -1, sqliteTransient) } else { sqlite3_bind_null(stmt, i) }
            i += 1
        }
        func bindDouble(_ d: Double?) {
            if let d { sqlite3_bind_double(stmt, i, d) } else { sqlite3_bind_null(stmt, i) }
            i += 1
        }
        func bindBool(_ b: Bool?) {
            if let b { sqlite3_bind_int(stmt, i, b ? 1 : 0) } else { sqlite3_bind_null(stmt, i) }
            i += 1
        }
        var size: Double? = nil
        if case .fixed(let n) = c.size { size = n }
        bindText(c.type); bindDouble(size); bindDouble(c.content.width); bindDouble(c.content.height)
        bindText(c.insets.map(text)); bindText(c.margin == .zero ? nil : text(c.margin))
        bindDouble(c.grow); bindDouble(c.shrink); bindText(c.alignSelf.rawValue); bindBool(c.hidden)
        bindBool(c.separator.hidden); bindText(c.separator.insets.map(text))
        bindDouble(c.separator.thickness); bindText(c.separator.color)
        bindText(c.stack?.axis.rawValue); bindText(c.stack?.justify.rawValue)
        bindText(c.stack?.align.rawValue); bindDouble(c.stack?.spacing)
    }

    /// Reads a config from `configColumns` starting at result column `first` (raw C API: this is
    /// the loop that loads a million rows).
    static func readConfig(_ stmt: SQLiteStatement, at first: Int32) throws -> RowConfig {
        var c = RowConfig()
        let f = first
        c.type = string(stmt, f) ?? "view"
        if sqlite3_column_type(stmt, f + 1) != SQLITE_NULL { c.size = .fixed(sqlite3_column_double(stmt, f + 1)) }
        c.content = Size(width: sqlite3_column_double(stmt, f + 2), height: sqlite3_column_double(stmt, f + 3))
        if let s = string(stmt, f + 4) { c.insets = try edges(s, column: "insets") }
        if let s = string(stmt, f + 5) { c.margin = try edges(s, column: "margin") }
        c.grow = sqlite3_column_double(stmt, f + 6)
        c.shrink = sqlite3_column_double(stmt, f + 7)
        if let s = string(stmt, f + 8), s != "auto" { c.alignSelf = try parse(AlignSelf.self, s, column: "align_self") }
        c.hidden = sqlite3_column_int(stmt, f + 9) != 0
        if sqlite3_column_type(stmt, f + 10) != SQLITE_NULL { c.separator.hidden = sqlite3_column_int(stmt, f + 10) != 0 }
        if let s = string(stmt, f + 11) { c.separator.insets = try edges(s, column: "separator_insets") }
        if sqlite3_column_type(stmt, f + 12) != SQLITE_NULL { c.separator.thickness = sqlite3_column_double(stmt, f + 12) }
        c.separator.color = string(stmt, f + 13)
        if let axis = string(stmt, f + 14) {
            c.stack = StackSettings(
                axis: try parse(Axis.self, axis, column: "stack_axis"),
                justify: try parse(Justify.self, string(stmt, f + 15) ?? "start", column: "stack_justify"),
                align: try parse(Align.self, string(stmt, f + 16) ?? "stretch", column: "stack_align"),
                spacing: sqlite3_column_double(stmt, f + 17))
        }
        return c
    }

    /// The text of a result column, nil when NULL.
    @inline(__always)
    static func string(_ stmt: SQLiteStatement, _ column: Int32) -> String? {
        guard let p = sqlite3_column_text(stmt, column) else { return nil }
        let n = Int(sqlite3_column_bytes(stmt, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    // MARK: Document settings

    /// The settings columns of `document`, in order.
    static let settingsColumns = ["axis", "viewport_width", "viewport_height", "offset", "padding", "spacing",
                                  "justify", "align", "default_insets", "separator_hidden", "separator_insets",
                                  "separator_thickness", "separator_color", "autohide_last_separator"]

    static func values(_ s: DocumentSettings) -> [(any DatabaseValueConvertible)?] {
        [s.axis.rawValue, s.viewport.width, s.viewport.height, s.offset, text(s.padding), s.spacing,
         s.justify.rawValue, s.align.rawValue, text(s.defaults.insets), s.defaults.separator.hidden,
         text(s.defaults.separator.insets), s.defaults.separator.thickness, s.defaults.separator.color,
         s.defaults.autoHideLastSeparator]
    }

    /// Reads settings from a GRDB row holding `settingsColumns`.
    static func settings(_ row: GRDB.Row) throws -> DocumentSettings {
        func str(_ c: String) throws -> String {
            guard let s: String = try row.decode(forColumn: c) else { throw StoreFailure.internal("document column \(c) is NULL") }
            return s
        }
        func num(_ c: String) throws -> Double {
            guard let d: Double = try row.decode(forColumn: c) else { throw StoreFailure.internal("document column \(c) is NULL") }
            return d
        }
        func bool(_ c: String) throws -> Bool {
            guard let b: Bool = try row.decode(forColumn: c) else { throw StoreFailure.internal("document column \(c) is NULL") }
            return b
        }
        return DocumentSettings(
            axis: try parse(Axis.self, try str("axis"), column: "axis"),
            viewport: Size(width: try num("viewport_width"), height: try num("viewport_height")),
            offset: try num("offset"),
            padding: try edges(try str("padding"), column: "padding"),
            spacing: try num("spacing"),
            justify: try parse(Justify.self, try str("justify"), column: "justify"),
            align: try parse(Align.self, try str("align"), column: "align"),
            defaults: DocumentDefaults(
                insets: try edges(try str("default_insets"), column: "default_insets"),
                separator: SeparatorStyle(
                    hidden: try bool("separator_hidden"),
                    insets: try edges(try str("separator_insets"), column: "separator_insets"),
                    thickness: try num("separator_thickness"),
                    color: try str("separator_color")),
                autoHideLastSeparator: try bool("autohide_last_separator")))
    }
}

/// SQLite's SQLITE_TRANSIENT destructor (copy the bound bytes), which Swift cannot import.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
