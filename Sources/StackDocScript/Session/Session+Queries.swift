import Layout
import Store

/// The query commands: nothing here changes the document.
extension Session {
    func layout(_ selection: LayoutSelection) throws -> CommandResult {
        guard selection.visibleOnly || selection.range != nil else {
            // Every row, read from the live layout a block at a time by the renderer.
            return .wholeLayout(LayoutListing(try liveLayout()))
        }
        // Only the rows asked for, from the live layout: O(log n + k) on any document.
        let live = try liveLayout()
        var subset: [RowLayout]
        if let range = selection.range {
            let lower = min(range.lowerBound, live.rowCount)
            let upper = min(range.upperBound, live.rowCount - 1)
            subset = lower <= upper ? live.rows(inOrder: lower..<(upper + 1)) : []
            if selection.visibleOnly { subset = subset.filter { $0.visibility == .entire || $0.visibility == .partial } }
        } else {
            subset = live.visibleRows()
        }
        return .layout(Session.partialLayout(live, rows: subset), rows: subset)
    }

    /// A layout holding `rows` and their ancestors (for nesting depths), with the live layout's
    /// header fields.
    static func partialLayout(_ live: LiveLayout, rows: [RowLayout]) -> DocumentLayout {
        var all: [RowID: RowLayout] = [:]
        for r in rows { all[r.id] = r }
        for r in rows {
            var parent = r.parent
            while let p = parent, all[p] == nil, let row = live.row(p)?.layout {
                all[p] = row
                parent = row.parent
            }
        }
        let ordered = all.values.map { (live.position(of: $0.id) ?? 0, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        var layout = DocumentLayout(document: live.document, axis: live.settings.axis, viewport: live.settings.viewport,
                                    offset: live.offset, contentSize: live.contentSize, rows: ordered,
                                    obscured: live.settings.obscured, safeArea: live.settings.safeArea)
        for r in ordered { if let d = live.displacement(of: r.id) { layout.displaced[r.id] = d } }
        return layout
    }

    /// What `draw` needs: the rows meeting the viewport, which of them are stack rows that have
    /// rows (the drawing keeps their ids in the top border) and which are text, aspect or sticky
    /// rows (`RowKind`).
    func drawing(_ scale: DrawScale = .fit) throws -> [String] {
        let live = try liveLayout()
        let document = try viewedDocument()
        let o = live.offset
        let main = live.settings.axis == .vertical ? live.settings.viewport.height : live.settings.viewport.width
        var rows = live.rows(from: o, to: o + main)
        let moved = live.displacedRows()
        if !moved.isEmpty {
            // Stuck rows are drawn where they are shown, over the rows in flow.
            let ids = Set(moved.map(\.id))
            rows = rows.filter { !ids.contains($0.id) } + moved
        }
        let stacks = Set(rows.lazy.map(\.id).filter { document.child(at: 0, of: $0) != nil })
        var kinds: [RowID: RowKind] = [:]
        for r in rows {
            if let c = document.config(of: r.id), let kind = RowKind(c, content: r.content, stuck: live.displacement(of: r.id) != nil) {
                kinds[r.id] = kind
            }
        }
        var layout = DocumentLayout(document: live.document, axis: live.settings.axis, viewport: live.settings.viewport,
                                    offset: o, contentSize: live.contentSize, rows: rows, obscured: live.settings.obscured, safeArea: live.settings.safeArea)
        for r in moved { if let d = live.displacement(of: r.id) { layout.displaced[r.id] = d } }
        return try Drawing.lines(layout, stacks: stacks, kinds: kinds, scale: scale)
    }

    /// One row's configuration, inherited defaults and layout (`row ROW`).
    func row(_ id: RowID) throws -> RowDetail {
        let document = try open().document
        guard let c = document.config(of: id), let parent = document.parent(of: id), let index = document.index(of: id) else {
            throw StackDocError(.noSuchRow(id))
        }
        var depth = 0
        var up = parent
        // The nearest enclosing stack with default insets for its rows (SPEC §2.3).
        var insetsFrom: (id: RowID, insets: Edges)?
        // Every enclosing stack's separator overrides for its rows, nearest first (SPEC §2.4).
        var separators: [(id: RowID, overrides: SeparatorOverrides)] = []
        while let p = up {
            depth += 1
            if insetsFrom == nil, let e = document.config(of: p)?.rowInsets { insetsFrom = (p, e) }
            if let o = document.config(of: p)?.rowSeparator { separators.append((p, o)) }
            up = document.parent(of: p) ?? nil
        }
        let stackSeparator = separators.isEmpty ? nil
            : separators.reversed().reduce(document.settings.defaults.separator) { $1.overrides.resolved(over: $0) }
        return RowDetail(entry: RowEntry(id: id, parent: parent, index: index, depth: depth, config: c, insetsFrom: insetsFrom?.id,
                                         separatorFrom: separators.first?.id),
                         defaults: document.settings.defaults, childCount: c.stack == nil ? 0 : document.children(of: id).count,
                         layout: try liveLayout().row(id)?.layout, displacement: try liveLayout().displacement(of: id),
                         stackInsets: insetsFrom?.insets, stackSeparator: stackSeparator)
    }

    /// The document's counters and view (`status`).
    func status() throws -> StatusInfo {
        let doc = try open()
        let layout = try liveLayout()
        let s = doc.document.settings
        return StatusInfo(database: store.path, document: try doc.status(), axis: s.axis, viewport: s.viewport,
                          offset: layout.offset, contentSize: layout.contentSize, viewportInsets: s.viewportInsets,
                          keyboard: s.keyboard, safeArea: s.safeArea, nestedScrolls: layout.nestedScrolls)
    }
}
