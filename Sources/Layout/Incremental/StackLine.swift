/// A big nested stack kept as a line of its own (issue 11, item 5): the rows of a root row `S`
/// that is a stack are entries of a `RootLine` (one per child of `S`, with its subtree), so that
/// a change inside `S` lays one child out again and updates the line in O(log n), instead of
/// laying `S`'s whole subtree out as one `LocalRows`.
///
/// Exact while `S`'s children are laid out independently of each other along the main axis:
/// `S` is shown, `fit` along the root's (vertical) main axis, without `min`/`max` or sticky, and
/// stretched across (its width is the root's, whatever its rows): its length is its content's,
/// so no free space is shared and nothing shrinks, and a child's layout depends on `S`'s width,
/// insets, alignment and spacing only (`context`). Positions are then prefix sums of the
/// children's outer lengths plus `S`'s spacing, as on the root line.
struct StackLine: Sendable {
    /// The children of `S`, entries relative to their margin-box start; cross coordinates absolute.
    var line: RootLine
    /// `S`'s own row (type, margins, insets, separator, cross position and length), as a leaf's.
    var style: LiveEntries.LeafStyle
    /// `S`'s insets before and after its rows along the main axis, and its spacing (layout units).
    var insetStart: Double
    var insetEnd: Double
    var gap: Double
    /// Framed rows below `S` (kept by the updates: the line's own count leaves touched entries out).
    var framed: Int
    /// The root settings under which one child of `S` is laid out on its own as `S` lays it out.
    var context: DocumentSettings

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

    /// The settings laying a child of stack row `config` (frame `frame`) out on its own, or nil
    /// when `S` does not qualify (see the type's comment).
    static func context(for config: RowConfig, frame: Rect?, settings: DocumentSettings) -> DocumentSettings? {
        guard settings.axis == .vertical, let stack = config.stack, stack.axis == .vertical, let frame,
              !config.hidden, !config.sticky, !config.hasSizeLimits, config.size == .fit,
              config.alignSelf.resolved(in: settings.align) == .stretch else { return nil }
        var s = settings
        s.axis = .vertical
        s.viewport = Size(width: frame.width, height: 0)
        s.offset = 0
        s.viewportInsets = .zero
        s.keyboard = 0
        s.padding = config.effectiveInsets(settings.defaults)
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
    /// Row `k` of the entry at `node` with `S`'s margin-box start at `start`: frames absolute,
    /// the child's `parent` (`stack`) and `index` set, visibility not. `at` and `lastShown` are
    /// the node's position facts (`RootLine.locate`) and the line's last shown node.
    func row(_ node: Int32, _ k: Int, start: Double, of stack: RowID, autoHideLast: Bool,
             at: (index: Int, before: Double), lastShown: Int32) -> RowLayout {
        var r = line.entries.row(Int(node), k, start: start + contentOffset + at.before, isLast: node == lastShown,
                                 autoHideLast: autoHideLast)
        if k == 0 {
            r.index = at.index
            r.parent = stack
        }
        return r
    }

    /// `row(_:_:start:of:autoHideLast:at:lastShown:)`, finding the node's position. O(log n).
    func row(_ node: Int32, _ k: Int, start: Double, of stack: RowID, autoHideLast: Bool) -> RowLayout {
        let at = line.locate(node)
        return row(node, k, start: start, of: stack, autoHideLast: autoHideLast, at: (at.index, at.before),
                   lastShown: line.lastShown())
    }

    /// Every row below `S` in document order, `S`'s margin-box start at `start`. O(rows).
    func forEachRow(start: Double, of stack: RowID, autoHideLast: Bool, _ body: (RowLayout) -> Void) {
        let last = line.lastShown()
        var node = line.first()
        var before = 0.0
        var index = 0
        while node >= 0 {
            for k in 0..<line.entries.rowCount(Int(node)) {
                body(row(node, k, start: start, of: stack, autoHideLast: autoHideLast, at: (index, before), lastShown: last))
            }
            before += line.contribution[Int(node)]
            index += 1
            node = line.successor(node)
        }
    }
}
