import Foundation
import Layout
import Store

/// Tab completion at the prompt (libedit): what the word under the cursor may become, from the
/// words before it. Pure apart from reading the session's documents and rows, so tests call it
/// directly; `Interactive` hands it to libedit.
public enum Completion {
    /// What to offer for the word being typed.
    public enum Candidates: Equatable, Sendable {
        /// These words (already filtered by the typed prefix, sorted, unique).
        case words([String])
        /// File paths (libedit's file name completion).
        case files
    }

    /// The commands whose first word is a file path (`export svg PATH` and `log export PATH` too).
    static let pathCommands: Set<String> = ["import", "export", "read", "output", "once"]
    /// The commands whose every argument is a row id.
    static let idCommands: Set<String> = ["hide", "show", "remove", "row"]
    /// The words after which a document name comes.
    static let documentWords: Set<String> = ["open", "drop", "as"]

    /// Candidates for the word `prefix` that starts at `start` (a character offset) in `line`.
    public static func candidates(line: String, start: Int, prefix: String, session: Session?) -> Candidates {
        let before = String(line.prefix(start))
        let words = (try? Tokenizer.tokenize(before)) ?? []
        guard let first = words.first else {
            return .words(matching(prefix, CommandTable.all.flatMap { [$0.name] + $0.aliases }))
        }
        let command = first.text.lowercased()
        let previous = words.last?.text.lowercased() ?? ""
        if command == "help" {
            return .words(matching(prefix, CommandTable.all.map(\.name) + ["rowspec", "sepspec"]))
        }
        if words.count == 1 && pathCommands.contains(command) { return .files }
        if command == "export" && words.count == 2 && previous == "svg" { return .files }
        if command == "log" { return words.count == 1 ? .words(matching(prefix, ["export"])) : .files }
        if documentWords.contains(previous) {
            return .words(matching(prefix, (try? session?.store.documentNames()) ?? []))
        }
        if takesMark(command, previous: previous, count: words.count) {
            return .words(matching(prefix, markNames(session)))
        }
        if previous == "separator" || (command == "defaults" && words.count >= 2 && words[1].isKeyword("separator")) {
            return .words(matching(prefix, SeparatorWords.keywords))
        }
        if command == "defaults" && words.count == 1 {
            return .words(matching(prefix, ["insets", "separator", "autohide"]))
        }
        if command == "set" && words.count == 2 && words[1].isKeyword("stack") {
            return .words(matching(prefix, ["axis", "padding", "spacing", "justify", "align"]))
        }
        if idCommands.contains(command) || (words.count == 1 && ["set", "replace", "move"].contains(command))
            || (command == "scroll" && previous == "to") || ["after", "before", "in"].contains(previous) {
            return .words(matching(prefix, rowIDs(prefix, session: session) + (command == "set" && words.count == 1 ? ["stack"] : [])))
        }
        if command == "add" && words.count == 1 { return .words([]) }  // new ids
        if let choices = valueWords[previous] {
            return .words(matching(prefix, choices))
        }
        if command == "move" && previous == "to" { return .words(matching(prefix, ["top", "bottom"])) }
        if command == "layout" { return .words(matching(prefix, ["--visible", "--range"])) }
        if command == "scroll" && words.count == 1 { return .words(matching(prefix, ["by", "to"])) }
        if command == "scroll" { return .words(previous == "by" ? [] : matching(prefix, ScrollPosition.allCases.map(\.rawValue))) }
        return .words(matching(prefix, nextWords(command, count: words.count, session: session, prefix: prefix)))
    }

    /// What the grammar of `add`, `set`, `replace` and `move` accepts after their row (`count`
    /// words typed): ROWSPEC words, positions, more row ids (`set` only), `with`.
    static func nextWords(_ command: String, count: Int, session: Session?, prefix: String) -> [String] {
        switch command {
        case "add": return RowSpecWords.keywords + ["at", "after", "before", "in"]
        case "set": return RowSpecWords.keywords + rowIDs(prefix, session: session)
        case "replace": return count == 2 ? ["with"] : count == 3 ? [] : RowSpecWords.keywords
        case "move": return ["to", "after", "before", "in"]
        default: return []
        }
    }

    /// True where a mark name may come: after `diff`, `restore`, `--at`, `undo to`, `redo to`.
    static func takesMark(_ command: String, previous: String, count: Int) -> Bool {
        if ["diff", "restore", "--at"].contains(previous) { return true }
        if command == "diff" && count == 2 { return true }  // diff REF REF
        return ["undo", "redo"].contains(command) && previous == "to" && count == 2
    }

    /// The marks of the open document, oldest first.
    static func markNames(_ session: Session?) -> [String] {
        ((try? session?.current?.marks()) ?? []).map { Tokenizer.quote($0.name) }
    }

    /// Words that follow a keyword taking one of a few values.
    static let valueWords: [String: [String]] = [
        "stack": Axis.allCases.map(\.rawValue), "axis": Axis.allCases.map(\.rawValue),
        "justify": Justify.allCases.map(\.rawValue), "align": AlignSelf.allCases.map(\.rawValue),
        "align-items": Align.allCases.map(\.rawValue), "autohide": ["on", "off"],
        "new": [], "timer": ["on", "off"], "at": ["top", "bottom"], "sticky": ["on", "off"],
    ]

    /// The ids of the open document that start with `prefix` (at most `limit`, in document order).
    static func rowIDs(_ prefix: String, session: Session?, limit: Int = 1000) -> [String] {
        guard let document = session?.current?.document else { return [] }
        var ids: [String] = []
        document.forEachRow { id, _, _, _ in
            if ids.count < limit, id.hasPrefix(prefix) { ids.append(Tokenizer.quote(id)) }
        }
        return ids
    }

    /// The paths a file path being typed (`prefix`) may become: the entries of its directory
    /// that start with its last part, a directory with a `/` after it, dot files only when the
    /// part starts with `.`; never the open database's `-wal`, `-shm` or `-journal` file.
    public static func fileNames(_ prefix: String, session: Session?) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let directoryPart = slash.map { String(prefix[...$0]) } ?? ""
        let namePart = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        let typed = Session.expandingTilde(directoryPart)
        let directory = session?.resolve(typed.isEmpty ? "." : typed) ?? (typed.isEmpty ? "." : typed)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var paths: [String] = []
        for name in names where name.hasPrefix(namePart) && (namePart.hasPrefix(".") || !name.hasPrefix(".")) {
            let full = directory + "/" + name
            if ["-wal", "-shm", "-journal"].contains(where: { name.hasSuffix($0) }), session?.store.isOwnFile(full) == true { continue }
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            paths.append(directoryPart + name + (isDirectory.boolValue ? "/" : ""))
        }
        return paths.sorted()
    }

    /// The words that start with `prefix` (keywords case-insensitively), sorted, without repeats.
    static func matching(_ prefix: String, _ words: [String]) -> [String] {
        let lower = prefix.lowercased()
        return Array(Set(words.filter { $0.hasPrefix(prefix) || $0.lowercased().hasPrefix(lower) })).sorted()
    }
}
