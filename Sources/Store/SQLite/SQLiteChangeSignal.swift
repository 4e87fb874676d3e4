import Foundation
import GRDB
import Layout

/// The change signal of the SQLite backend (`StoreBackend.waitForChange`): `PRAGMA
/// data_version`, which changes on this connection when another connection committed to the
/// file, polled every `PolledChangeSignal.interval` while a caller waits. Nothing runs otherwise.
extension SQLiteBackend {
    func changeToken() throws -> ChangeToken {
        changeSignalReads += 1
        return ChangeToken(value: try read { (db: Database) in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 })
    }

    func waitForChange(after token: ChangeToken, timeout: Double, cancellation: Cancellation) throws -> ChangeToken {
        try PolledChangeSignal.wait(after: token, timeout: timeout, cancellation: cancellation) { try changeToken() }
    }
}
