import Layout

/// The renderers of `rows` (and `rows --at`, `rows --csv`), a block of rows at a time: each
/// hands its output to `piece` as it is made, so neither the entries nor the text of a
/// million-row listing is ever held whole (as `LayoutListing`'s renderers). For at most
/// `RowListing.blockSize` rows the pieces joined are exactly the whole table, JSON array and
/// CSV of the same rows.
extension RowListing {
    /// The text table in pieces of whole lines (joined by line breaks, they are the output): the
    /// header with the first block, then each block's rows; `(no rows)` for none. Columns are as
    /// wide as the widest cell so far: a block never narrows them, a later block may widen them.
    /// - Parameter piece: Receives each piece, in order.
    /// - Throws: What `piece` throws (the pieces after it are not made).
    public func writeTable(_ piece: (String) throws -> Void) rethrows {
        var widths: [Int] = []
        var first = true
        try forEachBlock { entries in
            var table = TextTable(Self.tableHeaders, rightAligned: [2, 8, 9])
            for e in entries { table.add(Self.tableCells(e)) }
            try piece(table.rendered(widening: &widths, withHeaders: first))
            first = false
        }
        if first { try piece("(no rows)") }
    }

    /// The JSON array of rows (`CommandResult.configMembers` each) in pieces of bytes: `[` with
    /// the first block, each later block, then `]`.
    /// - Parameter piece: Receives each piece, in order.
    /// - Throws: What `piece` throws (the pieces after it are not made).
    public func writeJSON(_ piece: ([UInt8]) throws -> Void) rethrows {
        var out: [UInt8] = [UInt8(ascii: "[")]
        var first = true
        try forEachBlock { entries in
            for e in entries {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSONWriter.append(.object(CommandResult.configMembers(e).map { JSONMember($0.0, $0.1) }), to: &out, pretty: false, indent: 0)
            }
            try piece(out)
            out.removeAll(keepingCapacity: true)
        }
        out.append(UInt8(ascii: "]"))
        try piece(out)
    }

    /// `rows --csv` in pieces of whole lines: the header line, then each block's lines.
    /// - Parameter piece: Receives each piece, in order.
    /// - Throws: What `piece` throws (the pieces after it are not made).
    public func writeCSV(_ piece: (String) throws -> Void) rethrows {
        try piece(Self.csvHeader.map(CommandResult.csvField).joined(separator: ","))
        try forEachBlock { entries in
            try piece(entries.map { Self.csvFields($0).map(CommandResult.csvField).joined(separator: ",") }.joined(separator: "\n"))
        }
    }

    static let tableHeaders = ["id", "parent", "index", "type", "size", "content", "insets", "margin", "grow", "shrink", "align", "flags"]

    /// One row's cells of the text table (its id indented two spaces per level).
    static func tableCells(_ e: RowEntry) -> [String] {
        let c = e.config
        return [String(repeating: "  ", count: e.depth) + Printer.id(e.id), e.parent.map(Printer.id) ?? "-", "\(e.index)",
                Printer.id(c.type), Format.rowSize(c.size), Format.size(c.content), Self.insetsCell(e),
                Format.edges(c.margin), Format.number(c.grow), Format.number(c.shrink), c.alignSelf.rawValue, Self.flagsCell(e)]
    }

    /// The row's flags, and `separator in STACK` when a stack's separator overrides lie under its own.
    static func flagsCell(_ e: RowEntry) -> String {
        let f = CommandResult.flags(e.config)
        guard let from = e.separatorFrom else { return f }
        return (f.isEmpty ? "" : f + ",") + "separator in " + Printer.id(from)
    }

    /// Where a row's insets come from: its own, `default` (the document's) or `in STACK` (that
    /// stack's default for the rows inside it).
    static func insetsCell(_ e: RowEntry) -> String {
        e.config.insets.map(Format.edges) ?? e.insetsFrom.map { "in " + Printer.id($0) } ?? "default"
    }

    static let csvHeader = ["id", "parent", "index", "depth", "type", "size", "content", "insets", "margin", "grow", "shrink", "align", "flags"]

    /// One row's fields of `rows --csv`.
    static func csvFields(_ e: RowEntry) -> [String] {
        let c = e.config
        return [e.id, e.parent ?? "", "\(e.index)", "\(e.depth)", c.type, Format.rowSize(c.size),
                Format.size(c.content), Self.insetsCell(e), Format.edges(c.margin),
                Format.number(c.grow), Format.number(c.shrink), c.alignSelf.rawValue, Self.flagsCell(e)]
    }
}
