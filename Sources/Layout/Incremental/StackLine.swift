/// A big nested stack kept as a line of its own (issue 11, item 5): the rows below a stack row
/// `S` are entries of a `RootLine` (one per child of `S`, with its subtree), so that a change
/// inside `S` lays one child out again and updates the line in O(log n), instead of laying `S`'s
/// whole subtree out as one `LocalRows`. A child that qualifies in turn is a line of its own, at
/// any depth: a row's place is then a path of nodes, one per level (`LiveLayout.Location`).
///
/// Exact while `S`'s children are laid out independently of each other along the main axis:
/// the document is vertical, `S` is a vertical stack, shown, `fit` along its parent's (vertical)
/// main axis, without `min`/`max`, `aspect` or sticky, and stretched across by its parent (its
/// width is its parent's content width, whatever its rows): its length is its content's, so no
/// free space is shared and nothing shrinks, and a child's layout depends on `S`'s width, insets,
/// alignment and spacing only (`context`). Positions are then prefix sums of the children's
/// outer lengths plus `S`'s spacing, as on the root line. The parent is the root (in the regime
/// where root rows are independent) or a stack line, so the rule holds at every level.
struct StackLine: Sendable {
    /// The children of `S`, entries relative to their margin-box start; cross coordinates absolute.
    var line: RootLine
    /// `S`'s own row (type, margins, insets, separator, cross position and length), as a leaf's.
    var style: LiveEntries.LeafStyle
    /// `S`'s insets before and after its rows along the main axis, and its spacing (layout units).
    var insetStart: Double
    var insetEnd: Double
    var gap: Double
    /// The root settings under which one child of `S` is laid out on its own as `S` lays it out.
    var context: DocumentSettings
    /// The line's number in its layout's `links` (-1 until it is indexed).
    var number: Int32 = -1

    /// Framed rows below `S` (outside an update of this line, when no entry is touched).
    var framed: Int { line.summary.untouchedFramed }

    /// Visible outer lengths of `S`'s children plus the gaps between them.
    var innerLength: Double {
        let s = line.summary
        return s.shown == 0 ? 0 : s.sum - gap
    }

    /// `S`'s border-box length along the main axis.
    var mainLength: Double { insetStart + innerLength + insetEnd }

    /// Where the children's line starts, relative to `S`'s margin-box start.
    var contentOffset: Double { style.marginStart + insetStart }

    /// Margin-start + border-box length + margin-end of `S`.
    var outerLength: Double { style.marginStart + mainLength + style.marginEnd }

    /// Rows at every depth, `S` included.
    var rowCount: Int { 1 + line.summary.rows }

    /// The main-axis extent of `S`'s frame and its framed rows, relative to its margin-box start.
    var extent: (lo: Double, hi: Double) {
        let s = line.summary
        let lo = style.marginStart, hi = style.marginStart + mainLength
        guard s.lo <= s.hi else { return (lo, hi) }
        return (min(lo, contentOffset + s.lo), max(hi, contentOffset + s.hi))
    }

    /// The settings laying a child of stack row `config` (frame `frame`, a row laid out under
    /// `settings`: the document's for a root row, its parent line's `context` below) out on its
    /// own, or nil when `S` does not qualify (see the type's comment).
    static func context(for config: RowConfig, frame: Rect?, settings: DocumentSettings) -> DocumentSettings? {
        guard settings.axis == .vertical, let stack = config.stack, stack.axis == .vertical, let frame,
              !config.hidden, !config.sticky, !config.hasSizeLimits, config.aspect == nil, config.size == .fit,
              config.alignSelf.resolved(in: settings.align) == .stretch else { return nil }
        var s = settings
        s.axis = .vertical
        s.viewport = Size(width: frame.width, height: 0)
        s.offset = 0
        s.viewportInsets = .zero
        s.keyboard = 0
        s.safeArea = .zero
        s.padding = config.effectiveInsets(settings.defaults)
        // Its rows that set no insets take the stack's default, else the one it has itself; their
        // separators lay their overrides over the stack's, laid over the one it has itself.
        if let rowInsets = config.rowInsets { s.defaults.insets = rowInsets }
        if let rowSeparator = config.rowSeparator { s.defaults.separator = rowSeparator.resolved(over: s.defaults.separator) }
        s.spacing = stack.spacing
        s.justify = .start
        s.align = stack.align
        return s
    }
}

extension LocalRows {
    /// Lays child `id` of a stack line out on its own under `context` (`StackLine.context`), its
    /// cross coordinates moved by `crossShift` (the stack's frame start across). Copies the
    /// child's subtree into a document of its own. O(rows of the child's subtree).
    static func compute(_ id: RowID, in document: Document, context: DocumentSettings, crossShift: Double) -> LocalRows? {
        guard document.config(of: id) != nil else { return nil }
        var alone = Document(name: document.name, settings: context)
        var pending: [(RowID, RowID?)] = [(id, nil)]
        while let (x, parent) = pending.popLast() {
            guard let config = document.config(of: x), (try? alone.appendRow(x, config: config, parent: parent)) != nil
            else { return nil }
            for c in document.children(of: x).reversed() { pending.append((c, x)) }
        }
        guard var entry = compute(id, in: alone) else { return nil }
        entry.moveAcross(by: crossShift)
        return entry
    }

    /// Moves every rect across the (vertical) main axis by `d`.
    mutating func moveAcross(by d: Double) {
        guard d != 0 else { return }
        func move(_ r: Rect?) -> Rect? { r.map { Rect(x: $0.x + d, y: $0.y, width: $0.width, height: $0.height) } }
        for k in rows.indices {
            rows[k].frame = move(rows[k].frame)
            rows[k].content = move(rows[k].content)
            rows[k].separator = move(rows[k].separator)
        }
        separatorIfNotLast = move(separatorIfNotLast)
    }
}

extension StackLine {
    /// Row `k` (any depth) of the entry at `node` with `S`'s margin-box start at `start`: frames
    /// absolute, the child's `parent` (`stack`) and `index` set, visibility not. O(log n).
    func row(_ node: Int32, _ k: Int, start: Double, of stack: RowID, autoHideLast: Bool) -> RowLayout {
        let at = line.locate(node)
        return LiveLayout.entryRow(line, node, k, origin: start + contentOffset, stack: stack, at: (at.index, at.before),
                                   lastShown: line.lastShown(), autoHideLast: autoHideLast)
    }

    /// Every row below `S` (every depth) in document order, `S`'s margin-box start at `start`.
    /// O(rows).
    func forEachRow(start: Double, of stack: RowID, autoHideLast: Bool, _ body: (RowLayout) -> Void) {
        LiveLayout.forEachRow(inLine: line, origin: start + contentOffset, stack: stack, autoHideLast: autoHideLast, body)
    }
}
