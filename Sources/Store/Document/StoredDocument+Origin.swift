import Foundation

import Layout

/// Who did what (issue 15): every log entry records its origin (`StoredDocument.origin`); a
/// step's origin is its first entry's.
extension StoredDocument {
    /// The origin of a handle that was given none: the operating-system user's name (of the
    /// effective user id, else `$USER`, else `$LOGNAME`, else `user`; the first that is a valid
    /// origin). Stable: the same session run twice records the same log, so a log exported
    /// from it is the same file each time. (Two sessions of one user share it; `--as NAME`
    /// tells them apart.)
    public static var defaultOrigin: String {
        let env = ProcessInfo.processInfo.environment
        var account: String?
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { account = String(cString: name) }
        return [account, env["USER"], env["LOGNAME"]].compactMap { $0 }.first { isValidOrigin($0) } ?? "user"
    }

    /// An origin (`--as NAME`): 1 to 64 characters of `A-Z a-z 0-9 _ . - : @`.
    public static func isValidOrigin(_ origin: String) -> Bool {
        !origin.isEmpty && origin.unicodeScalars.count <= 64
            && origin.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.-:@".unicodeScalars.contains($0)) }
    }

    /// Undoes the last `count` applied steps of this handle's origin — only when no step of
    /// another origin lies after the earliest of them (undoing past it would take that work back
    /// too); otherwise fails naming the step that blocks it and changes nothing. One `undo N`
    /// entry, so the document-wide cursor stays the one rule of undo and redo.
    /// - Throws: `StackDocError` (a step of another origin blocks it, nothing of this origin is left to undo, or the handle records no origin), or a store error when the database cannot be read or written.
    @discardableResult
    public func undo(mine count: Int) throws -> HistoryMove {
        guard count >= 1 else { throw StackDocError(.stepCountBelowOne(.undo, count: count)) }
        guard let origin else { throw StackDocError("undo --mine needs an origin: this session records none ('as none')") }
        let steps = try reading { tx in
            try checkCurrent(tx)
            return try tx.stepOwners(key).prefix(cursor).reversed()
        }
        var mine = 0
        for step in steps {
            if step.origin == origin {
                mine += 1
                if mine == count { return try undo(cursor - step.n + 1) }
            } else if mine < count, steps.contains(where: { $0.n < step.n && $0.origin == origin }) {
                throw StackDocError(.history(.undoMineBlocked(count: count, origin: origin, step: step.n, by: step.origin, mine: mine)))
            }
        }
        throw StackDocError(.history(.notEnoughMine(count: count, origin: origin, mine: mine)))
    }
}
