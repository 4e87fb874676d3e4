import Foundation

/// A computation run on its own thread from the moment it is made; `value` waits for it.
/// The store overlaps work that does not touch SQL (encoding an image, building a layout) with
/// the SQL it writes at the same time.
final class BackgroundTask<T: Sendable>: @unchecked Sendable {
    private var result: T?
    private let done = DispatchSemaphore(value: 0)
    private var waited = false

    /// Starts `body` on a new thread (8 MB of stack, as the main thread's).
    init(_ body: @escaping @Sendable () -> T) {
        let thread = Thread { [self] in
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
