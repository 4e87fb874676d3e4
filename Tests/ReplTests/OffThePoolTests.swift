import Foundation
import StackDocTestSupport
import Synchronization
import Testing

/// Test bodies run off the cooperative pool (`OffThePoolTrait`, `TestExecutor`), so a full run
/// prints results from its start: a body that blocks holds an executor thread, never a pool thread
/// Swift Testing needs to post the results of the tests that already ended.
@Suite(.offThePool) struct OffThePoolTests {
    /// A synchronous body runs on the executor's threads, not the pool's.
    @Test(.disabled(if: OffThePoolTrait.onPool, "STACKDOC_TESTS_ON_POOL=1"))
    func aSynchronousBodyRunsOnTheTestExecutor() {
        #expect(TestExecutor.shared.isCurrent)
    }

    /// So does an asynchronous one, after it awaited, and its child tasks.
    @Test(.disabled(if: OffThePoolTrait.onPool, "STACKDOC_TESTS_ON_POOL=1"))
    func anAsynchronousBodyAndItsChildrenStayOnTheTestExecutor() async throws {
        try await Task.sleep(for: .milliseconds(1))
        #expect(TestExecutor.shared.isCurrent)
        async let child = TestExecutor.shared.isCurrent
        #expect(await child)
    }

    /// As many blocked bodies as the pool has threads leave it free: a job on the pool still runs
    /// and releases them. Had they blocked pool threads (as every synchronous body did), the
    /// releasing job could never start and each would give up after its 60 s.
    @Test func bodiesBlockedOnTheExecutorLeaveThePoolFree() async throws {
        let k = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let executor = TestExecutor(width: k, name: "blocked")
        let release = DispatchSemaphore(value: 0)
        let running = Shared(Atomic<Int>(0))
        let released = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<k {
                group.addTask(executorPreference: executor) {
                    if running.value.add(1, ordering: .sequentiallyConsistent).newValue == k {
                        // The last to start asks the cooperative pool to release them all.
                        Task.detached { for _ in 0..<k { release.signal() } }
                    }
                    return release.wait(timeout: .now() + 60) == .success
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(released == k)
    }

    /// Jobs run in the order they were enqueued (one thread: strictly).
    /// As many threads as cores, in each lane: on 2 cores, 8 bodies at once made a CPU-bound one
    /// (`HostileJSONTests.hundredMegabytesOfWhitespace`) take 87.6 s against its 60 s bound.
    @Test func eachExecutorIsAsWideAsTheMachineHasCores() {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        #expect(TestExecutor.shared.width == cores)
        #expect(TestExecutor.long.width == cores)
    }

    @Test func jobsRunInTheirOrder() async {
        let executor = TestExecutor(width: 1, name: "ordered")
        let order = Shared(Mutex<[Int]>([]))
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<50 {
                group.addTask(executorPreference: executor) { order.value.withLock { $0.append(i) } }
            }
        }
        #expect(order.value.withLock { $0 } == Array(0..<50))
    }
}

/// A noncopyable synchronization value that child tasks share.
final class Shared<Value: ~Copyable & Sendable>: Sendable {
    let value: Value
    init(_ value: consuming Value) { self.value = value }
}

/// A `.longRunning` suite's bodies run on the executor of their own.
@Suite(.longRunning) struct LongRunningLaneTests {
    @Test(.disabled(if: OffThePoolTrait.onPool, "STACKDOC_TESTS_ON_POOL=1"))
    func aLongSuitesBodyRunsOnTheLongExecutor() {
        #expect(TestExecutor.long.isCurrent)
        #expect(!TestExecutor.shared.isCurrent)
    }
}

/// Every suite in `Tests/` carries `.offThePool` or `.longRunning`; a new suite without either
/// would put its bodies back on the pool, ahead of every result.
@Suite(.offThePool) struct SuiteTraitTests {
    @Test func everySuiteRunsOffThePool() throws {
        var scan = SuiteTraitScan(traits: [".offThePool", ".longRunning"])
        try scan.scan(directory: Binary.packageRoot.appendingPathComponent("Tests"))
        #expect(scan.suiteCount > 150, "the scan found \(scan.suiteCount) suites")
        let missing = scan.missing().map { "\($0.file): \($0.name)" }
        #expect(missing.isEmpty, "suites without .offThePool or .longRunning:\n\(missing.joined(separator: "\n"))")
    }

    /// The scan sees a suite without the trait, one with it, an extension's tests, and a
    /// test outside any type.
    @Test func theScanTellsSuitesWithAndWithoutTheTrait() {
        var scan = SuiteTraitScan(traits: [".offThePool", ".longRunning"])
        scan.scan(source: """
            /// Documented.
            @Suite("A name", .serialized)
            struct Plain {
                @Test func a() {}
            }
            @Suite(.offThePool) struct Covered {
                @Test func b() {}
                struct Nested { @Test func c() {} }
            }
            @Suite(.serialized, .longRunning)
            final class CoveredClass {
                @Test func d() {}
            }
            struct Bare {}
            """, file: "one.swift")
        scan.scan(source: """
            extension Bare {
                @Test func e() {}
            }
            extension Covered {
                @Test(arguments: [1]) func f(x: Int) {}
            }
            @Test func loose() {}
            """, file: "two.swift")
        #expect(scan.suiteCount == 4)
        #expect(scan.missing().map { "\($0.file): \($0.name)" } == ["one.swift: Bare", "one.swift: Plain", "two.swift: (top level)"])
    }
}
