import Foundation

/// A computation run on its own thread from the moment it is made; `value` waits for it.
/// The store overlaps work that does not touch SQL (encoding an image, building a layout) with
/// the SQL it writes at the same time.
final class BackgroundTask<T: Sendable>: @unchecked Sendable {
    private var result: T?
    private let done = DispatchSemaphore(value: 0)
    private var waited = false

    /// Starts `body` on a new thread (8 MB of stack, as the main thread's). `niceness` above 0
    /// lowers that thread's scheduling priority (Linux's per-thread nice value, inherited by the
    /// threads it starts): for work that has time to spare beside the thread that waits for it,
    /// so that on a busy machine the waiting thread — the critical path — gets a core first.
    init(niceness: Int32 = 0, _ body: @escaping @Sendable () -> T) {
        let thread = Thread { [self] in
            #if os(Linux)
            // (Best effort: a thread whose priority cannot be lowered runs at the caller's.)
            if niceness > 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
            #endif
            result = body()
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The computation's result (waits for it the first time). Read from one thread only.
    var value: T {
        if !waited {
            done.wait()
            waited = true
        }
        return result!
    }
}
