import GRDB

/// The `row` table's id index (`row_by_id`) during a bulk insert (`BulkRowInserter`) or a big
/// run of one write (`RowRunWriter`, `dropIfOutnumbered`): once the
/// rows inserted outnumber every other row of the table, the index is dropped, and built again
/// (SQLite sorts its entries and writes its pages in order) when the insert ends — in the same
/// transaction, so a failure anywhere rolls the drop back with the rows. Adding the entries one
/// by one in the order the rows come (not the ids' order) costs a b-tree descent and page
/// splits each: ≈ a quarter of a 1M-row import's SQL time, against ≈ a tenth for the rebuild.
///
/// The rebuild reads every row of the table, so it is chosen only when that is less than twice
/// the rows this insert adds: at 65,536 rows inserted, then at each doubling, the table's rows
/// are counted up to twice that many (an O(n) count in all). The index's definition is the one
/// stored in the database (migrations/), read back before the drop, never restated here.
struct DeferredIDIndex {
    /// The index of ids of current rows (migrations/0005).
    static let name = "row_by_id"
    /// Rows inserted before the first count (smaller inserts never drop the index).
    static let firstCount = 65_536

    /// The dropped index's SQL, to run again at `restore`; nil while the index exists.
    private var definition: String?
    private var nextCount = firstCount

    /// Called after each statement of the insert with the rows inserted so far (`inserted`):
    /// drops the index when those rows outnumber the others (counted at `firstCount` rows and at
    /// each doubling).
    mutating func rowsInserted(_ inserted: Int, _ db: Database) throws {
        guard definition == nil, inserted >= nextCount else { return }
        nextCount = inserted * 2
        let counted = try Self.tableRows(upTo: 2 * inserted, db)
        guard counted < 2 * inserted else { return }
        try drop(db)
    }

    /// For a change of many rows whose number is known before it starts (a run of one write,
    /// `RowRunWriter`): drops the index at once when the rows left in the table besides them —
    /// the others, for an insert of `rows`; those that stay, for a delete of `rows` — are fewer
    /// than `rows` (the table is counted up to `2 × rows`), so the index is never updated row by
    /// row and `restore` rebuilds it from fewer rows than the change touched.
    mutating func dropIfOutnumbered(by rows: Int, deleting: Bool, _ db: Database) throws {
        guard definition == nil, rows >= Self.firstRun else { return }
        let counted = try Self.tableRows(upTo: 2 * rows, db)
        let others = deleting ? counted - rows : counted
        guard others < rows else { return }
        try drop(db)
    }

    /// The rows of the `row` table, counted up to `limit`.
    static func tableRows(upTo limit: Int, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM row LIMIT ?)", arguments: [limit]) ?? 0
    }

    /// Runs smaller than this keep the index (counting the table would cost more than it saves).
    static let firstRun = 4_096

    private mutating func drop(_ db: Database) throws {
        guard let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?",
                                            arguments: [Self.name]) else { return }
        try db.execute(sql: "DROP INDEX \(Self.name)")
        definition = sql
    }

    /// Builds the index again if it was dropped (its uniqueness is checked then: a repeated id
    /// fails here as it would have failed its insert).
    mutating func restore(_ db: Database) throws {
        guard let sql = definition else { return }
        try db.execute(sql: sql)
        definition = nil
    }
}
