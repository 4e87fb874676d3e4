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

    /// True when the value is unset (stored as NULL).
    var isNull: Bool {
        switch self {
        case .text(let s): return s == nil
        case .real(let d): return d == nil
        case .flag(let b): return b == nil
        }
    }

    /// Binds the value to parameter `index` of `stmt` (raw C API; NULL when unset).
    @inline(__always)
    func bind(to stmt: SQLiteStatement, at index: Int32) {
        switch self {
        case .text(var s?): ColumnValue.bindText(&s, to: stmt, at: index)
        case .real(let d?): sqlite3_bind_double(stmt, index, d)
        case .flag(let b?): sqlite3_bind_int(stmt, index, b ? 1 : 0)
        case .text(nil), .real(nil), .flag(nil): sqlite3_bind_null(stmt, index)
        }
    }

    /// Binds text by pointer and length (no C-string copy, no strlen); SQLite copies it.
    @inline(__always)
    static func bindText(_ s: inout String, to stmt: SQLiteStatement, at index: Int32) {
        s.withUTF8 { utf8 in
            if let base = utf8.baseAddress {
                sqlite3_bind_text(stmt, index, base, Int32(utf8.count), sqliteTransient)
            } else {
                sqlite3_bind_text(stmt, index, "", 0, sqliteTransient)
            }
        }
    }
}

/// The config columns of `row` that hold the fields of format 1 (migrations/0001 and 0008): each
/// case is a column, its name, how a config gives its value (text, real or flag, NULL when unset)
/// and how a result column sets it back. The optional fields (`RowField.optional`) follow them,
/// one column each (`RowField.Spec.column`, REAL or TEXT, NULL when not set), coded by their
/// kind — so a new row field needs nothing here, only its column in a migration. The column
/// list, `values`, `bind` and `readConfig` are derived from both. Switches rather than a table of
/// closures: the bulk paths (`bind` of an import, `readConfig` of a load) run them a million
/// times, and a switch over a known case compiles to straight-line code where a closure call
/// through a context does not.
enum RowColumn: Int, CaseIterable, Sendable {
    case type, size, contentWidth, contentHeight, insets, margin, grow, shrink, alignSelf, hidden
    case separatorHidden, separatorInsets, separatorThickness, separatorColor
    // A non-NULL axis makes the row a stack; the three columns after it fill its settings.
    case stackAxis, stackJustify, stackAlign, stackSpacing
    // migrations/0008
    case sticky

    var name: String {
        switch self {
        case .type: return "type"
        case .size: return "size"
        case .contentWidth: return "content_width"
        case .contentHeight: return "content_height"
        case .insets: return "insets"
        case .margin: return "margin"
        case .grow: return "grow"
        case .shrink: return "shrink"
        case .alignSelf: return "align_self"
        case .hidden: return "hidden"
        case .separatorHidden: return "separator_hidden"
        case .separatorInsets: return "separator_insets"
        case .separatorThickness: return "separator_thickness"
        case .separatorColor: return "separator_color"
        case .stackAxis: return "stack_axis"
        case .stackJustify: return "stack_justify"
        case .stackAlign: return "stack_align"
        case .stackSpacing: return "stack_spacing"
        case .sticky: return "sticky"
        }
    }

    /// The stored value of this column for config `c`.
    @inline(__always)
    func encode(_ c: RowConfig) -> ColumnValue {
        switch self {
        case .type: return .text(c.type)
        case .size:
            if case .fixed(let n) = c.size { return .real(n) }
            return .real(nil)
        case .contentWidth: return .real(c.content.width)
        case .contentHeight: return .real(c.content.height)
        case .insets: return .text(c.insets.map(ColumnCoding.text))
        case .margin: return .text(c.margin == .zero ? nil : ColumnCoding.text(c.margin))
        case .grow: return .real(c.grow)
        case .shrink: return .real(c.shrink)
        case .alignSelf: return .text(c.alignSelf.rawValue)
        case .hidden: return .flag(c.hidden)
        case .separatorHidden: return .flag(c.separator.hidden)
        case .separatorInsets: return .text(c.separator.insets.map(ColumnCoding.text))
        case .separatorThickness: return .real(c.separator.thickness)
        case .separatorColor: return .text(c.separator.color)
        case .stackAxis: return .text(c.stack?.axis.rawValue)
        case .stackJustify: return .text(c.stack?.justify.rawValue)
        case .stackAlign: return .text(c.stack?.align.rawValue)
        case .stackSpacing: return .real(c.stack?.spacing)
        case .sticky: return .flag(c.sticky)
        }
    }

