// API of the document layout, filled in by the document-layout work (SPEC §2.3–§2.6).

extension Document {
    /// Lays the document out (SPEC §2.3): every row's frames, separators and visibility at the
    /// document's offset, clamped (SPEC §2.6).
    public func layout() -> DocumentLayout {
        fatalError("Document.layout: not implemented yet")
    }

    /// Ids of every row of type `type`, in document order.
    public func rows(ofType type: String) -> [RowID] {
        fatalError("Document.rows(ofType:): not implemented yet")
    }
}

extension DocumentLayout {
    /// The largest offset: max(0, content main − viewport main).
    public var maxOffset: Double {
        fatalError("DocumentLayout.maxOffset: not implemented yet")
    }

    /// `offset` clamped to [0, maxOffset].
    public func clamp(_ offset: Double) -> Double {
        fatalError("DocumentLayout.clamp: not implemented yet")
    }

    /// The clamped offset `scroll to ROW POS` aims at (SPEC §2.6); throws for an unknown or hidden row.
    public func scrollOffset(to row: RowID, _ position: ScrollPosition) throws -> Double {
        fatalError("DocumentLayout.scrollOffset: not implemented yet")
    }

    /// The deepest visible row whose frame contains the point, or nil.
    public func hitTest(x: Double, y: Double) -> RowID? {
        fatalError("DocumentLayout.hitTest: not implemented yet")
    }

    /// Rows whose visibility state differs from `old`, in this layout's document order
    /// (SPEC §2.5); rows that exist in only one of the two layouts are not reported.
    public func transitions(from old: DocumentLayout) -> [VisibilityTransition] {
        fatalError("DocumentLayout.transitions: not implemented yet")
    }
}
