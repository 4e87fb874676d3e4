/// Batches handed from one thread (the producer) to another (the consumer), in order: at most
/// `capacity` wait, so a producer faster than its consumer waits instead of holding all its
/// batches at once. The one bounded queue between StackDoc's threads: an import's rows from the
/// reading thread to the encoding one and from there to the SQL writer, an insert run's encoded
/// batches, a loaded document's decoded rows, an export's pieces, the chunks of a file written.
///
/// The producer calls `put` and, once done (with its result or with problems), `finish`; the
/// consumer calls `take` until it returns nil, or gives up with `close(stop:)`. A consumer may
/// give batches back (`recycle`) for the producer to fill again (`reusable`).
package final class HandOverQueue<Batch>: @unchecked Sendable {
    private let condition = Condition()
    private var batches: [Batch] = []
    /// Batches the consumer is done with, for the producer to fill again (`recycle`, `reusable`):
    /// at most `spares`, none once the producer ended (they would be held to the end of the
    /// work, past its peak of memory).
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

    /// A queue where at most `capacity` batches wait (at least 1).
    package init(capacity: Int = 4) {
        self.capacity = max(1, capacity)
    }

    /// Hands a batch to the consumer, waiting while `capacity` batches wait; false when the
    /// consumer stopped (the producer should stop).
    package func put(_ batch: Batch) -> Bool {
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
    package func finish() {
        condition.withLock {
            finished = true
            spare = []
            condition.broadcast()
        }
    }

    /// The next batch, waiting for it; nil once the producer ended and every batch was taken.
    package func take() -> Batch? {
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
    package func recycle(_ batch: consuming Batch) {
        condition.lock()
        if !finished, spare.count < spares { spare.append(batch) }
        condition.unlock()
    }

    /// A batch given back by `recycle` (its contents still in it: emptying it keeps the
    /// storage), nil when there is none.
    package func reusable() -> Batch? {
        condition.withLock { spare.popLast() }
    }

    /// The consumer gave up: the batches waiting and later ones are dropped; with `stop`, the
    /// producer's next `put` returns false (it should stop), else it goes on to its end.
    package func close(stop: Bool) {
        condition.withLock {
            state = stop ? .stopped : .discarding
            batches = []
            condition.broadcast()
        }
    }
}
