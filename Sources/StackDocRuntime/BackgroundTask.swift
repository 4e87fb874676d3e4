import Dispatch

/// A computation started when the task is made, on another thread; `value` waits for it and
/// returns its result. The one way StackDoc runs work beside the calling thread.
///
/// Where it runs (`Place`):
/// - `ownThread`: a new thread of its own (8 MB of stack by default, as the main thread's). For
///   work that waits on another thread — a producer or consumer of a `HandOverQueue`, a writer
///   loop — or that runs long: such work must not hold one of the shared pool's few threads.
/// - `pool`: a thread of the shared pool (libdispatch's global queue, as wide as the machine has
///   cores). For short work that waits on nothing but the CPU, such as one half of a split.
/// - `callingThread`: at once, before `init` returns (for work too small to hand over).
///
/// Who may touch SQL: only the thread that owns the connection. A task's body works on values
/// handed to it (rows, bytes, a document moved to it), never on a connection it did not open
/// itself.
package final class BackgroundTask<T: Sendable>: @unchecked Sendable {
    /// Where a task runs.
    package enum Place: Sendable {
        /// At once, on the thread that makes the task.
        case callingThread
        /// On a thread of the shared pool.
        case pool
        /// On a new thread with `stackBytes` of stack.
        case ownThread(stackBytes: Int = 8 << 20)
    }

    private var result: T?
    private let done = DispatchSemaphore(value: 0)
    private var waited = false

    /// Starts `body` where `place` says (by default on a thread of its own).
    package init(_ place: Place = .ownThread(), _ body: @escaping @Sendable () -> T) {
        switch place {
        case .callingThread:
            result = body()
            waited = true
        case .pool:
            DispatchQueue.global(qos: .userInitiated).async { [self] in finish(body()) }
        case let .ownThread(stackBytes):
            OwnThread.start(stackBytes: stackBytes) { [self] in finish(body()) }
        }
    }

    private func finish(_ value: T) {
        result = value
        done.signal()
    }

    /// The result (waits for it the first time). Read from one thread only.
    package var value: T {
        if !waited {
            done.wait()
            waited = true
        }
        return result!
    }
}

extension BackgroundTask where T == Void {
    /// Runs `body` on a thread of the shared pool, at a low priority, and waits for nothing:
    /// for work whose end nobody waits for (freeing memory, closing a descriptor). When the
    /// process exits first, the work is not done.
    package static func detached(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: .utility).async(execute: body)
    }
}
