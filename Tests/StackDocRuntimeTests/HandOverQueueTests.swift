import Foundation
import StackDocRuntime
import Synchronization
import Testing
import StackDocTestSupport

/// `HandOverQueue`: batches arrive in order, a producer never runs more than `capacity` batches
/// ahead of its consumer, and a consumer that gives up drops the batches or stops the producer.
@Suite(.offThePool) struct HandOverQueueTests {
    @Test func batchesArriveInOrderAndTheProducerWaitsAtCapacity() {
        let capacity = 3, count = 2_000
        let queue = HandOverQueue<Int>(capacity: capacity)
        let put = Atomic<Int>(0)
        let producer = BackgroundTask {
            for i in 0..<count {
                #expect(queue.put(i))
                put.add(1, ordering: .releasing)
            }
            queue.finish()
        }
        var taken: [Int] = []
        var mostAhead = 0
        while let batch = queue.take() {
            taken.append(batch)
            // Puts returned ≤ batches taken + those waiting (at most `capacity`).
            mostAhead = max(mostAhead, put.load(ordering: .acquiring) - taken.count)
        }
        producer.value
        #expect(taken == Array(0..<count))
        #expect(mostAhead <= capacity)
    }

    @Test func aConsumerThatStopsStopsTheProducer() {
        let queue = HandOverQueue<Int>(capacity: 2)
        #expect(queue.put(1) && queue.put(2))
        let blocked = BackgroundTask { queue.put(3) }  // waits: the queue is full
        queue.close(stop: true)
        #expect(blocked.value == false)
        #expect(queue.put(4) == false)
        queue.finish()
        #expect(queue.take() == nil, "the waiting batches were dropped")
    }

    @Test func aConsumerThatFailsLetsTheProducerGoOnToItsEnd() {
        let queue = HandOverQueue<Int>(capacity: 1)
        #expect(queue.put(1))
        queue.close(stop: false)
        #expect((0..<10).allSatisfy { queue.put($0) }, "dropped, the producer is not held")
        queue.finish()
        #expect(queue.take() == nil)
    }

    @Test func batchesGivenBackAreReusedUntilTheProducerEnds() {
        let queue = HandOverQueue<[Int]>(capacity: 8)
        for i in 0..<6 { queue.recycle([i]) }
        #expect(queue.reusable() == [3], "at most 4 spares, the last given back first")
        queue.finish()
        queue.recycle([9])
        #expect(queue.reusable() == nil, "none once the producer ended")
    }
}
