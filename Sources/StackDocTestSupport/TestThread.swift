import Foundation

/// Runs a long blocking piece of a test on a thread of its own, so that the test does not hold
/// one of the cooperative pool's threads (one per core) while it computes or waits.
///
/// Swift Testing starts every test at once and runs synchronous test bodies on the cooperative
/// pool. On a 2-core machine two long synchronous tests (a child process read to its end, a
/// million-row document) hold both threads, and every other test, finished or not, reports
/// nothing until they end. A long test is `async` and awaits its blocking work here instead:
///
/// ```swift
/// @Test func bigDocument() async throws {
///     let outcome = try await TestThread.run { try buildAndMeasure() }
///     #expect(outcome.rows == 1_000_000)
/// }
/// ```
///
/// Check results after the `await`, not inside `body`: Swift Testing attributes an `#expect` to
/// its test through task-local values, which a plain thread does not have.
public enum TestThread {
    /// The stack size of the threads: as large as a main thread's, for deep recursion in debug builds.
    static let stackSize = 8 << 20

    /// Runs `body` on a new thread and returns what it returns (or throws what it throws),
    /// suspending the calling task meanwhile.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let thread = Thread {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
            thread.stackSize = stackSize
            thread.start()
        }
    }
}
