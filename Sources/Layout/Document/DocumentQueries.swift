extension Document {
    /// Ids of every row of type `type`, in document order (hidden rows included).
    public func rows(ofType type: String) -> [RowID] {
        var found: [RowID] = []
        forEachRow { id, _, _, config in
            if config.type == type { found.append(id) }
        }
        return found
    }
}
