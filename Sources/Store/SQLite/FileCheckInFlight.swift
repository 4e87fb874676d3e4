import Foundation
import GRDB
import StackDocRuntime

/// SQLite's check of the whole file (`DatabaseInspection.checkIntegrity`) on a connection and a
/// thread of its own, started when made: `DocumentStore.write` runs the first write of a session
/// meanwhile and commits only once `passed()` returns, so the check costs no time of its own
/// on a machine with a free core (docs/store.md, "The check before the first write").
///
/// The connection is read-only and reads the file as last committed — the state the write
/// started from, since the write commits only after the check has finished.
final class FileCheckInFlight: Sendable {
    private let task: BackgroundTask<Outcome>

    private struct Outcome: @unchecked Sendable {
        var result: Result<Void, any Error>
    }

    /// Starts the check of the database at `path` (waiting up to `busyTimeout` for a lock).
    init(path: String, busyTimeout: TimeInterval) {
        task = BackgroundTask {
            Outcome(result: Result {
                try DatabaseInspection.readAlone(path, busyTimeout: busyTimeout, label: "stackdoc-check") { db in
                    try DatabaseInspection.checkIntegrity(db, path: path)
                }
            })
        }
    }

    /// What the check found (waits for it): success, or the damage (`corruptFile`) or the
    /// error that kept it from reading the file.
    var finding: Result<Void, any Error> { task.value.result }

    /// Waits for the check; throws what it found unless the file passed.
    func passed() throws {
        try finding.get()
    }
}
