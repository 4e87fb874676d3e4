extension DocumentLayout {
    /// The visibility transitions from `old` to this layout (SPEC §2.5): every row whose state
    /// differs (a change of percentage alone is not a transition) and every row that is only in
    /// this layout (`from` nil), in this layout's document order; then every row that is only in
    /// `old` (`to` nil), in `old`'s order. Rows are matched by id (see
    /// `LayoutChangeReport.init(before:after:)`). O(n).
    ///
    /// - Parameter old: The layout before the change.
    public func transitions(from old: DocumentLayout) -> [VisibilityTransition] {
        LayoutChangeReport(before: old, after: self).transitions
    }
}
