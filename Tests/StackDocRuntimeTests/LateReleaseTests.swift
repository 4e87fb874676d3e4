import Foundation
import StackDocRuntime
import Testing
import StackDocTestSupport

/// `LateRelease`: a value handed over is freed on another thread, not the caller's, and the
/// caller keeps no reference to it; a small one is freed where it is.
@Suite(.offThePool) struct LateReleaseTests {
    /// Records the thread its deinit ran on.
    final class Witness: @unchecked Sendable {
        let freed = DispatchSemaphore(value: 0)
        let onThread: UnsafeMutablePointer<pthread_t>
        init(_ onThread: UnsafeMutablePointer<pthread_t>) { self.onThread = onThread }
        deinit {
            onThread.pointee = pthread_self()
            freed.signal()
        }
    }

    @Test func aValueHandedOverIsFreedOnAnotherThread() throws {
        let onThread = UnsafeMutablePointer<pthread_t>.allocate(capacity: 1)
        defer { onThread.deallocate() }
        var witness: Witness? = Witness(onThread)
        let freed = witness!.freed
        LateRelease.value(witness.take())
        #expect(witness == nil)
        #expect(freed.wait(timeout: .now() + 10) == .success, "freed")
        #expect(pthread_equal(onThread.pointee, pthread_self()) == 0, "on another thread")
    }

    @Test func onlyALargeValueIsHandedOver() throws {
        let onThread = UnsafeMutablePointer<pthread_t>.allocate(capacity: 1)
        defer { onThread.deallocate() }
        for count in [LateRelease.minimum - 1, LateRelease.minimum] {
            var witness: Witness? = Witness(onThread)
            let freed = witness!.freed
            LateRelease.value(witness.take(), count: count)
            #expect(freed.wait(timeout: .now() + 10) == .success, "freed")
            let here = pthread_equal(onThread.pointee, pthread_self()) != 0
            #expect(here == (count < LateRelease.minimum), "\(count) elements freed \(here ? "here" : "elsewhere")")
        }
    }
}
