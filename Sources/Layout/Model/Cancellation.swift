/// A cooperative request to stop a long command (Ctrl-C at the REPL's prompt). Long loops —
/// replaying a log, loading or writing a large document, writing a large file — call `check()`
/// every so often; it throws `StackDocError(.cancelled)` once the request is made, and the
/// command undoes what it started (a write rolls back its transaction, a file is not replaced).
/// The requester (the REPL's SIGINT handler) is not known here: only a function that says
/// whether to stop.
public struct Cancellation: Sendable {
    private let requested: @Sendable () -> Bool

    /// A cancellation that asks `requested` (cheap: it is called in hot loops, every few
    /// thousand rows).
    public init(_ requested: @escaping @Sendable () -> Bool) {
        self.requested = requested
    }

    /// A cancellation never requested (the default everywhere).
    public static let never = Cancellation { false }

    /// True once cancellation is requested.
    public var isRequested: Bool { requested() }

    /// Throws once cancellation is requested.
    /// - Throws: `StackDocError` of kind `.cancelled` when cancellation was requested.
    public func check() throws {
        if requested() { throw StackDocError(.cancelled) }
    }

    /// How many rows (or entries) a loop handles between two `check()`s.
    public static let interval = 4096
}
