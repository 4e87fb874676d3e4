import Foundation
import Layout

/// Batches of rows from one thread to the next: from the thread that reads an import to the one
/// that encodes its rows (`[ImportedRow]`), and from there to the thread that writes them
/// (`EncodedRows`, `DocumentStore.importDocument(reading:)`; also an insert run's,
/// `EncodedRun`). At most `capacity` batches wait, so a producer faster than its consumer waits
/// instead of holding the whole file's rows twice.
final class BatchQueue<Batch>: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [Batch] = []
    /// Batches the consumer is done with, for the producer to fill again (`recycle`, `reusable`):
    /// at most `spares`, none once the producer ended (they would be held to the end of the
    /// import, past its peak of memory).
    private var spare: [Batch] = []
    private let spares = 4
    private var finished = false
    private var state = State.open
    private let capacity: Int

    private enum State {
        /// Batches are kept for the consumer.
        case open
        /// The consumer failed: batches are dropped, so the producer goes on to its own result.
        case discarding
        /// The consumer stopped (cancelled): the producer is told to stop.
        case stopped
    }

    init(capacity: Int = 4) {
        self.capacity = capacity
    }

    /// Hands a batch to the consumer, waiting while `capacity` batches wait; false when the
    /// consumer stopped (the producer should stop).
    func put(_ batch: Batch) -> Bool {
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

    /// The producer ended (with its result or with problems): no more batches.
    func finish() {
        condition.lock()
        finished = true
        spare = []
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, waiting for it; nil once the producer ended and every batch was taken.
    func take() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty, !finished { condition.wait() }
        guard !batches.isEmpty else { return nil }
        condition.broadcast()
        return batches.removeFirst()
    }

    /// Gives back a batch the consumer is done with, so that the producer fills its storage again
    /// (`reusable`): storage fresh for every batch costs a page fault per 4 KB written (≈ a tenth
    /// of a 1M-row import's reading).
    func recycle(_ batch: consuming Batch) {
        condition.lock()
        if !finished, spare.count < spares { spare.append(batch) }
        condition.unlock()
    }

    /// A batch given back by `recycle` (its rows still in it: emptying it keeps the storage),
    /// nil when there is none.
    func reusable() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        return spare.popLast()
    }

    /// The consumer gave up: later batches are dropped (`stop`: the producer is told to stop).
    func close(stop: Bool) {
        condition.lock()
        state = stop ? .stopped : .discarding
        batches = []
        condition.broadcast()
        condition.unlock()
    }
}
