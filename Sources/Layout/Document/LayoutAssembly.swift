/// Turns the engine's relative frames into the rows of a `DocumentLayout`: absolute frames,
/// content frames, separators (SPEC §2.4) and visibility (SPEC §2.5), in one pass.
enum LayoutAssembly {
    static func rows(of c: CompiledDocument, viewport: Rect, autoHideLast: Bool) -> [RowLayout] {
        rows(of: c, range: 0..<c.count, viewport: viewport, autoHideLast: autoHideLast)
    }

    /// The rows `range` of `c`, which must hold the parents of its rows (a root row's subtree,
    /// or every row).
    static func rows(of c: CompiledDocument, range: Range<Int>, viewport: Rect, autoHideLast: Bool) -> [RowLayout] {
        var rows: [RowLayout] = []
        rows.reserveCapacity(range.count)
        let first = range.lowerBound
        for k in range {
            let f = c.flags[k]
            let p = Int(c.parentSlot[k])
            let parent: RowID? = p >= 0 ? c.ids[p] : nil
            guard f & CompiledDocument.hiddenInTree == 0 else {
                rows.append(RowLayout(id: c.ids[k], parent: parent, index: Int(c.indexInParent[k]), type: c.types[k],
                                      hidden: f & CompiledDocument.ownHidden != 0, frame: nil, content: nil,
                                      separator: nil, visibility: .hidden, percent: 0))
                continue
            }
            var frame = c.tree.frame(of: c.firstRowNode + k)
            if p >= 0, let origin = rows[p - first].frame {
                frame.x += origin.x
                frame.y += origin.y
            }
            let decor = c.decors[Int(c.decorSlot[k])]
            let separator = SeparatorRule.frame(
                row: frame,
                parentAxis: f & CompiledDocument.parentHorizontal != 0 ? .horizontal : .vertical,
                style: decor.separator,
                isLastShown: c.lastShown[p + 1] == Int32(truncatingIfNeeded: k),
                autoHideLast: autoHideLast)
            let (visibility, percent) = VisibilityRule.classify(frame, in: viewport)
            rows.append(RowLayout(id: c.ids[k], parent: parent, index: Int(c.indexInParent[k]), type: c.types[k],
                                  hidden: false, frame: frame, content: frame.inset(by: decor.insets),
                                  separator: separator, visibility: visibility, percent: percent))
        }
        return rows
    }
}
