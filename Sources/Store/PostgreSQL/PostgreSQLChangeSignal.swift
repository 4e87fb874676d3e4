import Foundation
import Layout

/// The change signal of the PostgreSQL backend (`StoreBackend.waitForChange`): `LISTEN`/`NOTIFY`.
///
/// Every committing command notifies once on `changeChannel`, inside its transaction and in the
/// commit's pipeline (`PostgreSQLTransaction.commit`): payload `UID VERSION`, never the change.
/// A waiter `LISTEN`s on the same connection (from its first `changeToken`), sleeps in poll(2) on
/// the socket and counts the notifications of other sessions (its own are skipped by server
/// process id); the token is that count. A reconnection counts as a change (notifications sent
/// while the connection was down are lost; the caller catches up from the log, which is the
/// truth) and listens again before it returns. A watch that ends stops listening
/// (`stopWaiting`), and so does the next write transaction, in its own pipeline: a session that
/// watched once, idle or editing, does not keep the server's notification queue waiting on it.
///
/// One channel per store (its database), not one per document: one `LISTEN` serves whatever
/// document the session opens or switches to, a new or dropped document is heard as well, and
/// `NOTIFY` costs its database-wide queue lock whatever the channel; a waiter that hears another
/// document's commit looks at its own document's version (one indexed read) and sleeps again.
extension PostgreSQLBackend {
    /// The channel every commit notifies and every waiter listens to.
    static let changeChannel = "stackdoc_changes"

    /// How long a waiter waits between attempts to reconnect to a server that is down (while
    /// nothing arrives it wakes every `ChangeToken.wakeInterval` to check the cancellation).
    static let reconnectInterval = 0.5

    func changeToken() throws -> ChangeToken {
        do {
            if !connection.isAlive() { try reconnect() }
            if !listening {
                try connection.listen(Self.changeChannel)
                listening = true
            }
            try hear()
        } catch {
            throw StoreError.wrapPostgreSQL(error, server: path)
        }
        return ChangeToken(value: heard)
    }

    func waitForChange(after token: ChangeToken, timeout: Double, cancellation: Cancellation) throws -> ChangeToken {
        let deadline = Date().addingTimeInterval(max(0, timeout))
        while true {
            do {
                if !listening {
                    // A write stopped the listening since `token` was taken: what was committed
                    // meanwhile went unheard, so listen again and say "look again".
                    _ = try changeToken()
                    heard &+= 1
                }
                try hear()
                if heard != token.value { return ChangeToken(value: heard) }
                let left = deadline.timeIntervalSinceNow
                if left <= 0 || cancellation.isRequested { return token }
                try connection.waitForInput(timeout: min(left, ChangeToken.wakeInterval))
            } catch {
                // The connection broke (a server restart): reconnect, listen again and say
                // "look again"; while the server stays down, retry until the deadline.
                let before = heard
                while heard == before {
                    do {
                        try reconnect()
                    } catch {
                        let left = deadline.timeIntervalSinceNow
                        if left <= 0 || cancellation.isRequested { throw StoreError.wrapPostgreSQL(error, server: path) }
                        Thread.sleep(forTimeInterval: min(left, Self.reconnectInterval))
                    }
                }
                return ChangeToken(value: heard)
            }
        }
    }

    /// Reconnects after the server closed the connection (a restart, a terminated session), and
    /// `LISTEN`s again when it listened: counts as a change heard, since notifications sent
    /// meanwhile are lost.
    /// - Throws: `PostgreSQLError` when the server cannot be reached.
    func reconnect() throws {
        let wasListening = listening
        listening = false
        try connection.reconnect()
        if wasListening {
            try connection.listen(Self.changeChannel)
            listening = true
        }
        heard &+= 1
    }

    /// Counts the notifications of other sessions received so far (reads the socket, no round trip).
    private func hear() throws {
        let own = connection.serverPID
        for note in try connection.takeNotifications() where note.senderPID != own && note.channel == Self.changeChannel {
            heard &+= 1
        }
    }

    /// `UNLISTEN *` when the connection listens (one round trip): a watch ended, and an idle
    /// session must not hold the server's notification queue.
    func stopWaiting() throws {
        guard listening else { return }
        do {
            try connection.execute("UNLISTEN *")
            listening = false
            try hear()
        } catch {
            throw StoreError.wrapPostgreSQL(error, server: path)
        }
    }

    /// What a write transaction's `BEGIN` brings along to stop listening (`UNLISTEN *`), when the
    /// connection listens: a writer is done watching.
    func stopListening() -> [String] {
        guard listening else { return [] }
        listening = false
        return ["UNLISTEN *"]
    }
}
