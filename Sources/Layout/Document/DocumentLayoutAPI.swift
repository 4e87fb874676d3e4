// The document layout entry point (SPEC §2.3–§2.5). Compilation onto the engine lives in
// DocumentCompiler.swift, the per-row rules in SeparatorRule.swift and VisibilityRule.swift.

extension Document {
    /// Lays the document out (SPEC §2.3): every row's frames, separators and visibility at the
    /// document's offset, clamped (SPEC §2.6).
    public func layout() -> DocumentLayout {
        layout(of: laidOut(), name: name, settings: settings)
    }

    /// The document compiled onto the engine and laid out by it (no rows assembled yet); with
    /// `settings` and `roots`, only those root rows under those root settings (see `compile`).
    func laidOut(settings: DocumentSettings? = nil, roots: Range<Int>? = nil) -> CompiledDocument {
        let s = settings ?? self.settings
        var c = compile(settings: s, roots: roots)
        let horizontal = s.axis == .horizontal
        c.tree.computeLayout(root: c.rootNode,
                             availableWidth: horizontal ? nil : s.viewport.width,
                             availableHeight: horizontal ? s.viewport.height : nil)
        return c
    }

    /// The whole layout of a laid-out document: every row assembled (O(n)).
    func layout(of c: CompiledDocument, name: String, settings s: DocumentSettings) -> DocumentLayout {
        let root = c.tree.frame(of: c.rootNode)
        let contentSize = Size(width: root.width, height: root.height)
        let obscured = s.obscured
        let maxOffset = DocumentLayout.maxOffset(axis: s.axis, viewport: s.viewport, contentSize: contentSize,
                                                 obscured: obscured)
        let offset = DocumentLayout.clamp(s.offset, maxOffset: maxOffset)
        let viewport = VisibilityRule.viewportRect(axis: s.axis, viewport: s.viewport, offset: offset, obscured: obscured)
        let rows = LayoutAssembly.rows(of: c, viewport: viewport, autoHideLast: s.defaults.autoHideLastSeparator)
        var result = DocumentLayout(document: name, axis: s.axis, viewport: s.viewport, offset: offset,
                                    contentSize: contentSize, rows: rows, obscured: obscured, safeArea: s.safeArea)
        result.index = LayoutIndex(parentSlots: c.parentSlot)
        result.stickyBases = stickyBases(c, rows: result.rows, contentSize: contentSize, settings: s)
        result.scrollerBases = scrollerBases(c, rows: result.rows)
        result.applyShifts()
        return result
    }
}
