import Foundation
import Layout
import Store

/// What `watch` did: the changes other sessions committed while it watched, and how it ended.
public struct WatchResult {
    /// The changes, oldest first — empty when they went to `Session.remoteChangeHandler` as
    /// they came (a long watch holds none of them).
    public var changes: [RemoteChange] = []
    /// How many changes it saw.
    public var count = 0
    /// How long it was asked to watch (nil: until interrupted).
    public var seconds: Double?
    /// True when Ctrl-C (the store's `cancellation`) ended it.
    public var interrupted = false
}

/// Live updates (issue 34): `watch`, and the prompt's announcement of what other sessions
/// committed since the last command. Both catch up from the log (`StoredDocument.catchUp`);
/// waiting is the backend's change signal (`StoredDocument.waitForRemoteChange`), asked only
/// while a watch runs — an edit's path never polls.
extension Session {
    /// The longest `watch SECONDS` (a year).
    public static let longestWatch: Double = 365 * 24 * 3600

    /// `watch [SECONDS]`: the changes committed since this session last looked, then each one
    /// as it arrives, until `seconds` pass (nil: until the store's `cancellation` is requested,
    /// which also ends a timed watch early; an interrupted watch is no failure).
    func watch(seconds: Double?) throws -> CommandResult {
        let doc = try open()
        _ = doc.liveLayout()  // each change's layout report comes from the live layout
        let deadline = Date().addingTimeInterval(seconds ?? Self.longestWatch)
        var result = WatchResult(seconds: seconds)
        var token = try doc.changeToken()
        // Waiting ends with the watch: an idle session holds nothing on the server.
        defer { try? doc.stopWaitingForRemoteChanges() }
        var first = takeCaughtUp()
        while true {
            for change in first + (try doc.catchUp()) {
                result.count += 1
                if let remoteChangeHandler { remoteChangeHandler(change) } else { result.changes.append(change) }
            }
            if store.cancellation.isRequested {
                result.interrupted = true
                break
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { break }
            token = try doc.waitForRemoteChange(after: token, timeout: left)
            first = []
        }
        return .watched(result)
    }

    /// At the prompt, before it is shown: the changes other sessions committed to the open
    /// document since the last command, oldest first, with the document caught up ([] when
    /// none, when no document is open, inside an import block, or when the database cannot
    /// be read now: the next command meets that error itself).
    public func remoteChangesSinceLastCommand() -> [RemoteChange] {
        guard let doc = current, importing == nil else { return [] }
        return takeCaughtUp() + ((try? doc.catchUp()) ?? [])
    }

    /// How many changes a session keeps for its next announcement or watch while nobody asks
    /// (a batch run with another writer must not grow without bound).
    static let caughtUpLimit = 64

    /// Keeps `changes`, caught up by a command, for the next announcement or watch.
    func remember(_ changes: [RemoteChange]) {
        guard !changes.isEmpty else { return }
        caughtUp += changes.map { var change = $0; change.layout = nil; return change }
        if caughtUp.count > Self.caughtUpLimit { caughtUp.removeFirst(caughtUp.count - Self.caughtUpLimit) }
    }

    /// The changes kept for the next announcement or watch, forgotten.
    func takeCaughtUp() -> [RemoteChange] {
        defer { caughtUp = [] }
        return caughtUp
    }
}
