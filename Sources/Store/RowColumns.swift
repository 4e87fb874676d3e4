import GRDB
import GRDBSQLite
import Layout

/// One stored value of a column: what `encode` gives, what `bind` and `values` write.
enum ColumnValue {
    case text(String?)
    case real(Double?)
    case flag(Bool?)

    /// The value for GRDB statement arguments.
    var argument: (any DatabaseValueConvertible)? {
        switch self {
        case .text(let s): return s
        case .real(let d): return d
        case .flag(let b): return b
        }
    }

    /// Binds the value to parameter `index` of `stmt` (raw C API; NULL when unset).
    @inline(__always)
    func bind(to stmt: SQLiteStatement, at index: Int32) {
        switch self {
        case .text(let s?): sqlite3_bind_text(stmt, index, s, -1, sqliteTransient)
        case .real(let d?): sqlite3_bind_double(stmt, index, d)
        case .flag(let b?): sqlite3_bind_int(stmt, index, b ? 1 : 0)
        case .text(nil), .real(nil), .flag(nil): sqlite3_bind_null(stmt, index)
        }
    }
}

/// One config column of `row`: its name, how a config gives its value and how
/// a result column sets it back. `decode` runs in the loader's raw C loop: it reads the column in
/// place (no per-row allocation beyond the strings the config keeps).
struct RowColumn: Sendable {
    let name: String
    let encode: @Sendable (RowConfig) -> ColumnValue
    let decode: @Sendable (SQLiteStatement, Int32, inout RowConfig) throws -> Void
}

extension ColumnCoding {
    /// The one declared table of config columns (migrations/0001 and 0007, in schema order): the column
    /// list, `values`, `bind` and `readConfig` are all derived from it. A new row field is one
    /// entry here (and its column in a migration).
    static let rowColumns: [RowColumn] = [
        RowColumn(name: "type", encode: { .text($0.type) },
                  decode: { s, i, c in c.type = string(s, i) ?? "view" }),
        RowColumn(name: "size", encode: { c in
                      if case .fixed(let n) = c.size { return .real(n) }
                      return .real(nil)
                  },
                  decode: { s, i, c in if let n = double(s, i) { c.size = .fixed(n) } }),
        RowColumn(name: "content_width", encode: { .real($0.content.width) },
                  decode: { s, i, c in c.content.width = sqlite3_column_double(s, i) }),
        RowColumn(name: "content_height", encode: { .real($0.content.height) },
                  decode: { s, i, c in c.content.height = sqlite3_column_double(s, i) }),
        RowColumn(name: "insets", encode: { .text($0.insets.map(text)) },
                  decode: { s, i, c in if let t = string(s, i) { c.insets = try edges(t, column: "insets") } }),
        RowColumn(name: "margin", encode: { .text($0.margin == .zero ? nil : text($0.margin)) },
                  decode: { s, i, c in if let t = string(s, i) { c.margin = try edges(t, column: "margin") } }),
        RowColumn(name: "grow", encode: { .real($0.grow) },
                  decode: { s, i, c in c.grow = sqlite3_column_double(s, i) }),
        RowColumn(name: "shrink", encode: { .real($0.shrink) },
                  decode: { s, i, c in c.shrink = sqlite3_column_double(s, i) }),
        RowColumn(name: "align_self", encode: { .text($0.alignSelf.rawValue) },
                  decode: { s, i, c in
                      if let t = string(s, i), t != "auto" { c.alignSelf = try parse(AlignSelf.self, t, column: "align_self") }
                  }),
        RowColumn(name: "hidden", encode: { .flag($0.hidden) },
                  decode: { s, i, c in c.hidden = sqlite3_column_int(s, i) != 0 }),
        RowColumn(name: "separator_hidden", encode: { .flag($0.separator.hidden) },
                  decode: { s, i, c in c.separator.hidden = flag(s, i) }),
        RowColumn(name: "separator_insets", encode: { .text($0.separator.insets.map(text)) },
                  decode: { s, i, c in if let t = string(s, i) { c.separator.insets = try edges(t, column: "separator_insets") } }),
        RowColumn(name: "separator_thickness", encode: { .real($0.separator.thickness) },
                  decode: { s, i, c in c.separator.thickness = double(s, i) }),
        RowColumn(name: "separator_color", encode: { .text($0.separator.color) },
                  decode: { s, i, c in c.separator.color = string(s, i) }),
        // A non-NULL axis makes the row a stack; the three columns after it fill its settings.
        RowColumn(name: "stack_axis", encode: { .text($0.stack?.axis.rawValue) },
                  decode: { s, i, c in
                      if let t = string(s, i) { c.stack = StackSettings(axis: try parse(Axis.self, t, column: "stack_axis")) }
                  }),
        RowColumn(name: "stack_justify", encode: { .text($0.stack?.justify.rawValue) },
                  decode: { s, i, c in
                      if c.stack != nil, let t = string(s, i) { c.stack?.justify = try parse(Justify.self, t, column: "stack_justify") }
                  }),
        RowColumn(name: "stack_align", encode: { .text($0.stack?.align.rawValue) },
                  decode: { s, i, c in
                      if c.stack != nil, let t = string(s, i) { c.stack?.align = try parse(Align.self, t, column: "stack_align") }
                  }),
        RowColumn(name: "stack_spacing", encode: { .real($0.stack?.spacing) },
                  decode: { s, i, c in if c.stack != nil { c.stack?.spacing = sqlite3_column_double(s, i) } }),
        // migrations/0007: the size limits of issue 14 (NULL = none).
        RowColumn(name: "min_main", encode: { .real($0.minMain) }, decode: { s, i, c in c.minMain = double(s, i) }),
        RowColumn(name: "max_main", encode: { .real($0.maxMain) }, decode: { s, i, c in c.maxMain = double(s, i) }),
        RowColumn(name: "min_cross", encode: { .real($0.minCross) }, decode: { s, i, c in c.minCross = double(s, i) }),
        RowColumn(name: "max_cross", encode: { .real($0.maxCross) }, decode: { s, i, c in c.maxCross = double(s, i) }),
        // migrations/0007: the colours of issue 14 (NULL = none).
        RowColumn(name: "background", encode: { .text($0.background) }, decode: { s, i, c in c.background = string(s, i) }),
        RowColumn(name: "highlight", encode: { .text($0.highlight) }, decode: { s, i, c in c.highlight = string(s, i) }),
        // migrations/0008
        RowColumn(name: "sticky", encode: { .flag($0.sticky) },
                  decode: { s, i, c in c.sticky = sqlite3_column_int(s, i) != 0 }),
    ]

