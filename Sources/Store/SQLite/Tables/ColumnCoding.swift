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
            throw StoreError.internal("bad edges '\(text)' in column \(column)")
        }
        return Edges(top: t, left: l, bottom: b, right: r)
    }

    static func parse<E: RawRepresentable>(_ type: E.Type, _ text: String, column: String) throws -> E where E.RawValue == String {
        guard let value = E(rawValue: text) else {
            throw StoreError.internal("bad value '\(text)' in column \(column)")
        }
        return value
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
                                  "separator_thickness", "separator_color", "autohide_last_separator",
                                  "viewport_insets", "keyboard", "viewport_safe_area"]

    static func values(_ s: DocumentSettings) -> [(any DatabaseValueConvertible)?] {
        [s.axis.rawValue, s.viewport.width, s.viewport.height, s.offset, text(s.padding), s.spacing,
         s.justify.rawValue, s.align.rawValue, text(s.defaults.insets), s.defaults.separator.hidden,
         text(s.defaults.separator.insets), s.defaults.separator.thickness, s.defaults.separator.color,
         s.defaults.autoHideLastSeparator, text(s.viewportInsets), s.keyboard, text(s.safeArea)]
    }

    /// Reads settings from a GRDB row holding `settingsColumns`.
    static func settings(_ row: GRDB.Row) throws -> DocumentSettings {
        func str(_ c: String) throws -> String {
            guard let s: String = try row.decode(forColumn: c) else { throw StoreError.internal("document column \(c) is NULL") }
            return s
        }
        func num(_ c: String) throws -> Double {
            guard let d: Double = try row.decode(forColumn: c) else { throw StoreError.internal("document column \(c) is NULL") }
            return d
        }
        func bool(_ c: String) throws -> Bool {
            guard let b: Bool = try row.decode(forColumn: c) else { throw StoreError.internal("document column \(c) is NULL") }
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
                autoHideLastSeparator: try bool("autohide_last_separator")),
            viewportInsets: try edges(try str("viewport_insets"), column: "viewport_insets"),
            keyboard: try num("keyboard"),
            safeArea: try edges(try str("viewport_safe_area"), column: "viewport_safe_area"))
    }
}

/// SQLite's SQLITE_TRANSIENT destructor (copy the bound bytes), which Swift cannot import.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
