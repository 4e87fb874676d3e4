import Layout

/// Every row of a layout for the renderers to read a block at a time (`layout` without a range
/// or `--visible`, `export svg`): at a million rows no command builds the whole
/// `[RowLayout]` nor the whole output first (issue 11, item 4). Plain data: the renderers in
/// `Render/` write it.
public struct LayoutListing {
    /// The layout's header fields (document, axis, viewport, obscured insets, offset, content
    /// size, and the rows that sticky positioning moves); its `rows` are empty.
    public let header: DocumentLayout
    /// Rows in document order, every depth.
    public let rowCount: Int
    private let source: Source

    private enum Source {
        case rows([RowLayout])
        case live(LiveLayout)
    }

    /// Rows per block: a block's rows and its rendered text are all a renderer holds at once.
    public static let blockSize = 4096

    /// The rows of `live` (copied: O(1), the live layout's storage is shared), read a block at a
    /// time with `LiveLayout.rows(inOrder:)` (O(log n + k) per block).
    public init(_ live: LiveLayout) {
        // Outside the incremental regime the live layout holds a whole layout: its header keeps
        // what sticky rows and stacks that scroll on their own need (shifts, clips, windows).
        if !live.isIncremental {
            var header = live.layout()
            let rows = header.rows
            header.rows = []
            self.header = header
            rowCount = rows.count
            source = .rows(rows)
            return
        }
        var header = DocumentLayout(document: live.document, axis: live.settings.axis, viewport: live.settings.viewport,
                                    offset: live.offset, contentSize: live.contentSize, rows: [],
                                    obscured: live.settings.obscured, safeArea: live.settings.safeArea)
        for r in live.displacedRows() { header.displaced[r.id] = live.displacement(of: r.id) }
        self.header = header
        rowCount = live.rowCount
        source = .live(live)
    }

    /// The rows of a whole layout already built.
    public init(_ layout: DocumentLayout) {
        var header = layout
        header.rows = []
        self.header = header
        rowCount = layout.rows.count
        source = .rows(layout.rows)
    }

    /// Calls `body` with consecutive blocks of at most `blockSize` rows, in document order
    /// (nothing for a layout without rows).
    /// - Parameter body: Receives each block, in order.
    /// - Throws: What `body` throws (the blocks after it are not read).
    public func forEachBlock(_ body: ([RowLayout]) throws -> Void) rethrows {
        var lower = 0
        while lower < rowCount {
            let upper = min(rowCount, lower + Self.blockSize)
            switch source {
            case .rows(let rows): try body(Array(rows[lower..<upper]))
            case .live(let live): try body(live.rows(inOrder: lower..<upper))
            }
            lower = upper
        }
    }
}
