import Layout
import Store

/// The text of a change another session committed (`watch`, the prompt's announcement).
extension RemoteChange {
    /// The command the entry performed, as `log export` writes it.
    var command: String { (try? LogScript.command(entry)) ?? entry.kind.rawValue }

    /// Who made it: the origin, `-` when none was recorded.
    var who: String { entry.origin.map(Printer.id) ?? "-" }

    /// `step 12 "rename"` for an entry that completed a step (nil for the others).
    var stepText: String? {
        guard let step else { return nil }
        return "step \(step)" + (entry.kind == .commit ? entry.label.map { " " + Tokenizer.quote($0, always: true) } ?? "" : "")
    }

    /// What it changed: `3 rows changed, settings changed` (nil: nothing).
    var changedText: String? {
        var parts: [String] = []
        if rows > 0 { parts.append(Format.count(rows, "row") + " changed") }
        if changedSettings { parts.append("settings changed") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// `watch`'s lines for it: `entry 14 by bob: step 12 "rename": commit (3 rows changed)`, then
    /// the layout report's lines (frames, offset, transitions), as an edit's.
    public var textLines: [String] {
        let head = "entry \(entry.seq) by \(who): " + (stepText.map { $0 + ": " } ?? "") + command
            + (changedText.map { " (\($0))" } ?? "")
        return [head] + (layout.map { ChangeReport($0).textLines } ?? [])
    }

    /// The prompt's one line for the changes since the last command, oldest first:
    /// `(bob changed 3 rows: step 12 "rename"; alice: scroll by 40)` — a group committed among
    /// them only by its commit —, at most `announcedLimit` of them then `+N more`; nil when
    /// there are none.
    public static func announcement(_ changes: [RemoteChange]) -> String? {
        // A group committed among them is named once, by its commit (its step and label).
        let committed = Set(changes.compactMap { $0.entry.kind == .commit ? $0.entry.group : nil })
        let named = changes.filter { change in
            change.entry.kind == .commit || !(committed.contains(change.entry.seq) || change.entry.group.map(committed.contains) == true)
        }
        guard !named.isEmpty else { return nil }
        var pieces = named.prefix(announcedLimit).map(\.announcementPiece)
        if named.count > announcedLimit { pieces.append("+\(named.count - announcedLimit) more") }
        return "(" + pieces.joined(separator: "; ") + ")"
    }

    /// How many changes the prompt's line names.
    static let announcedLimit = 3

    /// One change in the announcement: `bob changed 3 rows: step 12 "rename"`, else `bob: COMMAND`.
    var announcementPiece: String {
        guard let stepText else { return "\(who): \(command)" }
        let what = rows == 0 && changedSettings ? "changed the settings" : "changed " + Format.count(rows, "row")
        return "\(who) \(what): \(stepText)"
    }
}

extension WatchResult {
    /// The closing line: `watched 5 s: 2 changes` (`watched until Ctrl-C: …`).
    var summary: String {
        let how = interrupted ? "until Ctrl-C" : seconds.map { Format.number($0) + " s" } ?? "until Ctrl-C"
        return "watched \(how): " + (count == 0 ? "no changes" : Format.count(count, "change"))
    }
}
