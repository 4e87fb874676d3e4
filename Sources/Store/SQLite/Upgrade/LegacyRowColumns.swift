import Foundation
import GRDB
import GRDBSQLite
import Layout
import StoreFormat

/// The config columns of `row` up to schema 15 (migrations 0001, 0007, 0008, 0012): one column
/// per field, edges as text `top,left,bottom,right`, enums as their raw text. Migration 0016
/// turns them into column `fields` (`RowFields`) through the SQL function `stackdoc_row_fields_v15` (`register`),
/// which reads them here; nothing else reads them any more.
enum LegacyRowColumns {
    /// The columns, in the order the function takes them (size, a column of both schemas, is
    /// not among them).
    static let names = ["type", "content_width", "content_height", "insets", "margin", "grow", "shrink", "align_self",
                        "hidden", "separator_hidden", "separator_insets", "separator_thickness", "separator_color",
                        "stack_axis", "stack_justify", "stack_align", "stack_spacing", "sticky"] + optionalNames

    /// The columns of the optional fields at schema 15 (`RowField.Spec.column`).
    static let optionalNames = ["min_main", "max_main", "min_cross", "max_cross", "background", "highlight", "text", "aspect"]

    /// The name of the SQL function migration 0016 calls.
    static let functionName = "stackdoc_row_fields_v15"

    /// Registers `stackdoc_row_fields_v15(type, content_width, …)` on `db`: column `fields` of a
    /// row whose legacy columns (`names`, in order) hold the arguments. Deterministic; fails,
    /// naming the column, on a value the columns could not hold. Raw C API: the arguments are
    /// read in place (through GRDB's `DatabaseFunction`, 26 `DatabaseValue`s a row cost the
    /// migration of 1M rows ≈ 2 s of CPU). `Schema` registers it on every connection it migrates.
    static func register(_ db: Database) {
        sqlite3_create_function_v2(db.sqliteConnection, functionName, Int32(names.count), SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                                   { context, count, arguments in
            guard let arguments, count == Int32(LegacyRowColumns.names.count) else {
                sqlite3_result_error(context, "stackdoc_row_fields_v15: wrong arguments", -1)
                return
            }
            do {
                if let blob = RowFields.encode(try LegacyRowColumns.config(SQLiteArguments(values: arguments))) {
                    blob.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), sqliteTransient) }
                } else {
                    sqlite3_result_null(context)
                }
            } catch {
                var problem = "\(error)"
                if let error = error as? StoreError, case let .storeInvariant(text) = error.kind { problem = text }
                sqlite3_result_error(context, "a row of schema 15 cannot be converted: " + problem, -1)
            }
        }, nil, nil, nil)
    }

    /// The arguments of a call, read in place.
    struct SQLiteArguments: LegacyValues {
        let values: UnsafeMutablePointer<OpaquePointer?>

        func isNull(_ k: Int) -> Bool { sqlite3_value_type(values[k]) == SQLITE_NULL }

        func string(_ k: Int) -> String? {
            guard let text = sqlite3_value_text(values[k]) else { return nil }
            return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(values[k]))), as: UTF8.self)
        }

        func double(_ k: Int) -> Double? {
            isNull(k) ? nil : sqlite3_value_double(values[k])
        }
    }

    /// The config (size left `.fit`) that legacy column values `v` (`names`, in order) hold.
    static func config(_ v: [DatabaseValue]) throws -> RowConfig {
        try config(DatabaseValues(values: v))
    }

    /// Values as GRDB gives them (tests).
    struct DatabaseValues: LegacyValues {
        let values: [DatabaseValue]

        func isNull(_ k: Int) -> Bool { values[k].isNull }

        func string(_ k: Int) -> String? {
            switch values[k].storage {
            case .string(let s): return s
            case .null: return nil
            case .int64(let i): return String(i)
            case .double(let d): return String(d)
            case .blob(let b): return String(decoding: b, as: UTF8.self)
            }
        }

        func double(_ k: Int) -> Double? {
            switch values[k].storage {
            case .double(let d): return d
            case .int64(let i): return Double(i)
            case .null: return nil
            case .string(let s): return Double(s) ?? 0
            case .blob: return 0
            }
        }
    }

    /// The config (size left `.fit`) that legacy column values `v` (`names`, in order) hold:
    /// SQLite's conversions (text of a number, a number of a text), as the old loader read them.
    static func config(_ v: some LegacyValues) throws -> RowConfig {
        func string(_ k: Int) -> String? { v.string(k) }
        func double(_ k: Int) -> Double? { v.double(k) }
        func flag(_ k: Int) -> Bool? { double(k).map { $0 != 0 } }
        func edges(_ k: Int) throws -> Edges? { try string(k).map { try ColumnCoding.edges($0, column: names[k]) } }
        func parse<E: RawRepresentable>(_ type: E.Type, _ k: Int) throws -> E? where E.RawValue == String {
            try string(k).map { try ColumnCoding.parse(type, $0, column: names[k]) }
        }
        var c = RowConfig()
        c.type = string(0) ?? "view"
        c.content = Size(width: double(1) ?? 0, height: double(2) ?? 0)
        c.insets = try edges(3)
        c.margin = try edges(4) ?? .zero
        c.grow = double(5) ?? 0
        c.shrink = double(6) ?? 0
        if let a = try parse(AlignSelf.self, 7) { c.alignSelf = a }
        c.hidden = flag(8) ?? false
        c.separator.hidden = flag(9)
        c.separator.insets = try edges(10)
        c.separator.thickness = double(11)
        c.separator.color = string(12)
        if let axis = try parse(Axis.self, 13) {
            var stack = StackSettings(axis: axis)
            if let justify = try parse(Justify.self, 14) { stack.justify = justify }
            if let align = try parse(Align.self, 15) { stack.align = align }
            stack.spacing = double(16) ?? 0
            c.stack = stack
        }
        c.sticky = flag(17) ?? false
        for (k, name) in optionalNames.enumerated() {
            let column = 18 + k
            guard !v.isNull(column), let field = RowField.optional.first(where: { $0.spec.column == name }) else { continue }
            switch field.kind {
            case .number: field.setNumber(double(column) ?? 0, &c)
            case .text: field.setText(string(column), &c)
            case .format1: break
            }
        }
        return c
    }
}

/// Legacy column values by position (`LegacyRowColumns.names`): a call's SQLite arguments or
/// GRDB values.
protocol LegacyValues {
    /// True when value `k` is NULL.
    func isNull(_ k: Int) -> Bool
    /// Value `k` as text (nil: NULL).
    func string(_ k: Int) -> String?
    /// Value `k` as a number (nil: NULL).
    func double(_ k: Int) -> Double?
}
