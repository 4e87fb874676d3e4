import Dispatch
import Layout
import Store

/// Frees a long list of changes on a background queue instead of on the command's path (the
/// changes an edit planned, those an `undo`/`redo` applied: `Session`).
///
/// Why: `Change` is an indirect enum, so a 100k-row `clear` plans 100k boxed changes (each with
/// its row's config); the last reference to them goes when the command returns, and freeing them
/// all is ≈ 15 ms of the command, after the work is done and before its report is printed
/// (issue 15 item 8). Handed over here, they are freed beside the printing and the next command.
/// Nothing else is done on that queue (no SQLite): when the process exits first, the memory
/// goes with it.
enum LateRelease {
    /// Lists shorter than this are freed where they are (handing over costs more).
    static let minimum = 4_096

    /// Takes `changes` (the caller's last reference: pass it with `consume`) and, when it holds
    /// at least `minimum` changes, frees it on a background queue.
    static func changes(_ changes: consuming [Change]) {
        guard changes.count >= minimum else { return }
        value(changes)
    }

    /// Takes `move` (the caller's last reference: pass it with `consume`) and, when the changes
    /// it applied number at least `minimum` (the undo of a 100k-row `clear`), frees it on a
    /// background queue.
    static func move(_ move: consuming HistoryMove) {
        guard move.changes.count >= minimum else { return }
        value(consume move)
    }

    /// Takes `value` (the caller's last reference) and drops it on a background queue.
    static func value<T>(_ value: consuming T) {
        let box = Box(value)
        DispatchQueue.global(qos: .utility).async { box.drop() }
    }

    /// Moves the value to the other thread (its only reference).
    private final class Box<T>: @unchecked Sendable {
        private var value: T?
        init(_ value: consuming T) { self.value = value }
        func drop() { value = nil }
    }
}
