import Layout

/// Every row of a document with its place and configuration (`rows`, `rows --at`), for the
/// renderers to read a block at a time: at a million rows the command builds neither the whole
/// `[RowEntry]` nor the whole output, and the first rows are out at once (as `layout`'s
/// `LayoutListing`). Plain data: the renderers in `Render/` write it.
public struct RowListing {
    /// The document listed (a copy: O(1), its storage is shared until one of them changes).
    public let document: Document

    /// Rows per block: a block's entries and its rendered text are all a renderer holds at once.
    public static let blockSize = LayoutListing.blockSize

    /// The rows of `document`, in document order at every depth.
    public init(_ document: Document) { self.document = document }

    /// Rows at every depth.
    public var rowCount: Int { document.rowCount }

    /// Calls `body` with consecutive blocks of at most `blockSize` entries, in document order
    /// (nothing for a document without rows). O(rows) in all, O(blockSize + stacks) memory.
    /// - Parameter body: Receives each block, in order.
    /// - Throws: What `body` throws (the blocks after it are not read).
    public func forEachBlock(_ body: ([RowEntry]) throws -> Void) rethrows {
        var block: [RowEntry] = []
        block.reserveCapacity(min(Self.blockSize, rowCount))
        // The depth of each stack row seen so far (a row's depth is its parent's plus one).
        var depth: [RowID: Int] = [:]
        // The stack whose default insets the rows inside each stack take (absent: the document's).
        var insetsFrom: [RowID: RowID] = [:]
        // Likewise the nearest stack with separator overrides for its rows.
        var separatorFrom: [RowID: RowID] = [:]
        try document.forEachRow { id, parent, index, c in
            let d = parent.map { (depth[$0] ?? 0) + 1 } ?? 0
            let from = parent.flatMap { insetsFrom[$0] }
            let sepFrom = parent.flatMap { separatorFrom[$0] }
            if c.stack != nil {
                depth[id] = d
                if let owner = c.rowInsets != nil ? id : from { insetsFrom[id] = owner }
                if let owner = c.rowSeparator != nil ? id : sepFrom { separatorFrom[id] = owner }
            }
            block.append(RowEntry(id: id, parent: parent, index: index, depth: d, config: c, insetsFrom: from,
                                  separatorFrom: sepFrom))
            if block.count == Self.blockSize {
                try body(block)
                block.removeAll(keepingCapacity: true)
            }
        }
        if !block.isEmpty { try body(block) }
    }

    /// Every entry at once (O(rows) memory: for small documents and tests; the renderers read
    /// blocks).
    public var entries: [RowEntry] {
        var all: [RowEntry] = []
        all.reserveCapacity(rowCount)
        forEachBlock { all += $0 }
        return all
    }
}