    /// Sets this column's field of `c` from result column `i` of `s` (raw C API, read in place:
    /// no per-row allocation beyond the strings the config keeps).
    @inline(__always)
    func decode(_ s: SQLiteStatement, _ i: Int32, into c: inout RowConfig) throws {
        typealias C = ColumnCoding
        switch self {
        case .type: c.type = C.string(s, i) ?? "view"
        case .size: if let n = C.double(s, i) { c.size = .fixed(n) }
        case .contentWidth: c.content.width = sqlite3_column_double(s, i)
        case .contentHeight: c.content.height = sqlite3_column_double(s, i)
        case .insets: if let t = C.string(s, i) { c.insets = try C.edges(t, column: name) }
        case .margin: if let t = C.string(s, i) { c.margin = try C.edges(t, column: name) }
        case .grow: c.grow = sqlite3_column_double(s, i)
        case .shrink: c.shrink = sqlite3_column_double(s, i)
        case .alignSelf:
            if let t = C.string(s, i), t != "auto" { c.alignSelf = try C.parse(AlignSelf.self, t, column: name) }
        case .hidden: c.hidden = sqlite3_column_int(s, i) != 0
        case .separatorHidden: c.separator.hidden = C.flag(s, i)
        case .separatorInsets: if let t = C.string(s, i) { c.separator.insets = try C.edges(t, column: name) }
        case .separatorThickness: c.separator.thickness = C.double(s, i)
        case .separatorColor: c.separator.color = C.string(s, i)
        case .stackAxis: if let t = C.string(s, i) { c.stack = StackSettings(axis: try C.parse(Axis.self, t, column: name)) }
        case .stackJustify:
            if c.stack != nil, let t = C.string(s, i) { c.stack?.justify = try C.parse(Justify.self, t, column: name) }
        case .stackAlign:
            if c.stack != nil, let t = C.string(s, i) { c.stack?.align = try C.parse(Align.self, t, column: name) }
        case .stackSpacing: if c.stack != nil { c.stack?.spacing = sqlite3_column_double(s, i) }
        case .sticky: c.sticky = sqlite3_column_int(s, i) != 0
        }
    }
}

extension RowField {
    /// The stored value of this optional field's column for config `c` (NULL when not set).
    @inline(__always)
    func column(_ c: RowConfig) -> ColumnValue {
        switch kind {
        case .number: return .real(number(c))
        case .text: return .text(text(c))
        case .format1: return .text(nil)
        }
    }

    /// Sets this optional field of `c` from result column `i` of `s` (NULL: not set).
    @inline(__always)
    func decode(_ s: SQLiteStatement, _ i: Int32, into c: inout RowConfig) {
        guard sqlite3_column_type(s, i) != SQLITE_NULL else { return }
        switch kind {
        case .number: setNumber(sqlite3_column_double(s, i), &c)
        case .text: setText(ColumnCoding.string(s, i), &c)
        case .format1: break
        }
    }
}

extension ColumnCoding {
    /// The config columns of `row`, in order: the format-1 columns (`RowColumn`), then one per
    /// optional field (`RowField.optional`).
    static let configColumns = RowColumn.allCases.map(\.name) + RowField.optional.map(\.spec.column)

    private static let optionalFirst = Int32(RowColumn.allCases.count)

    /// A config as the stored values of `configColumns`, in order.
    static func columnValues(_ c: RowConfig) -> [ColumnValue] {
        var values: [ColumnValue] = []
        values.reserveCapacity(configColumns.count)
        appendValues(c, to: &values)
        return values
    }

    /// Appends the stored values of `configColumns` for `c`, in order (the bulk insert's buffer).
    @inline(__always)
    static func appendValues(_ c: RowConfig, to values: inout [ColumnValue]) {
        for column in RowColumn.allCases { values.append(column.encode(c)) }
        for field in RowField.optional { values.append(field.column(c)) }
    }

    /// A config as the values of `configColumns`.
    static func values(_ c: RowConfig) -> [(any DatabaseValueConvertible)?] {
        columnValues(c).map(\.argument)
    }

    /// Binds a config to `configColumns` starting at parameter `first` (raw C API; bulk writes).
    static func bind(_ c: RowConfig, to stmt: SQLiteStatement, at first: Int32) {
        for column in RowColumn.allCases {
            column.encode(c).bind(to: stmt, at: first + Int32(column.rawValue))
        }
        for (k, field) in RowField.optional.enumerated() {
            field.column(c).bind(to: stmt, at: first + optionalFirst + Int32(k))
        }
    }

    /// Reads a config from `configColumns` starting at result column `first` (raw C API: this is
    /// the loop that loads a million rows).
    @inline(__always)
    static func readConfig(_ stmt: SQLiteStatement, at first: Int32) throws -> RowConfig {
        var c = RowConfig()
        for column in RowColumn.allCases {
            try column.decode(stmt, first + Int32(column.rawValue), into: &c)
        }
        for (k, field) in RowField.optional.enumerated() {
            field.decode(stmt, first + optionalFirst + Int32(k), into: &c)
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
