import Foundation
import GRDB
import Layout

/// The change signal of the SQLite backend (`StoreBackend.waitForChange`): `PRAGMA
/// data_version`, which changes on this connection when another connection committed to the
/// file, polled every `ChangeToken.wakeInterval` while a caller waits. Nothing runs otherwise.
extension SQLiteBackend {
    func changeToken() throws -> ChangeToken {
        changeSignalReads += 1
        return ChangeToken(value: try read { (db: Database) in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 })
    }

    /// Reads the token every `ChangeToken.wakeInterval` until it differs from `token` (returned at once),
    /// `timeout` passes or `cancellation` is asked for (then `token` is returned unchanged).
    func waitForChange(after token: ChangeToken, timeout: Double, cancellation: Cancellation) throws -> ChangeToken {
        let deadline = Date().addingTimeInterval(max(0, timeout))
        while true {
            let now = try changeToken()
            if now != token { return now }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 || cancellation.isRequested { return token }
            Thread.sleep(forTimeInterval: min(left, ChangeToken.wakeInterval))
        }
    }

    /// Nothing was set up: polling `data_version` holds nothing between waits.
    func stopWaiting() throws {}
}
