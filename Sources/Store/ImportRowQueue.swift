import Foundation
import Layout

/// Batches of rows (encoded: `EncodedRows`) from the thread that reads an import to the thread that writes them
/// (`DocumentStore.importDocument(reading:)`): at most `capacity` batches wait, so a reader
/// faster than the writer waits instead of holding the whole file's rows twice.
final class ImportRowQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [EncodedRows] = []
    /// Batches the writer is done with, for the reader to fill again (`recycle`, `reusable`):
    /// at most `spares`, none once the reading ended (they would be held to the end of the
    /// import, past its peak of memory).
    private var spare: [EncodedRows] = []
    private static let spares = 4
    private var finished = false
    private var state = State.open
    private let capacity: Int

    private enum State {
        /// Batches are kept for the writer.
        case open
        /// The writer failed: batches are dropped, so the reading goes on to its own result.
        case discarding
        /// The writer stopped (cancelled): the reading is told to stop.
        case stopped
    }

    init(capacity: Int = 4) {
        self.capacity = capacity
    }

    /// Hands a batch to the writer, waiting while `capacity` batches wait; false when the
    /// writer stopped (the reading should stop).
    func put(_ batch: EncodedRows) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while state == .open, batches.count >= capacity { condition.wait() }
        switch state {
        case .open:
            batches.append(batch)
            condition.broadcast()
            return true
        case .discarding: return true
        case .stopped: return false
        }
    }

    /// The reading ended (with a document or with problems): no more batches.
    func finish() {
        condition.lock()
        finished = true
        spare = []
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, waiting for it; nil once the reading ended and every batch was taken.
    func take() -> EncodedRows? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty, !finished { condition.wait() }
        guard !batches.isEmpty else { return nil }
        condition.broadcast()
        return batches.removeFirst()
    }

    /// Gives back a batch the writer has written, so that the reader fills its storage again
    /// (`reusable`): storage fresh for every batch costs a page fault per 4 KB written (≈ a tenth
    /// of a 1M-row import's reading).
    func recycle(_ batch: consuming EncodedRows) {
        condition.lock()
        if !finished, spare.count < Self.spares { spare.append(batch) }
        condition.unlock()
    }

    /// A batch given back by `recycle` (its rows still in it: `EncodedRows.removeAll()` keeps
    /// the storage), nil when there is none.
    func reusable() -> EncodedRows? {
        condition.lock()
        defer { condition.unlock() }
        return spare.popLast()
    }

    /// The writer gave up: later batches are dropped (`stop`: the reading is told to stop).
    func close(stop: Bool) {
        condition.lock()
        state = stop ? .stopped : .discarding
        batches = []
        condition.broadcast()
        condition.unlock()
    }
}
