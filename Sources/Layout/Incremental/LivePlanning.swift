// Planning with a LiveLayout: `scroll` needs positions, which a LiveLayout answers in O(log n).

extension Document {
    /// `plan(_:)`, with `scroll` planned from `live` (the layout of this document) instead of a
    /// full layout: O(log n) for every scroll form. Other edits plan as `plan(_:)`.
    /// - Parameters:
    ///   - edit: The operation.
    ///   - live: The live layout of this document as it is.
    /// - Throws: `StackDocError` when the edit does not fit the document, as `plan(_:)`.
    public func plan(_ edit: Edit, live: LiveLayout) throws -> [Change] {
        guard case let .scroll(spec) = edit else { return try plan(edit) }
        return try planScroll(spec, layout: { live })
    }
}