    /// The config columns of `row`, in order.
    static let configColumns = rowColumns.map(\.name)

    /// A config as the values of `configColumns`.
    static func values(_ c: RowConfig) -> [(any DatabaseValueConvertible)?] {
        rowColumns.map { $0.encode(c).argument }
    }

    /// Binds a config to `configColumns` starting at parameter `first` (raw C API; bulk writes).
    static func bind(_ c: RowConfig, to stmt: SQLiteStatement, at first: Int32) {
        var i = first
        for column in rowColumns {
            column.encode(c).bind(to: stmt, at: i)
            i += 1
        }
    }

    /// Reads a config from `configColumns` starting at result column `first` (raw C API: this is
    /// the loop that loads a million rows).
    @inline(__always)
    static func readConfig(_ stmt: SQLiteStatement, at first: Int32) throws -> RowConfig {
        var c = RowConfig()
        var i = first
        for column in rowColumns {
            try column.decode(stmt, i, &c)
            i += 1
        }
        return c
    }

    /// A REAL result column, nil when NULL.
    @inline(__always)
    static func double(_ stmt: SQLiteStatement, _ column: Int32) -> Double? {
        sqlite3_column_type(stmt, column) == SQLITE_NULL ? nil : sqlite3_column_double(stmt, column)
    }

    /// A boolean result column, nil when NULL.
    @inline(__always)
    static func flag(_ stmt: SQLiteStatement, _ column: Int32) -> Bool? {
        sqlite3_column_type(stmt, column) == SQLITE_NULL ? nil : sqlite3_column_int(stmt, column) != 0
    }
}
