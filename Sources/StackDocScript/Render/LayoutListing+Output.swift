import Layout

/// The renderers of a whole layout (`layout` with no range or `--visible`), a block of rows at
/// a time: each hands its output to `piece` as it is made, so neither the rows nor the text of
/// a million-row listing is ever held whole, and the first rows are out at once (issue 11,
/// item 4). For a layout of at most `LayoutListing.blockSize` rows the pieces joined are
/// exactly `LayoutOutput.table`, `LayoutOutput.jsonBytes` and the CSV of the same rows.
extension LayoutListing {
    /// The text table in pieces of whole lines (joined by line breaks, they are the output):
    /// the header with the first block, then each block's rows, then the footer line. Columns
    /// are as wide as the widest cell so far: a block never narrows them, a later block may
    /// widen them.
    /// - Parameter piece: Receives each piece, in order.
    /// - Throws: What `piece` throws (the pieces after it are not made).
    public func writeTable(_ piece: (String) throws -> Void) rethrows {
        var widths: [Int] = []
        var depths = LayoutOutput.NestingDepths()
        var first = true
        try forEachBlock { rows in
            var table = TextTable(LayoutOutput.tableHeaders, rightAligned: [0])
            for r in rows { table.add(LayoutOutput.tableCells(r, depth: depths.depth(of: r), header)) }
            try piece(table.rendered(widening: &widths, withHeaders: first))
            first = false
        }
        if first { try piece(TextTable(LayoutOutput.tableHeaders, rightAligned: [0]).rendered) }
        try piece(LayoutOutput.tableFooter(header))
    }

    /// The SPEC §4.2 result (`LayoutOutput.jsonBytes`) in pieces of bytes: the header, each
    /// block's rows, the closing.
    /// - Parameter piece: Receives each piece, in order.
    /// - Throws: What `piece` throws (the pieces after it are not made).
    public func writeJSON(_ piece: ([UInt8]) throws -> Void) rethrows {
        var out: [UInt8] = []
        LayoutOutput.appendJSONHeader(header, to: &out)
        var first = true
        try forEachBlock { rows in
            LayoutOutput.appendJSONRows(rows, of: header, first: first, to: &out)
            first = false
            try piece(out)
            out.removeAll(keepingCapacity: true)
        }
        out.append(contentsOf: LayoutOutput.jsonClosing)
        try piece(out)
    }

    /// `layout --csv` in pieces of whole lines: the header line, then each block's lines.
    /// - Parameter piece: Receives each piece, in order.
    /// - Throws: What `piece` throws (the pieces after it are not made).
    public func writeCSV(_ piece: (String) throws -> Void) rethrows {
        try piece(CommandResult.layoutCSVHeader.map(CommandResult.csvField).joined(separator: ","))
        try forEachBlock { rows in
            try piece(rows.map { CommandResult.layoutCSVFields($0).map(CommandResult.csvField).joined(separator: ",") }
                .joined(separator: "\n"))
        }
    }
}
