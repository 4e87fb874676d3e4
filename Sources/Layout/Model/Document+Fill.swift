extension Document {
    /// Runs of at least this many inserts that fill an empty document are built in bulk
    /// (`filled(by:)`); shorter ones insert row by row (the bulk build's fixed costs, a helper
    /// thread among them from `DocumentLoader.helperRows`, are not worth it).
    static let bulkFillMinimum = 1_024

    /// The document that `apply(_:)` of each change of `changes` makes of this one when it is
    /// empty and the changes insert rows at the root at indexes 0, 1, 2, … (the undo of a
    /// `clear`): built in bulk, as a snapshot image is loaded (`DocumentLoader`: the styles
    /// interned once, the rows checked, placed and indexed in one pass each) instead of a hash
    /// lookup, a style lookup and an order-tree insert per row. Equal (`==`) to the row-by-row
    /// result. nil — nothing built — for any other document or run, and when the loader refuses
    /// a row (an id twice, a value outside the document rules): the caller then applies the
    /// changes one by one, which fails, or not, exactly as before.
    func filled(by changes: ArraySlice<Change>) -> Document? {
        guard rowCount == 0, changes.count >= Self.bulkFillMinimum else { return nil }
        var loader = DocumentLoader(name: name, settings: settings, rows: changes.count)
        var rows = DocumentLoader.Rows(capacity: changes.count)
        var styles: [RowStyle: Int32] = [:]
        // The previous row's style (rows of one style often come together: one equality test,
        // no hash), kept apart from its number so that it is copied only when it changes.
        var lastStyle = RowStyle.placeholder
        var number: Int32 = -1
        for (index, change) in changes.enumerated() {
            guard case let .insertRow(id, config, nil, at) = change, at == index else { return nil }
            let style = RowStyle(config)
            if number < 0 || style != lastStyle {
                if let known = styles[style] {
                    number = known
                } else {
                    guard loader.addStyle(style.rest) else { return nil }
                    number = Int32(loader.styleCount - 1)
                    styles[style] = number
                }
                lastStyle = style
            }
            var flags: UInt8 = config.hidden ? DocumentLoader.Rows.hidden : 0
            let size: Double
            switch config.size {
            case .fit:
                flags |= DocumentLoader.Rows.fit
                size = 0
            case .fixed(let n):
                size = n
            }
            rows.append(id, parent: -1, size: size, content: config.content, flags: flags, style: number)
        }
        guard case let .success(document) = loader.finish(rows) else { return nil }
        return document
    }
}
