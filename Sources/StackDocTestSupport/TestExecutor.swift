import Foundation

/// A task executor of its own threads, apart from the cooperative pool: where test bodies run
/// (`OffThePoolTrait`), so that a body that blocks holds one of these threads, never one of the
/// pool's.
///
/// Swift Testing runs a test's body on the cooperative pool (one thread per core) and posts the
/// test's result there too, behind every job queued before it. On a 2-core machine a full run
/// queued every test's body ahead of the first result, so nothing but `started` printed for most
/// of the run. With the bodies here, the pool holds only Swift Testing's own short jobs, and each
/// result prints as soon as its body ends.
///
/// Jobs run in the order they were enqueued, on `width` threads started on first use. A long job
/// holds its thread from every job behind it: long suites run on `TestExecutor.long`.
public final class TestExecutor: TaskExecutor, @unchecked Sendable {
    /// The executor every `OffThePoolTrait` test runs on: one thread per core, so that no more
    /// bodies run at once than the machine has cores (on 2 cores, 8 at once stretched a
    /// CPU-bound body past its time bound: `HostileJSONTests.hundredMegabytesOfWhitespace`
    /// took 87.6 s against 60 s).
    public static let shared = TestExecutor(width: defaultWidth, name: "stackdoc-test")

    /// The executor of the suites marked `.longRunning` (fuzz loops, property tests of thousands
    /// of cases, synchronous waits on child processes), as wide as `shared`: in a queue of their
    /// own, so that the quick tests queued behind them in `shared` do not wait for them.
    public static let long = TestExecutor(width: defaultWidth, name: "stackdoc-long")

    /// The machine's core count (at least one).
    static let defaultWidth = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// How many threads run jobs.
    public let width: Int
    /// The threads' names (`NAME-1` …), to tell them in a debugger.
    public let name: String

    private let condition = NSCondition()
    /// Queued jobs; `head` is the next to run (a ring would do; this is compacted as it drains).
    private var queue: [UnownedJob] = []
    private var head = 0
    private var started = false

    /// An executor of `width` threads named `name-1` … `name-width`.
    public init(width: Int, name: String) {
        precondition(width >= 1, "a TestExecutor needs at least one thread")
        self.width = width
        self.name = name
    }

    /// Whether the calling code runs on one of this executor's threads.
    public var isCurrent: Bool {
        Thread.current.threadDictionary[Self.ownerKey] as? ObjectIdentifier == ObjectIdentifier(self)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            if !started { started = true; startThreads() }
            queue.append(job)
            condition.signal()
        }
    }

    private static let ownerKey = "StackDocTestSupport.TestExecutor"

    /// Called with `condition` held, once.
    private func startThreads() {
        for index in 1...width {
            let thread = Thread { [self] in
                Thread.current.threadDictionary[Self.ownerKey] = ObjectIdentifier(self)
                while true { next().runSynchronously(on: asUnownedTaskExecutor()) }
            }
            thread.name = "\(name)-\(index)"
            thread.stackSize = TestThread.stackSize
            thread.start()
        }
    }

    /// The oldest queued job, waiting for one.
    private func next() -> UnownedJob {
        condition.withLock {
            while head == queue.count { condition.wait() }
            let job = queue[head]
            head += 1
            if head == queue.count || head >= 1024 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return job
        }
    }
}
