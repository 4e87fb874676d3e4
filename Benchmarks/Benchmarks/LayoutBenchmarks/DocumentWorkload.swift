import Layout

/// The document form of the flat workload: a vertical document (viewport 390 × 844) of `rows`
/// rows `fixed` h (the seeded heights of `FlatWorkload`), default insets 12/15/12/15.
enum DocumentWorkload {
    static func document(rows: Int) -> Document {
        var doc = Document(name: "bench")
        for (i, h) in FlatWorkload.heights(rows).enumerated() {
            // Ids are unique and the index is the end of the list: cannot fail.
            try? doc.insertRow("r\(i)", config: RowConfig(size: .fixed(h)), parent: nil, at: i)
        }
        precondition(doc.rowCount == rows, "DocumentWorkload: expected \(rows) rows")
        return doc
    }

    /// Documents are built once per size and reused by every iteration (building is not
    /// what the document benchmarks measure). Benchmarks run one at a time.
    nonisolated(unsafe) private static var cache: [Int: Document] = [:]

    static func cached(rows: Int) -> Document {
        if let doc = cache[rows] { return doc }
        let doc = document(rows: rows)
        cache = [rows: doc] // keep one size alive at a time
        return doc
    }

    /// Empties the cache (so a document taken from it is uniquely referenced).
    static func drop() { cache = [:] }

    /// Makes `doc` the cached document of its size.
    static func put(_ doc: Document) { cache = [doc.rowCount: doc] }
}
