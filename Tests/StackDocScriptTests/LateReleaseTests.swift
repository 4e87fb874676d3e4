import Foundation
import Layout
@testable import StackDocScript
import Testing

/// `LateRelease`: a value handed over is freed on another thread, not the caller's, and the
/// caller keeps no reference to it.
@Suite struct LateReleaseTests {
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
}
