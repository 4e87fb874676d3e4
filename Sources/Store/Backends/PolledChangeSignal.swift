import Foundation
import Layout

/// The one waiting loop of a polled change signal (`StoreBackend.waitForChange`): reads the
/// token every `interval` seconds until it differs from `token` (returned at once), `timeout`
/// passes or `cancellation` is asked for (then `token` is returned unchanged).
enum PolledChangeSignal {
    /// How often a polled backend reads its token (the seam's guarantee is 100 ms).
    static let interval = 0.05

    static func wait(after token: ChangeToken, timeout: Double, cancellation: Cancellation,
                     reading read: () throws -> ChangeToken) throws -> ChangeToken {
        let deadline = Date().addingTimeInterval(max(0, timeout))
        while true {
            let now = try read()
            if now != token { return now }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 || cancellation.isRequested { return token }
            Thread.sleep(forTimeInterval: min(left, interval))
        }
    }
}
