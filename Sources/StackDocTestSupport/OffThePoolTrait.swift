import Foundation
import Testing

/// Runs each test's body on `TestExecutor.shared` (`.offThePool`) or `TestExecutor.long`
/// (`.longRunning`) instead of the cooperative pool. Every suite carries one of the two
/// (`SuiteTraitTests` checks that none is left out).
///
/// Swift Testing starts every test case at once: each body is a job on the cooperative pool
/// (one thread per core), and each result is posted by a job queued behind all of them. A full
/// run on 2 cores therefore printed its first result only after most bodies had run. Here the
/// body (and everything it awaits that has no executor of its own) runs on the executor's
/// threads, which also bound how many bodies run at once; the pool keeps only Swift Testing's
/// bookkeeping, so a result prints as soon as its body ends.
///
/// Task-local values (which `#expect` uses to find its test) come along, since the body still
/// runs in its own task. Child tasks (`async let`, task groups) run on the executor too; code
/// that blocks on work of its own uses `TestThread.run`, as before.
///
/// `STACKDOC_TESTS_ON_POOL=1` leaves the bodies on the pool, to compare a run with and without.
public struct OffThePoolTrait: TestTrait, SuiteTrait, TestScoping {
    /// The executor the bodies run on: `TestExecutor.shared`, or `TestExecutor.long` for a
    /// `.longRunning` suite.
    public var executor: TestExecutor

    /// Applies to every test in the suite and its nested suites.
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        if Self.onPool { return try await function() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }

    /// Whether `STACKDOC_TESTS_ON_POOL=1` asks for the bodies to stay on the pool.
    public static let onPool = ProcessInfo.processInfo.environment["STACKDOC_TESTS_ON_POOL"] == "1"
}

extension Trait where Self == OffThePoolTrait {
    /// The suite's tests run on `TestExecutor.shared`, off the cooperative pool (`OffThePoolTrait`).
    public static var offThePool: Self { OffThePoolTrait(executor: .shared) }

    /// The suite's bodies are long (a fuzz loop, thousands of property cases, a synchronous wait on
    /// a child process): they run off the pool on `TestExecutor.long`, so that they do not hold
    /// the threads the quick tests queue for.
    public static var longRunning: Self { OffThePoolTrait(executor: .long) }
}
