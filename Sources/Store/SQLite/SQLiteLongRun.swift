import GRDB
import Layout

/// A long run of row inserts or removals written by the SQLite backend (`LongRunWrite`): a bulk
/// insert run's rows are keyed and encoded for the INSERTs beside memory (`RowRunWriter.encode`,
/// handed over in batches), then bound and stepped here; a removal run is one range delete.
final class SQLiteLongRun: LongRunWrite {
    private let run: RowRunWriter
    private let neighbours: (before: RowID?, after: RowID?)
    private let encoded: EncodedRun?
    private let db: Database
    private let docID: Int64

    /// `document`: the state before the run (its pending run written already).
    init(_ run: RowRunWriter, before document: Document, db: Database, docID: Int64) throws {
        self.run = run
        self.db = db
        self.docID = docID
        neighbours = run.neighbours(before: document)
        encoded = try run.storedNeighbourKeys(neighbours, db: db, docID: docID)
    }

    var encodesImageRows: Bool {
        get { encoded?.imageRows ?? false }
        set { encoded?.imageRows = newValue }
    }

    var beside: (@Sendable () -> SnapshotImage.Encoder?)? {
        guard let encoded else { return nil }
        let run = self.run
        return { run.encode(encoded) }
    }

    func write() throws {
        if let encoded {
            try run.writeEncoded(from: encoded, neighbours: neighbours, db: db, docID: docID)
        } else {
            try run.writeAhead(neighbours: neighbours, db: db, docID: docID)
        }
    }
}
