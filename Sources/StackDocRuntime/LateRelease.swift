/// Frees a large value on a thread of the shared pool instead of on the command's path (the
/// changes an edit planned, those an `undo`/`redo` applied: StackDocScript's `Session`).
///
/// Why: a 100k-row `clear` plans 100k boxed changes (each with its row's config); the last
/// reference to them goes when the command returns, and freeing them all is ≈ 15 ms of the
/// command, after the work is done and before its report is printed. Handed over here, they are
/// freed beside the printing and the next command. Nothing else is done on that thread (no
/// SQLite): when the process exits first, the memory goes with it.
package enum LateRelease {
    /// Values of fewer elements than this are freed where they are (handing over costs more).
    package static let minimum = 4_096

    /// Takes `value` (the caller's last reference: pass it with `consume`) and, when it holds
    /// `count >= minimum` elements, frees it on another thread; else here.
    package static func value<T>(_ value: consuming T, count: Int) {
        guard count >= minimum else { return }
        self.value(value)
    }

    /// Takes `value` (the caller's last reference) and drops it on another thread.
    package static func value<T>(_ value: consuming T) {
        let box = Box(value)
        BackgroundTask<Void>.detached { box.drop() }
    }

    /// Moves the value to the other thread (its only reference).
    private final class Box<T>: @unchecked Sendable {
        private var value: T?
        init(_ value: consuming T) { self.value = value }
        func drop() { value = nil }
    }
}
