import Foundation
import Layout

/// The change signal of the PostgreSQL backend (`StoreBackend.waitForChange`), polled: the token
/// is a digest of every document's version and the newest document id, read every
/// `changePollInterval` while a caller waits (every commit of a command bumps its document's
/// version; a drop or a new document changes the count or the newest id). Nothing runs
/// otherwise. (LISTEN/NOTIFY, one notification per command, is the planned signal.)
extension PostgreSQLBackend {
    /// How often `waitForChange` reads the token (the guarantee is 100 ms).
    static let changePollInterval = 0.05

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
        let deadline = Date().addingTimeInterval(max(0, timeout))
        while true {
            let now = try changeToken()
            if now != token { return now }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 || cancellation.isRequested { return token }
            usleep(useconds_t(min(left, Self.changePollInterval) * 1_000_000))
        }
    }
}
