#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock with one condition variable (POSIX `pthread_mutex_t` and `pthread_cond_t`), for the
/// runtime's queues: `wait()` lets go of the lock while it waits and holds it again when woken.
/// Kept in memory of its own, so that its address never moves.
final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits for a `broadcast` (the lock held by the caller; held again on return).
    func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes every thread waiting (the lock held by the caller).
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Runs `body` holding the lock.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
