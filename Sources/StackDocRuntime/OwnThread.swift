#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting a thread of the process's own (POSIX `pthread_create`, detached): the one place a
/// thread is made (`BackgroundTask.Place.ownThread`).
enum OwnThread {
    /// Starts `body` on a new detached thread with `stackBytes` of stack.
    static func start(stackBytes: Int, _ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let started = pthread_create(&thread, &attributes, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            // (Out of threads or memory: nothing can go on that waits for this thread.)
            Unmanaged<Body>.fromOpaque(context).release()
            fatalError("stackdoc: cannot start a thread (\(String(cString: strerror(started))))")
        }
    }

    /// The body handed to the new thread (its only reference).
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
