import Layout

/// The CSV renderer of `layout --csv`, `visible --csv` and `rows --csv` (RFC 4180: a header
/// line, commas, a field with a comma, a quote or a line break in double quotes with its
/// quotes doubled). Numbers as `Format.number` writes them, frames as x, y, width, height
/// columns (empty for a row without a frame), percentages by `Format.percent`.
extension CommandResult {
    /// The CSV text of a table result (empty for any other result).
    var csv: String {
        switch self {
        case let .layout(layout, rows):
            return Self.csvLines(Self.layoutCSVHeader, (rows ?? layout.rows).map(Self.layoutCSVFields))
        case .wholeLayout(let listing):
            var pieces: [String] = []
            listing.writeCSV { pieces.append($0) }
            return pieces.joined(separator: "\n")
        case .visible(let rows, _):
            return Self.csvLines(["id", "type", "visibility", "percent", "x", "y", "width", "height"],
                                 rows.map { r in [r.id, r.type, r.visibility.rawValue, Format.percent(r.percent)] + Self.rectFields(r.frame) })
        case .rows(let listing):
            var pieces: [String] = []
            listing.writeCSV { pieces.append($0) }
            return pieces.joined(separator: "\n")
        default:
            return ""
        }
    }

    /// The columns of `layout --csv`.
    static let layoutCSVHeader = ["index", "id", "parent", "type", "x", "y", "width", "height", "visibility", "percent"]

    /// One row's fields of `layout --csv`.
    static func layoutCSVFields(_ r: RowLayout) -> [String] {
        ["\(r.index)", r.id, r.parent ?? "", r.type] + rectFields(r.frame) + [r.visibility.rawValue, Format.percent(r.percent)]
    }

    static func rectFields(_ r: Rect?) -> [String] {
        guard let r else { return ["", "", "", ""] }
        return [Format.number(r.x), Format.number(r.y), Format.number(r.width), Format.number(r.height)]
    }

    static func csvLines(_ header: [String], _ rows: [[String]]) -> String {
        ([header] + rows).map { $0.map(csvField).joined(separator: ",") }.joined(separator: "\n")
    }

    /// One field, quoted when it holds a comma, a quote or a line break.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
