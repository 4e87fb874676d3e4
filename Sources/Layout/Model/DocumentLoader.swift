/// Builds a `Document` from rows given parents first, each appended at the end of its stack
/// (a snapshot image's order), in bulk: the distinct styles are interned once (`style(_:)`),
/// each row only takes a reference to its style, and the id index is filled in one pass at the
/// end (`DocumentIndexTable.build`), instead of a lookup and an insert per row as
/// `Document.appendRow` does.
public struct DocumentLoader {
    private var document: Document
    private var records: [Int32] = []

    /// A loader for a document named `name` with `settings` and room for `rows` rows.
    public init(name: String, settings: DocumentSettings, rows: Int) {
        document = Document(name: name, settings: settings)
        document.reserveCapacity(rows: rows, rootRows: rows)
    }

    /// Adds style number `styleCount` (0, 1, …): the part of `config` that is not size,
    /// content or hidden. Returns false, adding nothing, when it breaks a document rule.
    public mutating func addStyle(_ config: RowConfig) -> Bool {
        guard Validation.isValid(config) else { return false }
        records.append(document.rows.retainStyle(config))
        return true
    }

    /// The styles added so far.
    public var styleCount: Int { records.count }

    /// Rows appended so far.
    public var rowCount: Int { document.rows.ids.count }

    /// Appends row `id` at the end of `parent`'s rows (the number a previous `append` returned
    /// for a stack row, or -1 for the root), with style `style` (< `styleCount`). Returns the
    /// row's number, or nil (nothing appended) when the id or a value breaks a document rule
    /// or `parent` is not a stack row of this loader. Ids are checked for duplicates by `finish`.
    public mutating func append(_ id: RowID, size: RowSize, content: Size, hidden: Bool, style: Int, parent: Int32) -> Int32? {
        guard style >= 0, style < records.count, Validation.isValidRowID(id),
              Validation.isLength(content.width), Validation.isLength(content.height) else { return nil }
        if case .fixed(let n) = size, !Validation.isLength(n) { return nil }
        if parent >= 0 {
            guard Int(parent) < rowCount, document.rows.styleIsStack(document.rows.style[Int(parent)]) else { return nil }
        }
        return document.rows.appendUnindexed(id, size: size, content: content, hidden: hidden, record: records[style], parent: parent)
    }

    /// Whether row number `row` is a stack.
    public func isStack(_ row: Int32) -> Bool { document.rows.isStack(row) }

    /// The document, its ids indexed; or the id two rows share.
    public mutating func finish() -> Result<Document, DuplicateRowID> {
        for record in records { document.rows.releaseStyle(record) }
        records = []
        if let slot = document.rows.indexAll() { return .failure(DuplicateRowID(id: document.rows.ids[Int(slot)])) }
        return .success(document)
    }

    /// Two rows of a loaded document have the same id.
    public struct DuplicateRowID: Error, Sendable {
        /// The id.
        public let id: RowID
    }
}
