// The document layout entry points (SPEC §2.3–§2.5). Compilation onto the engine lives in
// DocumentCompiler.swift, the per-row rules in SeparatorRule.swift and VisibilityRule.swift.

extension Document {
    /// Lays the document out (SPEC §2.3): every row's frames, separators and visibility at the
    /// document's offset, clamped (SPEC §2.6).
    public func layout() -> DocumentLayout {
        var c = compile()
        let s = settings
        let horizontal = s.axis == .horizontal
        c.tree.computeLayout(root: c.rootNode,
                             availableWidth: horizontal ? nil : s.viewport.width,
                             availableHeight: horizontal ? s.viewport.height : nil)
        let root = c.tree.frame(of: c.rootNode)
        let contentSize = Size(width: root.width, height: root.height)
        let maxOffset = DocumentLayout.maxOffset(axis: s.axis, viewport: s.viewport, contentSize: contentSize)
        let offset = DocumentLayout.clamp(s.offset, maxOffset: maxOffset)
        let viewport = VisibilityRule.viewportRect(axis: s.axis, viewport: s.viewport, offset: offset)
        let autoHide = s.defaults.autoHideLastSeparator

        c.rows.withUnsafeMutableBufferPointer { rows in
            for k in 0..<rows.count {
                let f = c.flags[k]
                if f & CompiledDocument.hiddenInTree != 0 { continue }  // stays hidden, no frames
                let rel = c.tree.frame(of: c.firstRowNode + k)
                let p = Int(c.parentSlot[k])
                var frame = rel
                if p >= 0, let origin = rows[p].frame {
                    frame.x += origin.x
                    frame.y += origin.y
                }
                let decor = c.decors[Int(c.decorSlot[k])]
                rows[k].frame = frame
                rows[k].content = frame.inset(by: decor.insets)
                rows[k].separator = SeparatorRule.frame(
                    row: frame,
                    parentAxis: f & CompiledDocument.parentHorizontal != 0 ? .horizontal : .vertical,
                    style: decor.separator,
                    isLastShown: c.lastShown[p + 1] == Int32(k),
                    autoHideLast: autoHide)
                (rows[k].visibility, rows[k].percent) = VisibilityRule.classify(frame, in: viewport)
            }
        }
        var result = DocumentLayout(document: name, axis: s.axis, viewport: s.viewport, offset: offset,
                                    contentSize: contentSize, rows: c.rows)
        result.index = LayoutIndex(parentSlots: c.parentSlot)
        return result
    }
}
