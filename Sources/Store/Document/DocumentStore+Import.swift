import Layout

extension DocumentStore {
    /// Stores a whole document (`import PATH [as NAME]`) under `document.name`; logged as an
    /// `import` entry that keeps the imported rows, so replay rebuilds it. A saved offset past
    /// the end of the content is stored clamped (SPEC §2.6: the offset is always clamped), so
    /// `export` and `log export` write the offset the layout shows.
    /// - Parameter document: The document to store (its name must be free).
    /// - Returns: The stored document, open.
    /// - Throws: `StackDocError` when the document breaks a rule (the one validator's messages),
    ///   its name is in use, or the database cannot be written; nothing is stored.
    @discardableResult
    public func importDocument(_ document: Document) throws -> StoredDocument {
        try importDocument(reading: { _ in (document, false) })
    }

    /// Stores the document `reading` reads (`import PATH [as NAME]`, `Document.importJSON(_:name:rows:)`)
    /// while it reads it: `reading` runs on its own thread and hands its rows over in batches as
    /// it checks them, and this thread writes them meanwhile, in the import's one transaction. Then
    /// the document's name, settings and rows are checked as `importDocument(_:)` checks them;
    /// any problem (the reading's first, then the document's, then a name in use) rolls the
    /// whole transaction back: nothing is stored.
    /// - Parameter reading: Reads the document, giving its rows to `rows` in document order (a
    ///   stack row before its rows) as it goes; returns the document, and whether the rows it
    ///   gave are its rows (false: none or others were given, and the document's rows are
    ///   written instead). When `rows` returns false, the writing failed: stop reading.
    /// - Returns: The stored document, open.
    /// - Throws: What `reading` throws; `StackDocError` when the document breaks a rule, its name
    ///   is in use, or the database cannot be written; `cancelled` when `cancellation` asks.
    @discardableResult
    public func importDocument(reading: @escaping @Sendable (_ rows: @escaping @Sendable ([ImportedRow]) -> Bool) throws
        -> (document: Document, rowsHandedOver: Bool)) throws -> StoredDocument {
        let uid = Self.newUID()
        let (id, document, live) = try backend.importDocument(uid: uid, cancellation: cancellation, reading: reading)
        return try StoredDocument(store: self, id: id, uid: uid, name: document.name, preloaded: document, live: live)
    }
}
