// API of edit planning, filled in by the model work (SPEC §4.1).

extension Document {
    /// The primitive changes that carry out `edit` on this document, in order. Throws a
    /// `StackDocError` naming the problem when the edit does not fit (unknown id, bad index,
    /// duplicate id, invalid value); nothing is changed either way.
    public func plan(_ edit: Edit) throws -> [Change] {
        fatalError("Document.plan: not implemented yet")
    }
}
