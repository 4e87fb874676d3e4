import Foundation
import Layout

/// The change signal of the PostgreSQL backend (`StoreBackend.waitForChange`), polled: the token
/// is a digest of every document's version and the newest document id, read every
/// `PolledChangeSignal.interval` while a caller waits (every commit of a command bumps its document's
/// version; a drop or a new document changes the count or the newest id). Nothing runs
/// otherwise. (A LISTEN/NOTIFY signal is not built: docs/shared-store.md says what it must respect.)
extension PostgreSQLBackend {
    func changeToken() throws -> ChangeToken {
        try read { tx in
            let tx = tx as! PostgreSQLTransaction
            let rows = try tx.query("""
                SELECT coalesce(sum(version), 0)::int8, count(*), coalesce(max(id), 0), coalesce(sum(hashtext(uid) # version::int4), 0)::int8
                FROM document
                """)
            var value = rows.int(0, 0) ?? 0
            for column in 1..<4 { value = value &* 1_000_003 &+ (rows.int(0, column) ?? 0) }
            return ChangeToken(value: value)
        }
    }

    func waitForChange(after token: ChangeToken, timeout: Double, cancellation: Cancellation) throws -> ChangeToken {
        try PolledChangeSignal.wait(after: token, timeout: timeout, cancellation: cancellation) { try changeToken() }
    }
}
