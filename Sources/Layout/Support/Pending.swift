import Dispatch

/// A result computed on a thread of the global pool from the moment it is made (or on the
/// calling thread at once, `inline`); `value` waits for it. Layout's bulk work overlaps two
/// independent halves with it (a load's order trees while its ids are indexed).
final class Pending<T: Sendable>: @unchecked Sendable {
    private var result: T?
    private let done = DispatchSemaphore(value: 0)
    private var waited = false

    /// Starts `body` on the global pool, or runs it now when `inline` is true.
    init(inline: Bool = false, _ body: @escaping @Sendable () -> T) {
        if inline {
            result = body()
            waited = true
            return
        }
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            result = body()
            done.signal()
        }
    }

    /// The result (waits for it the first time). Read from one thread only.
    var value: T {
        if !waited {
            done.wait()
            waited = true
        }
        return result!
    }
}
