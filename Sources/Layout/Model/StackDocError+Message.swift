extension StackDocError {
    /// The error as one line of text: the one renderer of the document's errors. Every user value goes
    /// through one quoting rule: `Validation.quoted` (quoted, escaped, cut) for names and ids,
    /// `Validation.quotedPath` (quoted, escaped, whole) for paths.
    public var message: String { Self.text(kind) }

    static func text(_ kind: Kind) -> String {
        let q = Validation.quoted
        switch kind {
        case .message(let text):
            return text
        case .cancelled:
            return "cancelled: nothing changed"
        case .noDocumentOpen:
            return "no document is open (use 'new NAME', 'open NAME' or 'import PATH')"
        case .nothingToClose:
            return "no document is open"
        case .noSuchDocument(let name):
            return "no document \(q(name))"
        case .noSuchRow(let id):
            return "no row \(q(id))"
        case .rowExists(let id):
            return "row \(q(id)) already exists"
        case .notAStack(let id):
            return "row \(q(id)) is not a stack"
        case let .stackNotEmpty(id, rows):
            return "row \(q(id)) still holds \(rows == 1 ? "1 row" : "\(rows) rows"): move or remove them before 'stack none'"
        case let .notInStack(id, stack):
            return "row \(q(id)) is not in " + (stack.map { "stack \(q($0))" } ?? "the root stack")
        case .moveIntoItself(let id):
            return "cannot move row \(q(id)) into itself"
        case let .hiddenScrollTarget(id, ancestor):
            return "cannot scroll to row \(q(id)): " + (ancestor.map { "it is inside hidden row \(q($0))" } ?? "it is hidden")
        case .documentExists(let name):
            return "document \(q(name)) already exists"
        case .nothingInHistory(let move):
            return "nothing to \(move.rawValue)"
        case let .tooManySteps(move, count, available):
            return "cannot \(move.rawValue) \(count) steps: only \(available) can be \(move == .undo ? "undone" : "redone")"
        case let .compactedEntry(document, entry, base):
            return "log entry \(entry) of \(q(document)) was dropped by history compact: its history starts after entry \(base)"
        case let .undoPastCompaction(document, count, available, base):
            return "cannot undo \(count) step\(count == 1 ? "" : "s"): " + (available == 0 ? "none is left" : "only \(available) can be undone")
                + ", the history of \(q(document)) before log entry \(base + 1) was compacted"
        case let .stepCountBelowOne(move, count):
            return "\(move.rawValue) count must be at least 1, not \(count)"
        case let .historyInOpenGroup(move, label):
            return "cannot \(move.rawValue) while a group is open (begin\(label.map { " " + q($0) } ?? "")): commit or rollback first"
        case .groupAlreadyOpen(let label):
            return "a group is already open (begin\(label.map { " " + q($0) } ?? "")): commit or rollback it first"
        case .noGroupOpen(let end):
            return "no group is open: nothing to \(end.rawValue)"
        case .invalidGroupLabel:
            return "invalid group label: use 1 to 256 characters on one line, without control characters"
        case let .invalidName(name, value, path):
            let rule = name == .rowID ? "expected 1 to 64 characters from A-Z a-z 0-9 _ . - starting with a letter or _"
                                      : "expected 1 to 64 characters from A-Z a-z 0-9 _ . -"
            return "\(path): invalid \(name.rawValue) \(q(value)): \(rule)"
        case let .badValue(path, problem):
            return "\(path): \(problem)"
        case let .history(h):
            return text(h)
        }
    }

    static func text(_ h: History) -> String {
        let q = Validation.quoted
        switch h {
        case let .invalidMarkName(name):
            return "invalid mark name \(q(name)): use 1 to 64 characters of A-Z a-z 0-9 _ . - starting with a letter or _ (not 'now')"
        case let .markInOpenGroup(label):
            return "cannot mark while a group is open (begin\(label.map { " " + q($0) } ?? "")): commit or rollback first"
        case let .markExists(name, seq):
            return "mark \(q(name)) already exists (log entry \(seq))"
        case let .noSuchMark(name, document):
            return "no mark \(q(name)) in \(q(document))"
        case let .markUnreachable(name):
            // The advice is a command line: a valid mark name needs no quotes.
            return "mark \(q(name)) cannot be reached by undo or redo: the steps it stood on were discarded by a later operation (use restore \(Validation.bare(name)))"
        case let .noLogEntry(n, document, last):
            return "no log entry \(n): the history of \(q(document)) has entries 1...\(last)"
        case let .beforeFirstEntry(back, document, entries):
            return "now~\(back) is before the first log entry: the history of \(q(document)) has \(entries) entries"
        case .snapshotInOpenGroup:
            return "cannot write a snapshot while a group is open: commit or rollback first"
        case let .undoMineBlocked(count, origin, step, by, mine):
            let steps = count == 1 ? "your last step" : "your last \(count) steps"
            return "cannot undo \(steps) (\(Validation.bare(origin))): step \(step) by \(by.map(q) ?? "an unknown origin") came after \(mine == 0 ? "it" : "them") and would be undone too"
        case let .notEnoughMine(count, origin, mine):
            return mine == 0 ? "nothing to undo for \(Validation.bare(origin)): no applied step is yours"
                             : "cannot undo \(count) of your steps (\(Validation.bare(origin))): only \(mine) applied"
        case let .notEnoughMineToRedo(count, origin, mine):
            return mine == 0 ? "nothing to redo for \(Validation.bare(origin)): none of your steps is undone"
                             : "cannot redo \(count) of your steps (\(Validation.bare(origin))): only \(mine) undone"
        case let .ownStepConflict(move, origin, step, by, byOrigin, what):
            return "cannot \(move.rawValue) your step \(step) (\(Validation.bare(origin))): step \(by) by \(byOrigin.map(q) ?? "an unknown origin") changed \(what) since ('\(move.rawValue) --all' moves the document's history whoever made the steps)"
        }
    }
}
